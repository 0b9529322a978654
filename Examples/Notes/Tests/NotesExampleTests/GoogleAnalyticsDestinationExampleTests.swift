import Foundation
import NotesExample
import Tally
import TallySpy
import TallyTesting
import Testing

/// The example's own destination for the article's SDK, tested the way Tally tests its built-in vendor
/// destinations: its calls against a spy, the problems it reports, and the conformance suite.
@Suite(.exhaustive)
struct GoogleAnalyticsDestinationExampleTests {
    /// One event through the destination: what it reported and what it threw.
    private func deliver(_ event: Event, to destination: GoogleAnalyticsDestination) -> (
        reported: [Problem], thrown: Problem?
    ) {
        let reported = Reported()
        let context = DestinationContext(destination: destination.name) { reported.append($0) }
        let envelope = Envelope(
            event: event, messageId: MessageID(prefix: 1, sequence: 1), timestamp: Date(timeIntervalSince1970: 0),
            anonymousId: "anon-1")
        do {
            try destination.receive(envelope, context: context)
            return (reported.problems, nil)
        } catch {
            return (reported.problems, error as? Problem)
        }
    }

    @Test func theScreenNameWinsOverAScreenNamePropertyWithAProblem() {
        let sdk = GoogleSDKSpy()
        let delivery = deliver(.screen("Notes", ["screen_name": "Other"]), to: GoogleAnalyticsDestination(adapter: sdk))
        sdk.expectCalled(.trackEvent(with: "screen_view", properties: ["screen_name": "Notes"]))
        #expect(delivery.reported.map(\.code) == [.vendorLimit])
        #expect(delivery.reported.first?.path == "/properties/screen_name")
        #expect(delivery.reported.first?.eventName == "Notes")
    }

    @Test(arguments: [
        (Event.identify(userId: "user-42"), "identify user-42"), (.group("acme"), "group acme"),
        (.alias("user-43"), "alias user-43"),
    ])
    func kindsTheSDKHasNoCallForAreDroppedWithAProblemNamingThem(event: Event, reportName: String) {
        let sdk = GoogleSDKSpy()
        let delivery = deliver(event, to: GoogleAnalyticsDestination(adapter: sdk))
        sdk.expectCount(0)
        #expect(delivery.reported.isEmpty)
        #expect(delivery.thrown?.outcome == .dropped)
        #expect(delivery.thrown?.eventName == reportName)
        #expect(delivery.thrown?.message == "The Google SDK has no call for \(event.kind.rawValue) events")
    }

    @Test(.exhaustive(false)) func passesTheDestinationConformanceSuite() async {
        let latest = Latest()
        let failures = await DestinationConformance(
            makeDestination: { GoogleAnalyticsDestination(adapter: latest.make()) },
            receivedCount: { _ in latest.current?.calls.count ?? 0 }
        ).run()
        #expect(failures == 0)
    }
}

/// Problems a destination reported, from any thread.
private final class Reported: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var stored: [Problem] = []
    func append(_ problem: Problem) { lock.withLock { stored.append(problem) } }
    var problems: [Problem] { lock.withLock { stored } }
}

/// The spy behind the most recently made destination.
private final class Latest: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var spy: GoogleSDKSpy?
    func make() -> GoogleSDKSpy {
        let made = GoogleSDKSpy()
        lock.withLock { spy = made }
        return made
    }
    var current: GoogleSDKSpy? { lock.withLock { spy } }
}
