#if Delivery
import Foundation
import Tally
import TallyDelivery
import TallyTesting
import Testing

/// What a batch looks like on the wire, and when the destination sends one.
struct SegmentAPIDestinationTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func batchesAreSegmentMessagesWithBasicAuthGzipAndSentAt() async throws {
        let harness = try Harness()
        let destination = harness.destination()
        defer { destination.close() }
        let context = harness.context
        try destination.receive(envelope(1), context: context)
        try destination.receive(envelope(2, kind: .screen, name: "Menu"), context: context)
        var identify = envelope(3, kind: .identify, name: "", userId: "user-7")
        identify.context = ["app": ["version": "2.3.0"]]
        try destination.receive(identify, context: context)
        try destination.receive(envelope(4, kind: .group, name: "", groupId: "team-1"), context: context)
        var alias = envelope(5, kind: .alias, name: "", userId: "user-8")
        alias.userId = "user-7"
        try destination.receive(alias, context: context)
        await destination.flushed()

        let sent = try #require(harness.transport.sent.first)
        #expect(harness.transport.sent.count == 1)
        #expect(sent.gzipped)
        #expect(sent.headers["content-type"] == "application/json")
        #expect(sent.headers["authorization"] == "Basic " + Data("test-key:".utf8).base64EncodedString())
        #expect(sent.headers["x-retry-count"] == "0")
        #expect(sent.body["sentAt"] == "2026-09-21T14:13:20.000Z")
        let messages = sent.messages
        try #require(messages.count == 5)
        #expect(messages[0]["type"] == "track")
        #expect(messages[0]["event"] == "e")
        #expect(messages[0]["properties"] == ["n": 1])
        #expect(messages[0]["anonymousId"] == "anon-1")
        #expect(messages[0]["userId"] == nil)
        #expect(messages[0]["messageId"] == .string(MessageID(prefix: 0xABC, sequence: 1).description))
        #expect(messages[0]["timestamp"] == "2026-09-21T14:13:20.001Z")
        #expect(messages[0]["context"]?["library"]?["name"] == "tally")
        #expect(messages[1]["type"] == "screen")
        #expect(messages[1]["name"] == "Menu")
        #expect(messages[2]["type"] == "identify")
        #expect(messages[2]["userId"] == "user-7")
        #expect(messages[2]["traits"] == ["n": 3])
        #expect(messages[2]["context"]?["app"] == ["version": "2.3.0"])
        #expect(messages[3]["groupId"] == "team-1")
        #expect(messages[3]["traits"] == ["n": 4])
        #expect(messages[4]["type"] == "alias")
        #expect(messages[4]["userId"] == "user-8")
        #expect(messages[4]["previousId"] == "user-7")
        #expect(destination.statistics.delivered == 5)
        #expect(destination.statistics.queuedEvents == 0)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func withoutGzipTheBodyIsPlainJSON() async throws {
        let harness = try Harness { $0.gzip = false }
        let destination = harness.destination()
        defer { destination.close() }
        try harness.receive(1...2, into: destination)
        await destination.flushed()
        let sent = try #require(harness.transport.sent.first)
        #expect(!sent.gzipped)
        #expect(sent.numbers == [1, 2])
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func sendsOnceFlushAtEventsAreQueued() async throws {
        let harness = try Harness { $0.flushAt = 3 }
        let destination = harness.destination()
        defer { destination.close() }
        let start = harness.clock.now
        try await harness.receiveAndCommit(1...2, into: destination)
        // The sender went back to waiting, with the interval armed and nothing sent.
        try await harness.clock.waitForSleeper { $0 == start.advanced(by: .seconds(30)) }
        #expect(harness.transport.sent.isEmpty)
        try harness.receive(3...3, into: destination)
        let sent = await harness.transport.requests(count: 1)
        #expect(sent[0].numbers == [1, 2, 3])
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func sendsOnTheInterval() async throws {
        let harness = try Harness { $0.flushInterval = 5 }
        let destination = harness.destination()
        defer { destination.close() }
        let start = harness.clock.now
        try await harness.receiveAndCommit(1...1, into: destination)
        try await harness.clock.waitForSleeper { $0 == start.advanced(by: .seconds(5)) }
        #expect(harness.transport.sent.isEmpty)
        harness.clock.advance(by: .seconds(5))
        let sent = await harness.transport.requests(count: 1)
        #expect(sent[0].numbers == [1])
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func batchesStayWithinTheEventAndByteLimits() async throws {
        let harness = try Harness { $0.maximumBatchEvents = 7 }
        let destination = harness.destination()
        defer { destination.close() }
        // 40 events of about 30 KB: at most 16 fit in 500 KB.
        try harness.receive(1...40, into: destination, padding: 30_000)
        try harness.receive(41...60, into: destination)
        await destination.flushed()
        let sent = harness.transport.sent
        #expect(sent.flatMap(\.numbers) == Array(1...60))
        for request in sent {
            #expect(request.messages.count <= 7)
            #expect(request.body.jsonString.utf8.count <= 500_000)
        }
        #expect(destination.statistics.delivered == 60)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func anEventOverTheLimitIsRejectedWhenReceived() async throws {
        let harness = try Harness()
        let destination = harness.destination()
        defer { destination.close() }
        let problem = #expect(throws: Problem.self) {
            try destination.receive(envelope(1, padding: 40_000), context: harness.context)
        }
        #expect(problem?.code == .eventTooLarge)
        #expect(problem?.outcome == .dropped)
        #expect(destination.statistics.committed == 0)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func eventsAfterCloseAreRejected() throws {
        let harness = try Harness()
        let destination = harness.destination()
        destination.close()
        let problem = #expect(throws: Problem.self) { try destination.receive(envelope(1), context: harness.context) }
        #expect(problem?.code == .destinationClosed)
    }

    /// `close()` ends the destination's timers. A five-minute back-off is asleep on the clock, with the flush
    /// deadline; a timer task left asleep after close would wait for ever on a clock that nobody advances any
    /// more, and its wake-up would run into a closed destination.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(1))) func closeLeavesNothingAsleepOnTheClock() async throws {
        let harness = try Harness([.status(503)]) {
            $0.retry.baseDelay = 300
            $0.retry.maximumDelay = 300
            $0.retry.jitter = 0
        }
        let destination = harness.destination()
        try harness.receive(1...1, into: destination)
        let start = harness.clock.now
        await destination.flushed()  // returns at the failure
        try await harness.clock.waitForSleeper { $0 == start.advanced(by: .seconds(300)) }
        destination.close()
        #expect(harness.clock.sleeperDeadlines == [])
        harness.clock.advance(by: .seconds(600))
        #expect(harness.transport.sent.count == 1)  // no retry after close
    }
}
#endif
