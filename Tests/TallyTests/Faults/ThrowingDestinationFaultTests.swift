import Tally
import TallyTesting
import Testing

/// A destination that throws for some events: a rule it enforces (a `Problem`) or a failure (any other
/// error). The caller and the other destinations carry on; flush and shutdown complete; each drop is
/// counted and reported.
struct ThrowingDestinationFaultTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(3)))
    func throwingDestinationsDropTheirEventsOnlyAndSayWhy() async throws {
        let rejecting = ThrowingDestination(
            name: "rejecting", failing: ["bad"],
            error: Problem(.faultInjected, "bad events are refused here", outcome: .dropped))
        let failing = ThrowingDestination(name: "failing", failing: ["bad", "worse"], error: InjectedFailure())
        let other = KeepingDestination(name: "other")
        let problems = LockedBox<[Problem]>([])
        let analytics = AnalyticsClient(
            destinations: [rejecting, failing, other],
            configuration: .init(onProblem: { problem in problems.mutate { $0.append(problem) } }))
        for name in ["good", "bad", "worse", "good"] { analytics.track(name) }
        #expect(await analytics.flush(timeout: nil).isComplete)

        #expect(other.names == ["good", "bad", "worse", "good"])
        #expect(rejecting.delivered.events.map(\.name) == ["good", "worse", "good"])
        #expect(failing.delivered.events.map(\.name) == ["good", "good"])
        let statistics = analytics.statistics
        #expect(statistics.destinations["rejecting"]?.dropped == [.rejected: 1])
        #expect(statistics.destinations["failing"]?.dropped == [.failed: 2])
        for name in ["rejecting", "failing", "other"] { #expect(statistics.accounted(at: name) == 4) }

        let reported = problems.value
        #expect(
            reported.filter { $0.destination == "failing" }.map(\.code) == [.destinationFailed, .destinationFailed])
        #expect(reported.filter { $0.destination == "failing" }.map(\.eventName) == ["bad", "worse"])
        let rejection = try #require(reported.first { $0.destination == "rejecting" })
        #expect(rejection.code == .faultInjected)
        #expect(rejection.outcome == .dropped)
        #expect(rejection.eventName == "bad")

        #expect(await analytics.shutdown(timeout: nil).isComplete)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(3)))
    func oneAppEventLeadsToABoundedNumberOfEventsWhenOnProblemTracks() async throws {
        // The storm of issue 13: onProblem tracks an event for every problem, and a destination fails on
        // every event, including those onProblem tracks.
        let client = LockedBox<AnalyticsClient?>(nil)
        let failing = ThrowingDestination(
            name: "failing", failing: ["checkout", "analytics_problem"], error: InjectedFailure())
        let kept = KeepingDestination(name: "kept")
        let analytics = AnalyticsClient(
            destinations: [failing, kept],
            configuration: .init(onProblem: { problem in
                client.value?.track("analytics_problem", ["code": .string(problem.code.rawValue)])
            }))
        client.mutate { $0 = analytics }
        analytics.track("checkout")
        // Each flush covers what was tracked before it; the feedback event is tracked during the first.
        for _ in 0..<3 { #expect(await analytics.flush(timeout: nil).isComplete) }
        let settled = analytics.statistics
        for _ in 0..<3 { await analytics.flush(timeout: nil) }
        client.mutate { $0 = nil }

        // One app event in, one feedback event out: the failure of the feedback event tracks nothing more.
        #expect(kept.names == ["checkout", "analytics_problem"])
        #expect(kept.envelopes.map(\.origin) == [.app, .feedback])
        let statistics = analytics.statistics
        #expect(statistics == settled)
        #expect(statistics.destinations["failing"]?.dropped == [.failed: 2])
        // What onProblem tracked about the feedback event's failure, and about the loop's own problem, was
        // dropped and counted.
        #expect(statistics.dropped == [.feedbackLoop: 2])
        #expect(statistics.tracked == 4)
        #expect(statistics.recentProblems.map(\.code) == [.destinationFailed, .destinationFailed, .feedbackLoop])
    }
}
