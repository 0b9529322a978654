// Starts a server process (and, for the kill tests, senders): `Process` exists on macOS and Linux only.
#if os(macOS) || os(Linux)

#if Delivery
import Foundation
import Tally
import TallyDelivery
import TallyTestSupport
import TallyTesting
import Testing

/// Real HTTP through URLSession against a local server that fails on purpose. The destination's timers
/// run on a manual clock; only the requests take real time.
@Suite(.serialized) struct FaultTests {
    /// Sends three events through `faults` and returns what the server received and the destination counted.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    private func deliver(
        through faults: [String], requestTimeout: Double = 5,
        check: (ManualClock, ManualClock.Instant) async throws -> Void = { _, _ in }
    ) async throws -> (server: [BatchServer.Batch], statistics: SegmentAPIDestination.Statistics, reports: Reports) {
        let folder = try TemporaryFolder()
        let server = try BatchServer(log: folder.file("received.jsonl"))
        defer { server.stop() }
        try await server.fail(faults)
        let harness = try Harness(durable: true) {
            $0.endpoint = server.endpoint
            $0.transport = .urlSession()
            $0.requestTimeout = requestTimeout
        }
        let destination = harness.destination()
        defer { destination.close() }
        try harness.receive(1...3, into: destination)
        let start = harness.clock.now
        await destination.flushed()
        try await check(harness.clock, start)
        // Each round's flush races the retry the advance starts: it waits for that retry's answer, or, when
        // it comes after a failed retry, returns at once during the new back-off. Either way the next round
        // goes on, and the flush returns only after what the retry caused is counted and reported.
        var rounds = 0
        while destination.statistics.delivered < 3 && rounds < 10 {
            harness.clock.advance(by: .seconds(301))  // past any back-off or Retry-After
            await destination.flushed()
            rounds += 1
        }
        return (try server.received().batches, destination.statistics, harness.reports)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: [
        (["500", "503"], 2), (["reset"], 1), (["hang"], 1), (["slow:0.3"], 0), (["429:7"], 1),
    ])
    func deliversThroughFaults(faults: [String], retries: Int) async throws {
        let (batches, statistics, reports) = try await deliver(through: faults, requestTimeout: 1) { clock, start in
            // The Retry-After wait is asleep on the clock (the flush may return before its task sleeps).
            if faults == ["429:7"] { try await clock.waitForSleeper { $0 == start.advanced(by: .seconds(7)) } }
        }
        #expect(statistics.delivered == 3)
        #expect(statistics.retries == retries)
        #expect(statistics.dropped.isEmpty)
        #expect(batches.count == 1)  // failed attempts left nothing on the server
        #expect(batches.first?.retry == retries)
        #expect(batches.first?.properties.compactMap { $0["n"]?.intValue } == [1, 2, 3])
        #expect(batches.first?.authorization == "Basic " + Data("test-key:".utf8).base64EncodedString())
        #expect(reports.codes == (retries > 0 ? [.sendFailed, .sendFailed] : []))
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func deliversOnceTheServerIsBackUp() async throws {
        let folder = try TemporaryFolder()
        let first = try BatchServer(log: folder.file("first.jsonl"))
        let port = first.port
        first.stop()  // down: nothing listens on the port
        let harness = try Harness(durable: true) {
            $0.endpoint = URL(string: "http://127.0.0.1:\(port)/v1/batch")!
            $0.transport = .urlSession()
        }
        let destination = harness.destination()
        defer { destination.close() }
        try harness.receive(1...3, into: destination)
        await destination.flushed()
        #expect(destination.statistics.retries == 1)
        #expect(destination.statistics.queuedEvents == 3)
        #expect(harness.reports.codes == [.sendFailed])

        let second = try BatchServer(log: folder.file("second.jsonl"), port: port)
        defer { second.stop() }
        harness.clock.advance(by: .seconds(1))
        await destination.flushed()
        #expect(destination.statistics.delivered == 3)
        #expect(try second.received().batches.flatMap(\.messageIds).count == 3)
    }
}
#endif

#endif
