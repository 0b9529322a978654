import MenuExample
import Tally
import TallyTesting
import Testing

/// "Should I test the third-party library direct interaction?" The article's `EventLoggerTests`: the code
/// that calls Hippo Analytics, tested through a one-to-one spy of the client's interface.
@Suite(.exhaustive)
struct EventLoggerExampleTests {
    @Test func logsEventsWithCorrectParameters() async {
        let hippo = HippoAnalyticsClientInterfaceSpy()
        let analytics = AnalyticsClient(destinations: [EventLogger(hippoAnalyticsClient: hippo)])

        analytics.track(Event("test", ["key": "value"]))
        await analytics.flush()

        hippo.calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "value"])
    }

    @Test func theScreensEventsReachHippoInOrder() async {
        let hippo = HippoAnalyticsClientInterfaceSpy()
        let analytics = AnalyticsClient(destinations: [EventLogger(hippoAnalyticsClient: hippo)])
        let viewModel = MenuItemDetail.ViewModel(
            item: MenuItem(name: "Margherita"), orderController: OrderController(), eventLogging: analytics)

        viewModel.onAppear()
        viewModel.addOrRemoveFromOrder()
        viewModel.addOrRemoveFromOrder()  // removed: nothing reaches Hippo
        await analytics.flush()

        hippo.calls.expectCalls(inOrder: [
            .call("logEvent(named:properties:)", with: "menu_item_detail_visited", ["item_name": "Margherita"]),
            .call("logEvent(named:properties:)", with: "menu_item_ordered", ["item_name": "Margherita"]),
        ])
    }

    @Test func aScreenIsLoggedAsScreenViewed() async {
        let hippo = HippoAnalyticsClientInterfaceSpy()
        let analytics = AnalyticsClient(destinations: [EventLogger(hippoAnalyticsClient: hippo)])

        analytics.screen("Menu", ["section": "pizza"])
        await analytics.flush()

        hippo.calls.expectCalled(
            "logEvent(named:properties:)", with: "screen_viewed", ["screen_name": "Menu", "section": "pizza"])
    }

    @Test func whatHippoHasNoCallForIsDroppedAndCounted() async {
        let hippo = HippoAnalyticsClientInterfaceSpy()
        let analytics = AnalyticsClient(destinations: [EventLogger(hippoAnalyticsClient: hippo)])

        analytics.identify(userId: "user-42")
        await analytics.flush()

        hippo.calls.expectNotCalled("logEvent(named:properties:)")
        #expect(analytics.diagnostics.destinations["hippo"]?.dropped[.rejected] == 1)
    }
}
