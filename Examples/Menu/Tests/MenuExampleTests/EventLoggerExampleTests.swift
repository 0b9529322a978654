import MenuExample
import Tally
import TallySpy
import Testing

/// "Should I test the third-party library direct interaction?" The article's `EventLoggerTests`: the code
/// that calls Hippo Analytics, tested through a one-to-one spy of the client's interface.
@Suite(.exhaustive)
struct EventLoggerExampleTests {
    @Test func logsEventsWithCorrectParameters() async {
        let hippo = HippoClientSpy()
        let analytics = AnalyticsClient(destinations: [EventLogger(hippoAnalyticsClient: hippo)])

        analytics.track(Event("test", ["key": "value"]))
        await analytics.flush()

        hippo.expectCalled(.logEvent(named: "test", properties: ["key": "value"]))
    }

    @Test func theScreensEventsReachHippoInOrder() async {
        let hippo = HippoClientSpy()
        let analytics = AnalyticsClient(destinations: [EventLogger(hippoAnalyticsClient: hippo)])
        let viewModel = MenuItemDetail.ViewModel(
            item: MenuItem(name: "Margherita"), orderController: OrderController(), eventLogging: analytics)

        viewModel.onAppear()
        viewModel.addOrRemoveFromOrder()
        viewModel.addOrRemoveFromOrder()  // removed: nothing reaches Hippo
        await analytics.flush()

        hippo.expectCalls(inOrder: [
            .logEvent(named: "menu_item_detail_visited", properties: ["item_name": "Margherita"]),
            .logEvent(named: "menu_item_ordered", properties: ["item_name": "Margherita"]),
        ])
    }

    @Test func aScreenIsLoggedAsScreenViewed() async {
        let hippo = HippoClientSpy()
        let analytics = AnalyticsClient(destinations: [EventLogger(hippoAnalyticsClient: hippo)])

        analytics.screen("Menu", ["section": "pizza"])
        await analytics.flush()

        hippo.expectCalled(.logEvent(named: "screen_viewed", properties: ["screen_name": "Menu", "section": "pizza"]))
    }

    @Test func whatHippoHasNoCallForIsDroppedAndCounted() async {
        let hippo = HippoClientSpy()
        let analytics = AnalyticsClient(destinations: [EventLogger(hippoAnalyticsClient: hippo)])

        analytics.identify(userId: "user-42")
        await analytics.flush()

        hippo.expectNotCalled(.logEvent)
        #expect(analytics.statistics.destinations["hippo"]?.dropped[.rejected] == 1)
    }
}
