import Foundation
import Tally
import TallyTesting
import Testing

/// Edge cases of the client found in review: each failed before its fix.
struct ClientEdgeCaseTests {
    @Test(.timeLimit(.minutes(1)))
    func aCallerHeldBackByABlockingQueueDoesNotSlipPastAnOptOut() async {
        let gate = GateDestination()
        // A caller about to wait for room reports it first, on its own thread: the test waits for that.
        let callerWaits = ProblemSignal { $0.code == .waitingForRoom && $0.destination == nil }
        let analytics = AnalyticsClient(
            destinations: [gate],
            configuration: .init(
                buffering: Buffering(capacity: 1, whenFull: .block),
                destinationBuffering: Buffering(capacity: 1, whenFull: .block),
                onProblem: callerWaits.receive))
        analytics.track("a")
        await gate.waitUntilBlocked()
        // The queues of one event each fill up behind "a" until a caller has to wait for room.
        Thread.detachNewThread {
            for name in ["b", "c", "d", "e"] { analytics.track(name) }
        }
        await callerWaits.wait()
        analytics.optOut()
        gate.open()
        await analytics.flush()
        await analytics.shutdown()

        #expect(gate.events.map(\.name) == ["a"])
        let statistics = analytics.statistics
        #expect(statistics.tracked == 5)
        // Queued events are dropped at the destination, the waiting caller's when it wakes: four in all,
        // however the queues happened to split them.
        #expect(
            (statistics.dropped[.optedOut] ?? 0) + (statistics.destinations["gate"]?.dropped[.optedOut] ?? 0) == 4)
        #expect((statistics.dropped[.optedOut] ?? 0) >= 1)
        #expect(statistics.accounted(at: "gate") == 5)
        // Waits are reported once per overflow episode (until the queue empties): for the callers, and, when
        // the timing makes it wait, for the worker held back by the full destination queue.
        let waits = statistics.recentProblems.filter { $0.code == .waitingForRoom }
        #expect(waits.contains { $0.destination == nil && $0.outcome == .reported })
    }

    @Test(.timeLimit(.minutes(1)))
    func trackingFromOnProblemUnderTheBlockPolicyDoesNotDeadlock() async {
        let client = LockedBox<AnalyticsClient?>(nil)
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(
            destinations: [memory],
            configuration: .init(
                buffering: Buffering(capacity: 1, whenFull: .block),
                onProblem: { problem in
                    if problem.code == .nonFiniteNumber { client.value?.track("analytics_problem") }
                }))
        client.mutate { $0 = analytics }
        for _ in 0..<200 { analytics.track("e", ["x": .double(.nan)]) }
        await analytics.flush()
        await analytics.shutdown()
        client.mutate { $0 = nil }

        let statistics = analytics.statistics
        #expect(memory.events.filter { $0.name == "e" }.count == 200)
        // Each problem event was queued or, when the queue was full, dropped and counted; none waited.
        #expect(
            memory.events.filter { $0.name == "analytics_problem" }.count + (statistics.dropped[.bufferFull] ?? 0)
                == 200)
        #expect(statistics.accounted(at: "memory") == statistics.tracked)
    }

    @Test func aDestinationThatTracksIntoItsOwnClientDoesNotDeadlock() async {
        final class Echo: Destination, @unchecked Sendable {
            // @unchecked: `client` is set once before any event is tracked.
            var client: AnalyticsClient?
            let memory = InMemoryDestination()
            var name: String { "echo" }
            func receive(_ envelope: Envelope, context: DestinationContext) throws {
                try memory.receive(envelope, context: context)
                if envelope.event.name == "ping" { client?.track("pong") }
            }
        }
        let echo = Echo()
        let analytics = AnalyticsClient(
            destinations: [echo],
            configuration: .init(
                buffering: Buffering(capacity: 1, whenFull: .block),
                destinationBuffering: Buffering(capacity: 1, whenFull: .block)))
        echo.client = analytics
        for _ in 0..<100 { analytics.track("ping") }
        await analytics.flush()
        await analytics.flush()  // the pongs tracked during the first flush
        echo.client = nil
        let statistics = analytics.statistics
        #expect(echo.memory.events.filter { $0.name == "ping" }.count == 100)
        #expect(statistics.accounted(at: "echo") == statistics.tracked)
    }

    @Test func aCapacityBelowOneIsRaisedToOne() {
        var buffering = Buffering(capacity: 0, whenFull: .block)
        #expect(buffering.capacity == 1)
        buffering.capacity = -5
        #expect(buffering.capacity == 1)
    }

    @Test func negativeInputLimitsAreRaisedToZeroInsteadOfCrashing() throws {
        var limits = InputLimits(maximumPropertyCount: -1)
        #expect(limits.maximumPropertyCount == 0)
        limits.maximumDepth = -3
        #expect(limits.maximumDepth == 0)
        let (event, problems) = limits.sanitize(Event("e", ["a": 1, "b": [1]]))
        #expect(event?.properties == [:])
        #expect(problems.map(\.code) == [.tooManyProperties])
    }

    @Test func renamingDuplicateDestinationsNeverCollides() {
        let analytics = AnalyticsClient(destinations: [
            InMemoryDestination(), InMemoryDestination(), InMemoryDestination(name: "memory#2"), InMemoryDestination(),
        ])
        #expect(analytics.destinationNames == ["memory", "memory#2", "memory#2#2", "memory#3"])
        #expect(analytics.statistics.destinations.count == 4)
    }

    @Test func everyEventIsAccountedForAtEveryDestinationWithRoutingAndDrops() async {
        let first = InMemoryDestination(name: "first")
        let second = InMemoryDestination(name: "second")
        let analytics = AnalyticsClient(
            processors: [.route(names: ["only_first"], to: ["first"]), .filter(excludingNames: ["noise"])],
            destinations: [first, second])
        analytics.track("only_first")
        analytics.track("both")
        analytics.track("noise")
        analytics.track("")
        await analytics.flush()
        let statistics = analytics.statistics
        #expect(statistics.tracked == 4)
        #expect(statistics.accounted(at: "first") == 4)
        #expect(statistics.accounted(at: "second") == 4)
        #expect(statistics.destinations["second"]?.routedAway == 1)
    }

    @Test func aFullDestinationQueueReportsOnceForAWholeOverflow() async {
        let gate = GateDestination()
        let witness = AwaitingDestination(name: "witness")
        let analytics = AnalyticsClient(
            destinations: [gate, witness],
            configuration: .init(bufferingByDestination: ["gate": Buffering(capacity: 1)]))
        analytics.track("first")
        await gate.waitUntilBlocked()
        // One event per worker batch: each waits until the witness has it before the next is tracked.
        for index in 0..<20 {
            analytics.track("e", ["i": .int(index)])
            await witness.waitForCount(index + 2)
        }
        gate.open()
        await analytics.flush()
        let statistics = analytics.statistics
        #expect(statistics.destinations["gate"]?.dropped[.bufferFull] == 19)
        #expect(statistics.recentProblems.filter { $0.code == .bufferFull }.count == 1)
    }

    @Test func anIdentifyDroppedByTheNameRulesChangesNobodysId() async {
        let memory = InMemoryDestination()
        let store = InMemoryIdentityStore(Identity(anonymousId: "anon"))
        let analytics = AnalyticsClient(destinations: [memory], configuration: .init(identityStore: store))
        analytics.identify(userId: String(repeating: "x", count: 300))
        analytics.track("after")
        await analytics.flush()
        #expect(analytics.statistics.dropped[.invalidEvent] == 1)
        #expect(memory.envelopes.map(\.userId) == [nil])
        #expect(store.load()?.userId == nil)
    }
}

struct RecordingSinkFailureTests {
    @Test func aFailedWriteIsAnErrorAndTheClientCountsTheEventAsFailed() async throws {
        let full = URL(fileURLWithPath: "/dev/full")
        guard FileManager.default.isWritableFile(atPath: full.path) else { return }  // Linux only
        let sink = try FileRecordingSink(url: full)
        let analytics = AnalyticsClient(destinations: [RecordingDestination(sink: sink, source: "test")])
        analytics.track("lost_to_a_full_disk")
        await analytics.flush()
        let statistics = analytics.statistics
        #expect(statistics.destinations["recording"]?.dropped == [.failed: 1])
        let problem = try #require(statistics.recentProblems.first)
        #expect(problem.code == .destinationFailed)
        #expect(problem.message.contains("Cannot write the recording"))
    }
}
