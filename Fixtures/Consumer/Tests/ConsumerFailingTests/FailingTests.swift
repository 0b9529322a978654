import PartnerMapLive
import Tally
import TallyTesting
import Testing

// Every test here is wrong on purpose and must FAIL: `.ci/check-consumer` runs this target, expects a failing
// exit status, and looks for each issue's message at the line after its marker. If one of these
// passes, a user's failing expectation would pass too.

struct FailingSwiftTestingTests {
    @Test func aWrongPropertyFails() {
        let spy = AnalyticsSpy()
        MenuItemDetailModel(itemName: "Pizza", price: 9.5, analytics: spy).onAppear()
        // must fail on the next line: Expected track menu_item_detail_visited {"item_name":"Calzone"} to have been tracked, but it was not.
        spy.expectTracked(.menuItemDetailVisited(itemName: "Calzone"))
    }

    @Test func anExtraEventFails() {
        let spy = AnalyticsSpy()
        let model = MenuItemDetailModel(itemName: "Pizza", price: 9.5, analytics: spy)
        model.onAppear()
        model.addToOrder()
        spy.expectTracked(.menuItemDetailVisited(itemName: "Pizza"))
        // must fail on the next line: Expected nothing else to have been tracked, but 1 event was not accounted for by an expectation
        spy.expectNothingElse()
    }

    @Test func aWrongCallFails() async {
        let hippo = HippoSpy()
        let analytics = AnalyticsClient(destinations: [HippoDestination(client: hippo)])
        MenuItemDetailModel(itemName: "Pizza", price: 9.5, analytics: analytics).addToOrder()
        await analytics.flush()
        // must fail on the next line: No recorded call matches the expected call
        hippo.calls.expectCalled("logEvent(named:properties:)", with: "menu_item_removed", [:])
    }
}
