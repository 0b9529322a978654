import PartnerMapLive
import Tally
import TallyTesting
import XCTest

// Wrong on purpose: each test must FAIL (see FailingTests.swift).

final class FailingXCTests: XCTestCase {
    func testAWrongPropertyFails() {
        let spy = AnalyticsSpy()
        MenuItemDetailModel(itemName: "Pizza", price: 9.5, analytics: spy).onAppear()
        // must fail on the next line: Expected track menu_item_detail_visited {"item_name":"Calzone"} to have been tracked, but it was not.
        spy.expectTracked(.menuItemDetailVisited(itemName: "Calzone"))
    }

    func testAWrongCallFails() async {
        let hippo = HippoSpy()
        let analytics = AnalyticsClient(destinations: [HippoDestination(client: hippo)])
        MenuItemDetailModel(itemName: "Pizza", price: 9.5, analytics: analytics).addToOrder()
        await analytics.flush()
        // must fail on the next line: No recorded call matches the expected call
        hippo.calls.expectCalled("logEvent(named:properties:)", with: "menu_item_removed", [:])
    }
}
