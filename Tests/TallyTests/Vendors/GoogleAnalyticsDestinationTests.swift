#if SpyMacro
import Foundation
import Tally
import TallySpy
import TallyTesting
import Testing

/// The example's third-party SDK: a class we do not control, with its own initializer and method.
final class GoogleSDK {
    private let lock = NSLock()
    private var recorded: [String] = []
    var sdkCalls: [String] { lock.withLock { recorded } }

    init(apiKey: String, clientSecret: String) {}

    func trackEvent(with name: String, properties: [String: Any]) {
        lock.withLock { recorded.append("\(name) \(properties.keys.sorted())") }
    }
}

// The conformance an app writes: empty.
extension GoogleSDK: GoogleAnalyticsAdapter {}

extension Vendors {
    @Suite struct GoogleAnalyticsDestinationTests {
        let spy = GoogleAnalyticsSpy()
        var destination: GoogleAnalyticsDestination { GoogleAnalyticsDestination(adapter: spy) }

        @Test func trackSendsTheNameAndProperties() {
            let delivery = deliver(Event("menu_item_ordered", ["item_name": "Pizza", "price": 9.5]), to: destination)
            #expect(delivery.problems.isEmpty)
            spy.expectExactly([
                .trackEvent(with: "menu_item_ordered", properties: ["item_name": "Pizza", "price": 9.5])
            ])
        }

        @Test func trackWithoutPropertiesSendsAnEmptyDictionary() {
            _ = deliver(Event("app_opened"), to: destination)
            spy.expectExactly([.trackEvent(with: "app_opened", properties: [:])])
        }

        @Test func screenSendsScreenView() {
            let delivery = deliver(.screen("Menu", ["section": "pizza"]), to: destination)
            #expect(delivery.problems.isEmpty)
            spy.expectExactly([
                .trackEvent(with: "screen_view", properties: ["screen_name": "Menu", "section": "pizza"])
            ])
        }

        @Test func theScreenNameWinsOverAScreenNameProperty() {
            let event = Event.screen("Menu", ["screen_name": "Other"])
            let delivery = deliver(event, to: destination)
            spy.expectExactly([.trackEvent(with: "screen_view", properties: ["screen_name": "Menu"])])
            #expect(delivery.problems.count == 1)
            expectVendorProblem(
                delivery.problems.first, destination: "google", event: event, path: "/properties/screen_name",
                mentioning: "replaced")
        }

        @Test(arguments: [Event.identify(userId: "user-42"), .group("acme"), .alias("user-43")])
        func kindsTheSDKHasNoCallForAreDropped(_ event: Event) {
            let delivery = deliver(event, to: destination)
            #expect(spy.calls.isEmpty)
            #expect(delivery.problems.isEmpty)
            expectVendorProblem(
                delivery.thrown, destination: "google", event: event, path: nil, outcome: .dropped,
                mentioning: "no call for \(event.kind.rawValue) events")
        }

        // MARK: Reset

        @Test func resetMakesNoCallBecauseTheSDKHasNoReset() {
            destination.reset()
            #expect(spy.calls.isEmpty)
        }

        @Test func throughTheClientResetReachesTheDestinationAndCallsNothing() async {
            let memory = InMemoryDestination()
            let analytics = AnalyticsClient(destinations: [destination, memory])
            analytics.identify(userId: "user-42")
            analytics.reset()
            analytics.track("browsing")
            await analytics.flush()
            #expect(memory.resetCount == 1)
            #expect(memory.events == [.identify(userId: "user-42"), Event("browsing")])
            spy.expectExactly([.trackEvent(with: "browsing", properties: [:])])
            #expect(analytics.statistics.destinations["google"]?.delivered == 1)
            #expect(analytics.statistics.destinations["google"]?.dropped == [.rejected: 1])
            await analytics.shutdown()
        }

        // MARK: Through the client

        @Test func throughTheClientWithRoutingNothingIsRejected() async {
            let memory = InMemoryDestination()
            let analytics = AnalyticsClient(
                processors: [.route(kinds: [.identify, .group, .alias], to: ["memory"])],
                destinations: [destination, memory])
            analytics.track("ordered", ["item_name": "Pizza"])
            analytics.identify(userId: "user-42")
            await analytics.flush()
            spy.expectExactly([.trackEvent(with: "ordered", properties: ["item_name": "Pizza"])])
            let google = analytics.statistics.destinations["google"]
            #expect(google?.delivered == 1)
            #expect(google?.dropped == [:])
            #expect(google?.routedAway == 1)
            #expect(analytics.statistics.recentProblems.isEmpty)
            await analytics.shutdown()
        }

        @Test func throughTheClientUnroutedIdentifyIsCountedAsRejected() async {
            let analytics = AnalyticsClient(destinations: [destination])
            analytics.identify(userId: "user-42")
            await analytics.flush()
            #expect(spy.calls.isEmpty)
            #expect(analytics.statistics.destinations["google"]?.dropped == [.rejected: 1])
            #expect(analytics.statistics.recentProblems.map(\.code) == [.vendorLimit])
            await analytics.shutdown()
        }

        @Test func theEmptyConformanceReachesTheSDK() async {
            let sdk = GoogleSDK(apiKey: "key", clientSecret: "secret")
            let analytics = AnalyticsClient(destinations: [GoogleAnalyticsDestination(adapter: sdk)])
            analytics.track("ordered", ["item_name": "Pizza"])
            await analytics.flush()
            #expect(sdk.sdkCalls == ["ordered [\"item_name\"]"])
            await analytics.shutdown()
        }
    }
}
#endif
