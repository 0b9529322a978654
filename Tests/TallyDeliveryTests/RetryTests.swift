#if Delivery
import Foundation
import Tally
import TallyDelivery
import Testing

/// Segment's retry rules, each on the injected clock.
struct RetryTests {
    @Test(arguments: [408, 410, 429, 460, 500, 502, 503, 504, 599])
    func retryableStatusesKeepTheBatchAndRetryAfterTheBackoff(status: Int) async throws {
        try await retriesAfterTheBackoff(firstAnswer: .status(status))
    }

    @Test func noAnswerIsRetriedLikeA5xx() async throws {
        try await retriesAfterTheBackoff(firstAnswer: .noAnswer)
    }

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
        let retryAt = await harness.clock.timer { $0 >= now + 0.45 && $0 <= now + 0.55 }
        harness.clock.advance(by: retryAt - now)
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

    /// A flush that arrives while the destination waits to retry used to wait for the clock to pass the retry
    /// (or its own deadline): on a clock that no longer moves, for ever (S4-FLUSH).
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
        let retryAt = await harness.clock.timer { wait.contains($0 - start) }

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

        harness.clock.advance(by: retryAt - start)
        await destination.flushed()
        statistics = destination.statistics
        #expect(statistics.delivered == 5)
        #expect(statistics.queuedEvents == 0)
        #expect(harness.transport.sent.map(\.numbers) == [[1, 2, 3], [1, 2, 3, 4, 5]])
        #expect(harness.reports.codes == [.sendFailed, .sendFailed])  // failing, then working again
    }

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
            let retryAt = await harness.clock.timer { $0 >= now + base * 0.9 && $0 <= now + base * 1.1 }
            harness.clock.advance(by: retryAt - now)
            let sent = await harness.transport.requests(count: attempt + 2)
            #expect(sent.last?.headers["x-retry-count"] == String(attempt + 1))
        }
    }

    @Test func retryAfterIsHonouredAndDoesNotCountAgainstTheBudget() async throws {
        let harness = try Harness([.status(429, headers: ["Retry-After": "7"])]) { $0.retry.maximumAttempts = 0 }
        let destination = harness.destination()
        defer { destination.close() }
        try harness.receive(1...2, into: destination)
        let start = harness.clock.now
        await destination.flushed()
        await harness.clock.timer { $0 == start + 7 }
        harness.clock.advance(by: 6.9)
        #expect(harness.transport.sent.count == 1)
        harness.clock.advance(by: 0.1)
        let sent = await harness.transport.requests(count: 2)
        #expect(sent[1].headers["x-retry-count"] == "1")
        await destination.flushed()
        // With no backed-off retries allowed, the batch was still retried: Retry-After waits are free.
        #expect(destination.statistics.delivered == 2)
        #expect(destination.statistics.dropped.isEmpty)
    }

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

    @Test func aBatchThatExhaustsItsRetriesIsDroppedAndCounted() async throws {
        let harness = try Harness(standing: .status(503)) { $0.retry.maximumAttempts = 2 }
        let destination = harness.destination()
        defer { destination.close() }
        try harness.receive(1...4, into: destination)
        await destination.flushed()
        for attempt in 0..<2 {
            let now = harness.clock.now
            let base = 0.5 * Double(1 << attempt)
            let retryAt = await harness.clock.timer { $0 >= now + base * 0.9 && $0 <= now + base * 1.1 }
            harness.clock.advance(by: retryAt - now)
            _ = await harness.transport.requests(count: attempt + 2)
        }
        await destination.flushed()
        #expect(harness.transport.sent.count == 3)
        #expect(destination.statistics.queuedEvents == 0)
        #expect(destination.statistics.dropped == [.retriesExhausted: 4])
        #expect(harness.reports.drops == [.retriesExhausted: 4])
        #expect(harness.reports.codes.last == .retriesExhausted)
    }

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

    @Test func flushGivesUpAtItsDeadlineOnTheClock() async throws {
        let harness = try Harness([.hold]) { $0.flushTimeout = 4 }
        let destination = harness.destination()
        defer { destination.close() }
        try harness.receive(1...1, into: destination)
        let start = harness.clock.now
        async let flushed: Void = destination.flushed()
        _ = await harness.transport.requests(count: 1)
        await harness.clock.timer { $0 == start + 4 }
        harness.clock.advance(by: 4)
        await flushed  // returned although the request is still in flight
        #expect(destination.statistics.queuedEvents == 1)  // not removed before its 2xx
        harness.transport.release()
        await destination.flushed()
        #expect(destination.statistics.delivered == 1)
        #expect(destination.statistics.queuedEvents == 0)
    }
}
#endif
