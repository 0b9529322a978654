import Tally
import TallyTesting
import Testing

/// Shutdown and consent.
struct LifecycleTests {
    @Test func shutdownFlushesThenTrackingIsACountedNoOp() async throws {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory])
        analytics.track("before")
        await analytics.shutdown()
        #expect(memory.events == [Event("before")])

        analytics.track("after")
        analytics.track("after")
        await analytics.flush()
        await analytics.shutdown()
        #expect(memory.count == 1)
        let statistics = analytics.statistics
        #expect(statistics.tracked == 3)
        #expect(statistics.dropped == [.afterShutdown: 2])
        let problem = try #require(statistics.recentProblems.only)
        #expect(problem.code == .trackedAfterShutdown)
        #expect(problem.eventName == "after")
    }

    @Test func optingOutDropsEventsTrackedWhileOptedOutAndOptingInResumes() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory])
        analytics.track("in")
        await analytics.flush()
        analytics.optOut()
        #expect(analytics.isOptedOut)
        analytics.track("out")
        analytics.optIn()
        analytics.track("in again")
        await analytics.flush()
        #expect(memory.events.map(\.name) == ["in", "in again"])
        #expect(analytics.statistics.dropped[.optedOut] == 1)
    }

    @Test func optingOutStopsEventsAlreadyQueued() async {
        let gate = GateDestination()
        let other = InMemoryDestination(name: "other")
        let analytics = AnalyticsClient(destinations: [gate, other])
        analytics.track("being delivered")
        await gate.waitUntilBlocked()
        analytics.track("queued 1")
        analytics.track("queued 2")
        analytics.optOut()
        analytics.optIn()
        analytics.track("after opting in again")
        gate.open()
        await analytics.flush()

        // The event the gate was already receiving completes; queued ones never arrive.
        #expect(gate.events.map(\.name) == ["being delivered", "after opting in again"])
        #expect(analytics.statistics.destinations["gate"]?.dropped == [.optedOut: 2])
        // The other destination may have received the queued events before the opt-out; either way every
        // event is accounted for.
        let counts = analytics.statistics.destinations["other"]
        #expect((counts?.delivered ?? 0) + (counts?.dropped[.optedOut] ?? 0) == 4)
    }

    @Test func aClientCanStartOptedOut() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory], configuration: .init(startsOptedIn: false))
        analytics.track("e")
        analytics.optIn()
        analytics.track("f")
        await analytics.flush()
        #expect(memory.events.map(\.name) == ["f"])
    }

    @Test func aClientThatGoesAwayStillDeliversWhatWasQueued() async {
        let memory = AwaitingDestination()
        do {
            let analytics = AnalyticsClient(destinations: [memory])
            for _ in 0..<10 { analytics.track("e") }
        }
        await memory.waitForCount(10)
        #expect(memory.events.count == 10)
    }
}
