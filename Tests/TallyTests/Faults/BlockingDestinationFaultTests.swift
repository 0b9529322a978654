import Tally
import TallyTesting
import Testing

/// A destination stuck in `receive` or in its own `flush`: what the caller, the other destinations,
/// `flush`, `shutdown` and `Statistics` do. Deadlines run on a `ManualClock`; nothing sleeps.
struct BlockingDestinationFaultTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    struct Fixture {
        let stuck: BlockingDestination
        let other = KeepingDestination(name: "other")
        let clock = ManualClock()
        let problems = LockedBox<[Problem]>([])
        let analytics: AnalyticsClient

        init(blocksIn: BlockingDestination.Where = .receive, capacity: Int = 100) {
            stuck = BlockingDestination(name: "stuck", blocksIn: blocksIn)
            var configuration = AnalyticsClient.Configuration(
                bufferingByDestination: ["stuck": Buffering(capacity: capacity)],
                onProblem: { [problems] problem in problems.mutate { $0.append(problem) } })
            configuration.clock = clock
            analytics = AnalyticsClient(destinations: [stuck, other], configuration: configuration)
        }

        /// Flushes with `timeout` and lets the deadline pass once the other destination's lane has reached
        /// the flush (everything before it settled) and `ready` has returned.
        func flushPastItsDeadline(
            _ timeout: Duration = .seconds(5), once ready: () async -> Void = {}
        ) async throws -> FlushResult {
            let flushes = other.flushCount
            async let result = analytics.flush(timeout: timeout)
            await other.waitForFlushes(flushes + 1)
            await ready()
            try await clock.waitForSleepers(count: 1)
            clock.advance(by: timeout)
            return await result
        }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(3)))
    func stuckInReceiveHoldsBackNeitherTheCallerNorTheOthersAndFlushSaysWhatItHolds() async throws {
        let fixture = Fixture()
        let analytics = fixture.analytics
        analytics.track("first")
        await fixture.stuck.waitUntilBlocked()

        // The caller: 500 more events, none of them waits (a caller held back would never get past this
        // loop, and the time limit would fail the test).
        for index in 0..<500 { analytics.track("e", ["i": .int(index)]) }
        // The other destination gets every event while the stuck one holds its queue's worth.
        await fixture.other.waitForCount(501)

        let result = try await fixture.flushPastItsDeadline()
        #expect(result.status == .timedOut)
        #expect(!result.isComplete)
        // The one being received and the 100 its queue holds; the other 400 were dropped, counted.
        #expect(result.unfinished["stuck"] == 101)
        #expect(result.unfinished["other"] ?? 0 == 0)
        #expect(result.queued == 0)

        let statistics = analytics.statistics
        #expect(statistics.tracked == 501)
        #expect(statistics.destinations["other"]?.delivered == 501)
        #expect(statistics.destinations["stuck"]?.delivered == 0)
        #expect(statistics.destinations["stuck"]?.dropped == [.bufferFull: 400])
        #expect(statistics.accounted(at: "other") == 501)
        // The stuck destination's held events are not accounted for yet: nothing is lost, it still has them.
        #expect(statistics.accounted(at: "stuck") + 101 == 501)
        let stuckReports = fixture.problems.value.filter { $0.code == .destinationStuck }
        let stuck = try #require(stuckReports.first { $0.destination == "stuck" })
        #expect(stuck.message.contains("still holds 101 events"))
        #expect(stuckReports.filter { $0.destination == "stuck" }.count == 1)
        // The other lane is reported too, holding nothing, if the manual clock passed the deadline between
        // its destination's flush and its arrival at the barrier.
        #expect(stuckReports.allSatisfy { $0.destination == "stuck" || $0.message.contains("still holds 0 events") })
        #expect(fixture.problems.value.filter { $0.code == .bufferFull }.count == 1)

        // Released, it delivers what it held; a flush then completes.
        fixture.stuck.open()
        #expect(await analytics.flush(timeout: nil) == FlushResult(status: .completed))
        #expect(fixture.stuck.events.count == 101)
        #expect(analytics.statistics.accounted(at: "stuck") == 501)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(3)))
    func shutdownPastItsDeadlineStillStopsAcceptingEvents() async throws {
        let fixture = Fixture()
        let analytics = fixture.analytics
        analytics.track("first")
        await fixture.stuck.waitUntilBlocked()
        analytics.track("second")
        await fixture.other.waitForCount(2)

        async let shutdown = analytics.shutdown(timeout: .seconds(2))
        await fixture.other.waitForFlushes(1)
        try await fixture.clock.waitForSleepers(count: 1)
        fixture.clock.advance(by: .seconds(2))
        let result = await shutdown
        #expect(result.status == .timedOut)
        #expect(result.unfinished["stuck"] == 2)
        // The other lane has settled everything; it is listed, holding nothing, if the manual clock passed
        // the deadline between its destination's flush and its arrival at the barrier.
        #expect(result.unfinished["other"] ?? 0 == 0)

        analytics.track("after")
        #expect(analytics.statistics.dropped == [.afterShutdown: 1])
        #expect(fixture.other.names == ["first", "second"])

        // Shutting down again waits for what the stuck destination still holds, once it returns.
        fixture.stuck.open()
        #expect(await analytics.shutdown(timeout: nil).isComplete)
        #expect(fixture.stuck.events.map(\.name) == ["first", "second"])
        #expect(analytics.statistics.accounted(at: "stuck") == 3)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(3)))
    func stuckInItsOwnFlushIsUnfinishedWithNothingHeld() async throws {
        let fixture = Fixture(blocksIn: .flush)
        fixture.analytics.track("e")
        // The deadline passes once the lane is inside the destination's flush, past its one event.
        let result = try await fixture.flushPastItsDeadline(once: { await fixture.stuck.waitUntilBlocked() })
        #expect(result.status == .timedOut)
        // Every event reached it; it is its own flush that does not return.
        #expect(result.unfinished["stuck"] == 0)
        #expect(result.unfinished["other"] ?? 0 == 0)
        #expect(fixture.analytics.statistics.destinations["stuck"]?.delivered == 1)
        fixture.stuck.open()
        #expect(await fixture.analytics.flush(timeout: nil).isComplete)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(3)))
    func aCancelledFlushReturnsAtOnceAndSaysSo() async throws {
        let fixture = Fixture()
        fixture.analytics.track("e")
        await fixture.stuck.waitUntilBlocked()
        let flush = Task { await fixture.analytics.flush(timeout: nil) }
        flush.cancel()
        let result = await flush.value
        #expect(result.status == .cancelled)
        #expect(result.unfinished["stuck"] == 1)
        // Cancelling is not a stuck destination.
        #expect(!fixture.problems.value.contains { $0.code == .destinationStuck })
        fixture.stuck.open()
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(3)))
    func flushWithoutATimeoutUsesTheConfiguredDeadline() async throws {
        let stuck = BlockingDestination(name: "stuck")
        let clock = ManualClock()
        var configuration = AnalyticsClient.Configuration()
        configuration.clock = clock
        configuration.flushTimeout = .seconds(30)
        let analytics = AnalyticsClient(destinations: [stuck], configuration: configuration)
        analytics.track("e")
        async let result = analytics.flush()
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(29))
        // Not yet: the deadline is 30 seconds after the call.
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        #expect(await result.status == .timedOut)
        stuck.open()
    }
}
