// TallyTesting.md: a test in a target that has TallyTesting and nothing else.

@testable import App
import TallyTesting
import Testing

@Test(.exhaustive) func onAppearTracksTheVisit() {
    let spy = AnalyticsSpy()
    MenuItemDetailModel(item: .pizza, analytics: spy).onAppear()
    spy.expectTracked(.menuItemDetailVisited(itemName: "Pizza"))
}
