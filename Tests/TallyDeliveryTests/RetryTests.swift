#if Delivery
import Foundation
import Tally
import TallyDelivery
import TallyTesting
import Testing

/// Segment's retry rules, each on the injected clock.
struct RetryTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: [408, 410, 429, 460, 500, 502, 503, 504, 599])
    func retryableStatusesKeepTheBatchAndRetryAfterTheBackoff(status: Int) async throws {
        try await retriesAfterTheBackoff(firstAnswer: .status(status))
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func noAnswerIsRetriedLikeA5xx() async throws {
        try await retriesAfterTheBackoff(firstAnswer: .noAnswer)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    private func retriesAfterTheBackoff(firstAnswer: ScriptedTransport.Answer) async throws {
        let harness = try Harness([firstAnswer])
        let destination = harness.destination()
        defer { destination.close() }
        try harness.receive(1...3, into: destination)
        await destination.flushed()  // returns at the failure: the retry waits for the clock
        #expect(destination.statistics.queuedEvents == 3)
        #expect(destination.statistics.retries == 1)
        #expect(harness.reports.codes == [.sendFailed])
        #expect(harness.reports.drops.isEmpty)

        let now = harness.clock.now
        let retryAt = try await harness.clock.timer(after: now, in: (0.45)...(0.55))
        harness.clock.advance(to: retryAt)
        let sent = await harness.transport.requests(count: 2)
        #expect(sent[1].numbers == [1, 2, 3])
        #expect(sent[1].messageIds == sent[0].messageIds)
        #expect(sent[0].headers["x-retry-count"] == "0")
        #expect(sent[1].headers["x-retry-count"] == "1")
        await destination.flushed()
        #expect(destination.statistics.delivered == 3)
        #expect(destination.statistics.queuedEvents == 0)
        #expect(harness.reports.codes == [.sendFailed, .sendFailed])  // failing, then working again
    }

    /// The back-off runs on the injected clock, not in real time: a five-minute back-off is asleep on the
    /// ManualClock and ends when the test advances it. A destination that waited on the system's clock
    /// instead would retry five real minutes later, past this test's time limit.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(1))) func theBackoffWaitsOnTheInjectedClock() async throws {
        let harness = try Harness([.status(503)]) {
            $0.retry.baseDelay = 300
            $0.retry.maximumDelay = 300
            $0.retry.jitter = 0
        }
        let destination = harness.destination()
        defer { destination.close() }
        try harness.receive(1...1, into: destination)
        let start = harness.clock.now
        await destination.flushed()
        let retryAt = try await harness.clock.waitForSleeper { $0 == start.advanced(by: .seconds(300)) }
        #expect(harness.transport.sent.count == 1)
        harness.clock.advance(to: retryAt)
        let sent = await harness.transport.requests(count: 2)
        #expect(sent[1].headers["x-retry-count"] == "1")
        await destination.flushed()
        #expect(destination.statistics.delivered == 1)
    }

    /// A back-off ends when the clock reaches the instant its wake-up slept until, even for a delay that
    /// `Duration` reads back a few attoseconds short. The sender used to wake there, find its back-off not
    /// yet over on its own scale, and wait for a wake-up that had already happened: for ever, on a clock
    /// advanced exactly to that instant (about 3 % of jittered back-offs; it hung whole test runs).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aBackoffEndsAtTheInstantItsWakeUpSleptUntil() async throws {
        let delay = 0.576460808365094
        let (seconds, attoseconds) = Duration.seconds(delay).components
        #expect(Double(seconds) + Double(attoseconds) / 1e18 < delay)  // the rounding this test is about
        let harness = try Harness([.status(503)]) {
            $0.retry.baseDelay = delay
            $0.retry.maximumDelay = 300
            $0.retry.jitter = 0
        }
        let destination = harness.destination()
        defer { destination.close() }
        try harness.receive(1...1, into: destination)
        let start = harness.clock.now
        await destination.flushed()  // returns at the failure
        let retryAt = try await harness.clock.timer(after: start, in: (delay - 0.001)...(delay + 0.001))
        harness.clock.advance(to: retryAt)
        // The back-off is over: this flush finds the sender ready to send (it no longer returns at once as
        // during a back-off) and returns once the retry is delivered.
        await destination.flushed()
        #expect(harness.transport.sent.count == 2)
        #expect(destination.statistics.delivered == 1)
    }

    /// A flush that arrives while the destination waits to retry used to wait for the clock to pass the retry
    /// (or its own deadline): on a clock that no longer moves, for ever (S4-FLUSH).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: [
        (ScriptedTransport.Answer.status(503), 0.4...0.6),  // the first back-off: 0.5 s ± 10 %
        (.status(429, headers: ["Retry-After": "7"]), 7...7),
    ])
    func aFlushDuringTheBackoffReturnsAtOnceAndLeavesTheEventsQueued(
        failure: ScriptedTransport.Answer, wait: ClosedRange<Double>
    ) async throws {
        let harness = try Harness([failure])
        let destination = harness.destination()
        defer { destination.close() }
        try harness.receive(1...3, into: destination)
        await destination.flushed()  // returns at the failure: the destination waits out its back-off
        let start = harness.clock.now
        let retryAt = try await harness.clock.timer(after: start, in: wait)

        // Nothing is sent before the back-off ends, so these flushes return without the clock moving: one
        // that commits new events first, one with nothing new to commit.
        try harness.receive(4...5, into: destination)
        await destination.flushed()
        await destination.flushed()
        #expect(harness.clock.now == start)
        #expect(harness.transport.sent.count == 1)
        var statistics = destination.statistics
        #expect(statistics.committed == 5)
        #expect(statistics.queuedEvents == 5)
        #expect(statistics.delivered == 0)
        #expect(statistics.requests == 1)
        #expect(statistics.retries == 1)
        #expect(harness.reports.drops.isEmpty)

        harness.clock.advance(to: retryAt)
        await destination.flushed()
        statistics = destination.statistics
        #expect(statistics.delivered == 5)
        #expect(statistics.queuedEvents == 0)
        #expect(harness.transport.sent.map(\.numbers) == [[1, 2, 3], [1, 2, 3, 4, 5]])
        #expect(harness.reports.codes == [.sendFailed, .sendFailed])  // failing, then working again
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: [401, 403, 404, 422, 501, 505, 302])
    func otherStatusesDropTheBatchAndReportIt(status: Int) async throws {
        let harness = try Harness([.status(status)])
        let destination = harness.destination()
        defer { destination.close() }
        try harness.receive(1...3, into: destination)
        await destination.flushed()
        #expect(harness.transport.sent.count == 1)
        #expect(destination.statistics.queuedEvents == 0)
        #expect(destination.statistics.delivered == 0)
        #expect(destination.statistics.dropped == [.refusedByServer: 3])
        #expect(harness.reports.drops == [.refusedByServer: 3])
        let problem = try #require(harness.reports.problems.first)
        #expect(problem.code == .refusedByServer)
        #expect(problem.outcome == .dropped)
        #expect(problem.message.contains("HTTP \(status)"))
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func backoffDoublesFromHalfASecondWithJitterUpToTheCap() async throws {
        let policy = RetryPolicy.default
        for attempt in 0..<12 {
            let expected = min(60, 0.5 * Double(1 << attempt))
            #expect(policy.backoff(attempt: attempt, random: 0.5) == expected)
            #expect(policy.backoff(attempt: attempt, random: 0) == expected * 0.9)
            #expect(policy.backoff(attempt: attempt, random: 1) == min(60, expected * 1.1))
        }
        #expect(policy.backoff(attempt: 10_000, random: 1) == 60)

        // The destination follows it: each consecutive failure waits about twice as long.
        let harness = try Harness(standing: .status(500))
        let destination = harness.destination()
        defer { destination.close() }
        try harness.receive(1...1, into: destination)
        await destination.flushed()
        for attempt in 0..<5 {
            let now = harness.clock.now
            let base = 0.5 * Double(1 << attempt)
            let retryAt = try await harness.clock.timer(after: now, in: (base * 0.9)...(base * 1.1))
            harness.clock.advance(to: retryAt)
            let sent = await harness.transport.requests(count: attempt + 2)
            #expect(sent.last?.headers["x-retry-count"] == String(attempt + 1))
        }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func retryAfterIsHonouredAndDoesNotCountAgainstTheBudget() async throws {
        let harness = try Harness([.status(429, headers: ["Retry-After": "7"])]) { $0.retry.maximumAttempts = 0 }
        let destination = harness.destination()
        defer { destination.close() }
        try harness.receive(1...2, into: destination)
        let start = harness.clock.now
        await destination.flushed()
        try await harness.clock.waitForSleeper { $0 == start.advanced(by: .seconds(7)) }
        harness.clock.advance(by: .seconds(6.9))
        #expect(harness.transport.sent.count == 1)
        harness.clock.advance(by: .seconds(0.1))
        let sent = await harness.transport.requests(count: 2)
        #expect(sent[1].headers["x-retry-count"] == "1")
        await destination.flushed()
        // With no backed-off retries allowed, the batch was still retried: Retry-After waits are free.
        #expect(destination.statistics.delivered == 2)
        #expect(destination.statistics.dropped.isEmpty)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func retryAfterReadsSecondsAndHTTPDatesAndIsCapped() {
        let policy = RetryPolicy.default
        #expect(policy.retryAfter("120", now: 0) == 120)
        #expect(policy.retryAfter(" 3 ", now: 0) == 3)
        #expect(policy.retryAfter("100000", now: 0) == 300)
        // Wed, 21 Oct 2026 07:28:00 GMT is 1,792,567,680 s after 1970.
        #expect(policy.retryAfter("Wed, 21 Oct 2026 07:28:00 GMT", now: 1_792_567_600) == 80)
        #expect(policy.retryAfter("Wed, 21 Oct 2026 07:28:00 GMT", now: 1_792_567_700) == 0)
        #expect(policy.retryAfter("soon", now: 0) == nil)
        #expect(policy.retryAfter("-5", now: 0) == nil)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aBatchThatExhaustsItsRetriesIsDroppedAndCounted() async throws {
        let harness = try Harness(standing: .status(503)) { $0.retry.maximumAttempts = 2 }
        let destination = harness.destination()
        defer { destination.close() }
        try harness.receive(1...4, into: destination)
        await destination.flushed()
        for attempt in 0..<2 {
            let now = harness.clock.now
            let base = 0.5 * Double(1 << attempt)
            let retryAt = try await harness.clock.timer(after: now, in: (base * 0.9)...(base * 1.1))
            harness.clock.advance(to: retryAt)
            _ = await harness.transport.requests(count: attempt + 2)
        }
        await destination.flushed()
        #expect(harness.transport.sent.count == 3)
        #expect(destination.statistics.queuedEvents == 0)
        #expect(destination.statistics.dropped == [.retriesExhausted: 4])
        #expect(harness.reports.drops == [.retriesExhausted: 4])
        #expect(harness.reports.codes.last == .retriesExhausted)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func a400IsolatesTheRefusedEventAndDeliversTheOthers() async throws {
        let harness = try Harness(standing: .refuseEventNumbered(5))
        let destination = harness.destination()
        defer { destination.close() }
        try harness.receive(1...8, into: destination)
        await destination.flushed()
        let batches = harness.transport.sent.map(\.numbers)
        #expect(batches == [[1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4], [5, 6, 7, 8], [5, 6], [5], [6], [7, 8]])
        #expect(destination.statistics.delivered == 7)
        #expect(destination.statistics.queuedEvents == 0)
        #expect(destination.statistics.dropped == [.refusedByServer: 1])
        #expect(harness.reports.drops == [.refusedByServer: 1])
        #expect(harness.reports.problems.map(\.code) == [.refusedByServer])
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func a413HalvesTheBatchUntilItFits() async throws {
        let harness = try Harness(standing: .tooLargeAbove(2))
        let destination = harness.destination()
        defer { destination.close() }
        try harness.receive(1...8, into: destination)
        await destination.flushed()
        let batches = harness.transport.sent.map(\.numbers)
        // Once two events fitted, the other half is split without asking again.
        #expect(batches == [[1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4], [1, 2], [3, 4], [5, 6], [7, 8]])
        #expect(destination.statistics.delivered == 8)
        #expect(destination.statistics.dropped.isEmpty)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func flushGivesUpAtItsDeadlineOnTheClock() async throws {
        let harness = try Harness([.hold]) { $0.flushTimeout = 4 }
        let destination = harness.destination()
        defer { destination.close() }
        try harness.receive(1...1, into: destination)
        let start = harness.clock.now
        async let flushed: Void = destination.flushed()
        _ = await harness.transport.requests(count: 1)
        try await harness.clock.waitForSleeper { $0 == start.advanced(by: .seconds(4)) }
        harness.clock.advance(by: .seconds(4))
        await flushed  // returned although the request is still in flight
        #expect(destination.statistics.queuedEvents == 1)  // not removed before its 2xx
        harness.transport.release()
        await destination.flushed()
        #expect(destination.statistics.delivered == 1)
        #expect(destination.statistics.queuedEvents == 0)
    }
}
#endif
