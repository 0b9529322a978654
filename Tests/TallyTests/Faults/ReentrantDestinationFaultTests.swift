import Tally
import TallyTestSupport
import TallyTesting
import Testing

/// A destination that calls back into its own client from `receive`: it tracks, reads the statistics and
/// the identity, and shuts the client down. Nothing deadlocks; what it tracks is marked as feedback and
/// cannot loop.
struct ReentrantDestinationFaultTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(3)))
    func whatADestinationTracksIsFeedbackAndCannotLoop() async throws {
        let reentrant = ReentrantDestination()
        let other = KeepingDestination(name: "other")
        let analytics = AnalyticsClient(destinations: [reentrant, other])
        reentrant.client = analytics
        analytics.track("a")
        analytics.track("b")
        for _ in 0..<3 { #expect(await analytics.flush(timeout: nil).isComplete) }
        reentrant.client = nil

        // Each app event yields one feedback event; the feedback events' own echoes are dropped.
        #expect(other.names == ["a", "b", "received_a", "received_b"])
        #expect(other.envelopes.map(\.origin) == [.app, .app, .feedback, .feedback])
        #expect(reentrant.diagnosticsSeen == 4)
        let statistics = analytics.statistics
        #expect(statistics.tracked == 6)
        #expect(statistics.dropped == [.feedbackLoop: 2])
        #expect(statistics.recentProblems.map(\.code) == [.feedbackLoop])
        for name in ["reentrant", "other"] { #expect(statistics.accounted(at: name) == 6) }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(3)))
    func reenteringUnderTheBlockPolicyNeverWaitsOnTheClientsOwnThread() async throws {
        let reentrant = ReentrantDestination()
        let analytics = AnalyticsClient(
            destinations: [reentrant],
            configuration: .init(
                buffering: Buffering(capacity: 1, whenFull: .block),
                destinationBuffering: Buffering(capacity: 1, whenFull: .block)))
        reentrant.client = analytics
        // A caller that may wait for room: off Swift's cooperative pool, which a blocked thread would starve.
        await onNewThreads(1) { _ in
            for _ in 0..<50 { analytics.track("ping") }
        }
        for _ in 0..<3 { await analytics.flush(timeout: nil) }
        reentrant.client = nil
        let statistics = analytics.statistics
        // Every ping arrived; each echo was delivered, dropped as the queue was full (the client's own
        // thread never waits for room) or dropped as a loop: all of them counted.
        #expect(reentrant.envelopes.filter { $0.event.name == "ping" }.count == 50)
        #expect(statistics.accounted(at: "reentrant") == statistics.tracked)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(3)))
    func aDestinationCanShutItsClientDown() async throws {
        let shuttingDown = ShutdownOnReceive()
        let analytics = AnalyticsClient(destinations: [shuttingDown])
        shuttingDown.client.mutate { $0 = analytics }
        analytics.track("stop")
        let result = await shuttingDown.result()
        #expect(result.isComplete)
        analytics.track("too late")
        #expect(analytics.statistics.dropped == [.afterShutdown: 1])
        shuttingDown.client.mutate { $0 = nil }
    }

    /// Starts `shutdown()` from `receive` (it cannot await there) and hands its result to the test.
    final class ShutdownOnReceive: Destination {
        let client = LockedBox<AnalyticsClient?>(nil)
        private let outcome = LockedBox<(result: FlushResult?, waiters: [CheckedContinuation<FlushResult, Never>])>(
            (nil, []))

        func receive(_ envelope: Envelope, context: DestinationContext) throws {
            guard let analytics = client.value else { return }
            Task { [outcome] in
                let result = await analytics.shutdown()
                var waiters: [CheckedContinuation<FlushResult, Never>] = []
                outcome.mutate {
                    $0.result = result
                    waiters = $0.waiters
                    $0.waiters = []
                }
                for waiter in waiters { waiter.resume(returning: result) }
            }
        }

        func result() async -> FlushResult {
            await withCheckedContinuation { continuation in
                var ready: FlushResult?
                outcome.mutate {
                    ready = $0.result
                    if ready == nil { $0.waiters.append(continuation) }
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
