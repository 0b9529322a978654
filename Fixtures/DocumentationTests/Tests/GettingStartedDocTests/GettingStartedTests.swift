// Getting started: "Test it".

import Tally
import TallyTesting
import Testing

@Test func onAppearTracksTheVisit() {
    let spy = AnalyticsSpy()
    MenuItemDetailModel(item: .pizza, analytics: spy).onAppear()
    spy.expectTracked(.menuItemDetailVisited(itemName: "Pizza"))
    spy.expectNothingElse()
}

@Test func superPropertiesReachEveryEvent() async {
    let memory = InMemoryDestination()
    let analytics = AnalyticsClient(processors: [.superProperties(["app": "menu"])], destinations: [memory])
    analytics.track("menu_item_ordered")
    await analytics.flush()
    memory.expectTracked(Event("menu_item_ordered", ["app": "menu"]))
}
