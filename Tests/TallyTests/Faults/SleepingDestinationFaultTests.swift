import Tally
import TallyTesting
import Testing

/// A slow destination (it sleeps for every event): it holds back neither the caller nor the others; a
/// flush waits for it, or comes back at its deadline saying how much it still holds.
struct SleepingDestinationFaultTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(3)))
    func aSlowDestinationDropsWhatItsQueueCannotHoldAndTheOthersGetEverything() async throws {
        let slow = SleepingDestination(name: "slow", milliseconds: 2)
        let other = KeepingDestination(name: "other")
        let analytics = AnalyticsClient(
            destinations: [slow, other],
            configuration: .init(bufferingByDestination: ["slow": Buffering(capacity: 10)]))
        for index in 0..<200 { analytics.track("e", ["i": .int(index)]) }
        #expect(await analytics.flush(timeout: nil).isComplete)

        #expect(other.names.count == 200)
        let statistics = analytics.statistics
        let slowCounts = try #require(statistics.destinations["slow"])
        #expect(slowCounts.delivered == slow.count)
        #expect(slowCounts.delivered + (slowCounts.dropped[.bufferFull] ?? 0) == 200)
        #expect(statistics.accounted(at: "slow") == 200)
        #expect(statistics.accounted(at: "other") == 200)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(3)))
    func flushAndShutdownComeBackAtTheirDeadlineWhileItStillWorks() async throws {
        // 1,000 events at 100 ms each: 100 seconds of work, far longer than the test takes to advance the
        // clock even under ThreadSanitizer on a loaded machine (the flush took 120 s with a
        // destination like this one). It hurries through the rest when the test ends.
        let slow = SleepingDestination(name: "slow", milliseconds: 100)
        defer { slow.hurry() }
        let clock = ManualClock()
        var configuration = AnalyticsClient.Configuration(
            bufferingByDestination: ["slow": Buffering(capacity: 1000)])
        configuration.clock = clock
        let analytics = AnalyticsClient(destinations: [slow], configuration: configuration)
        for _ in 0..<1000 { analytics.track("e") }

        async let flushed = analytics.flush(timeout: .milliseconds(100))
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(100))
        let flush = await flushed
        #expect(flush.status == .timedOut)
        let held = try #require(flush.unfinished["slow"])
        #expect(held > 0 && held <= 1000)

        async let stopped = analytics.shutdown(timeout: .milliseconds(100))
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(100))
        #expect(await stopped.status == .timedOut)
        analytics.track("after")
        #expect(analytics.statistics.dropped == [.afterShutdown: 1])
        #expect(analytics.statistics.recentProblems.filter { $0.code == .destinationStuck }.count == 2)
    }
}
