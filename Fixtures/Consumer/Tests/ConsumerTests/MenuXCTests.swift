import PartnerMapLive
import Tally
import TallyTesting
import XCTest

/// The same checks in XCTest.
final class MenuXCTests: XCTestCase {
    func testOnAppearTracksTheVisit() {
        let spy = AnalyticsSpy()
        MenuItemDetailModel(itemName: "Pizza", price: 9.5, analytics: spy).onAppear()
        spy.expectTracked(.menuItemDetailVisited(itemName: "Pizza"))
        spy.expectNothingElse()
    }

    func testTheHippoDestinationLogsTrackEvents() async {
        let hippo = HippoSpy()
        let analytics = AnalyticsClient(destinations: [HippoDestination(client: hippo)])
        MenuItemDetailModel(itemName: "Pizza", price: 9.5, analytics: analytics).addToOrder()
        await analytics.flush()
        hippo.calls.expectCalled(
            "logEvent(named:properties:)", with: "menu_item_ordered", ["item_name": "Pizza", "price": 9.5])
    }
}
