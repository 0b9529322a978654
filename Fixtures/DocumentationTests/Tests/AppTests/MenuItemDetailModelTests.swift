// TallyTesting.md: a test in a target that has TallyTesting and nothing else.

import TallyTesting
import Testing

@testable import App

@Test(.exhaustive) func onAppearTracksTheVisit() {
    let spy = AnalyticsSpy()
    MenuItemDetailModel(item: .pizza, analytics: spy).onAppear()
    spy.expectTracked(.menuItemDetailVisited(itemName: "Pizza"))
}
