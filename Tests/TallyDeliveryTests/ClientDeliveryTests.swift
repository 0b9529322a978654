#if Delivery
import Foundation
import Tally
import TallyDelivery
import TallyTesting
import Testing

/// The destination behind a real client: what the client's statistics say about later drops.
struct ClientDeliveryTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func dropsAfterDeliveryAreCountedPerDestinationWithAProblem() async throws {
        let harness = try Harness(standing: .refuseEventNumbered(2)) { $0.maximumQueuedEvents = 3 }
        let destination = harness.destination()
        defer { destination.close() }
        let analytics = AnalyticsClient(
            destinations: [destination],
            configuration: AnalyticsClient.Configuration(
                destinationBuffering: Buffering(capacity: 100, whenFull: .block)))
        for n in 1...2 { analytics.track("e", ["n": .int(n)]) }
        await analytics.flush()  // event 2 is refused by the server
        for n in 3...7 { analytics.track("e", ["n": .int(n)]) }
        await analytics.flush()  // the queue holds 3: events 3 and 4 are dropped as the oldest

        let statistics = analytics.statistics
        let http = try #require(statistics.destinations["http"])
        #expect(http.delivered == 7)
        #expect(http.droppedAfterDelivery[.refusedByServer] == 1)
        #expect(http.droppedAfterDelivery[.queueFull] == 2)
        #expect(statistics.accounted(at: "http") == statistics.tracked)
        let codes = statistics.recentProblems.map(\.code)
        #expect(codes.contains(.refusedByServer))
        #expect(codes.contains(.queueFull))
        #expect(statistics.recentProblems.allSatisfy { $0.destination == "http" })
        #expect(harness.transport.sent.map(\.numbers) == [[1, 2], [1], [2], [5, 6, 7]])
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func shutdownSendsWhatIsQueued() async throws {
        let harness = try Harness()
        let destination = harness.destination()
        defer { destination.close() }
        let analytics = AnalyticsClient(destinations: [destination])
        analytics.track("e", ["n": 1])
        await analytics.shutdown()
        #expect(harness.transport.sent.flatMap(\.numbers) == [1])
        #expect(destination.statistics.delivered == 1)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func theCallerNeverWaitsForTheDatabaseOrTheServer() async throws {
        let harness = try Harness([.hold], durable: true) { $0.flushAt = 1 }
        let destination = harness.destination()
        let analytics = AnalyticsClient(destinations: [destination])
        analytics.track("e", ["n": 1])
        _ = await harness.transport.requests(count: 1)
        // The sender is blocked in a request; tracking still returns at once and events are committed.
        for n in 2...100 { analytics.track("e", ["n": .int(n)]) }
        await harness.commits.reach(100)
        #expect(destination.statistics.committed == 100)
        harness.transport.release()
        await analytics.flush()
        #expect(destination.statistics.delivered == 100)
        destination.close()
    }
}
#endif
