// Starts a server process (and, for the kill tests, senders): `Process` exists on macOS and Linux only.
#if os(macOS) || os(Linux)

#if Delivery
import Foundation
import Tally
import TallyTestSupport
import Testing

/// At least once, never less: a sender killed with SIGKILL at random points and restarted on the same
/// database loses no committed event, sends no corrupt batch, repeats only what the server may drop by
/// message id, and never reports an event lost that was not.
///
/// `TALLY_DELIVERY_KILLS` sets the number of kills (default 50); `TALLY_DELIVERY_SEED` replays a run.
@Suite(.serialized) struct KillTests {
    @Test func killedSendersLoseNoCommittedEvent() async throws {
        let environment = ProcessInfo.processInfo.environment
        let kills = Int(environment["TALLY_DELIVERY_KILLS"] ?? "") ?? 50
        let seed = UInt64(environment["TALLY_DELIVERY_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64.max)
        var random = SplitMix64(seed: seed)
        let folder = try TemporaryFolder()
        // One request in twenty fails (a 500 or a reset), so kills also land among retries.
        let server = try BatchServer(log: folder.file("received.jsonl"), randomFaults: 0.05)
        defer { server.stop() }
        let database = folder.file("queue.sqlite").path
        let endpoint = server.endpoint.absoluteString

        var committed: [Int: Int] = [:]
        var killed = 0
        var runs = 0
        while killed < kills && runs < 3 * kills {  // a sender that finishes before its kill point is not a kill
            runs += 1
            let run = runs
            let sender = try SenderProcess([database, endpoint, String(run), "300"])
            let killAfter = Int.random(in: 1...16, using: &random)
            var lines = 0
            var finished = false
            while let line = await sender.nextLine() {
                if line.hasPrefix("committed "), let count = Int(line.dropFirst(10)) { committed[run] = count }
                // A kill leaves the queue's ledger naming no event the file lacks (issue 34).
                if line.hasPrefix("lost ") { #expect(line == "lost 0", "run \(run) reported a loss; seed \(seed)") }
                if line == "done" { finished = true }
                lines += 1
                if lines >= killAfter { break }
            }
            #expect(!sender.timedOut.current, "run \(run) hung; seed \(seed)")
            if finished {
                #expect(sender.exitStatus() == 0, "run \(run); seed \(seed)")
            } else {
                sender.kill9()
                killed += 1
            }
        }
        let drain = try SenderProcess([database, endpoint, "drain"])
        var drained: String?
        while let line = await drain.nextLine() {
            if line.hasPrefix("lost ") { #expect(line == "lost 0", "the drain reported a loss; seed \(seed)") }
            drained = line
        }
        #expect(drain.exitStatus() == 0, "seed \(seed)")
        #expect(drained == "drained 0", "seed \(seed)")

        let (batches, corrupt) = try server.received()
        #expect(corrupt == 0, "seed \(seed)")
        var idsByEvent: [[Int]: Set<String>] = [:]
        var messages = 0
        for batch in batches {
            for (properties, messageId) in zip(batch.properties, batch.messageIds) {
                guard let run = properties["run"]?.intValue, let n = properties["n"]?.intValue else {
                    Issue.record("a message without its run and number: \(properties)")
                    continue
                }
                idsByEvent[[run, n], default: []].insert(messageId)
                messages += 1
            }
        }
        #expect(killed == kills, "seed \(seed)")
        var numbersByRun: [Int: Set<Int>] = [:]
        for key in idsByEvent.keys { numbersByRun[key[0], default: []].insert(key[1]) }
        for run in 1...runs {
            let numbers = numbersByRun[run] ?? []
            let highest = numbers.max() ?? 0
            // Events are committed in order: every one up to the last reported, and none missing below
            // the highest that arrived.
            #expect(highest >= committed[run, default: 0], "run \(run) lost committed events; seed \(seed)")
            #expect(numbers.count == highest, "run \(run) has gaps; seed \(seed)")
        }
        #expect(idsByEvent.values.allSatisfy { $0.count == 1 }, "a copy with another message id; seed \(seed)")
        let duplicates = messages - idsByEvent.count
        print(
            "kill -9 test: \(killed) kills, \(idsByEvent.count) events delivered, \(duplicates) duplicates "
                + "(\(String(format: "%.2f", Double(duplicates) / Double(max(killed, 1)))) per kill), 0 lost, "
                + "\(corrupt) corrupt batches, seed \(seed)")
    }
}
#endif

#endif
