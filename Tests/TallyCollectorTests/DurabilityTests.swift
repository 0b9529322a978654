// Starts processes: `Process` exists on macOS and Linux only (iOS, tvOS and watchOS have none).
#if os(macOS) || os(Linux)

#if Collector
import Foundation
import Tally
import TallyTestSupport
import Testing

/// `kill -9` in the middle of a load of batches: every event the collector acknowledged is in the database
/// when it starts again on the same file.
@Suite(
    "Durability", .timeLimit(.minutes(3)))
struct DurabilityTests {
    static let senders = 4
    static let batchSize = 100
    /// Acknowledged batches before the kill.
    static let killAfter = 60

    @Test func everyAcknowledgedEventSurvivesKill9() async throws {
        let folder = try TemporaryFolder()
        let database = folder.file("events.sqlite").path
        let first = try CollectorProcess(["--port", "0", "--database", database])
        let url = try await first.listeningURL()
        let batchURL = url.appendingPathComponent("v1/batch")
        let acknowledged = Locked<[String]>([])
        let (progress, progressed) = AsyncStream<Int>.makeStream()

        let killer = Task {
            for await batches in progress where batches >= Self.killAfter {
                kill(first.pid, SIGKILL)
                return
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<Self.senders {
                group.addTask {
                    for batch in 0... {
                        let ids = (0..<Self.batchSize).map { "k-\(sender)-\(batch)-\($0)" }
                        let body = batchJSON(
                            ids.map { trackJSON("load", properties: #"{"sender":\#(sender)}"#, messageId: $0) })
                        guard let answer = try? await HTTP.post(batchURL, body), answer.status == 200 else { return }
                        let count = acknowledged.withLock { acknowledged in
                            acknowledged += ids
                            return acknowledged.count / Self.batchSize
                        }
                        progressed.yield(count)
                    }
                }
            }
        }
        progressed.finish()
        await killer.value
        let (_, reason) = await first.exit()
        #expect(reason == .uncaughtSignal)

        let second = try CollectorProcess(["--port", "0", "--database", database])
        let restarted = try await second.listeningURL()
        var stored: [String: Int] = [:]
        var after = 0
        while true {
            let page = try await HTTP.send(
                "GET", URL(string: "\(restarted.absoluteString)/tally/events?limit=10000&after=\(after)")!
            ).json
            let events = page["events"]?.arrayValue ?? []
            for event in events { stored[event["message_id"]?.stringValue ?? "", default: 0] += 1 }
            after = events.last?["id"]?.intValue ?? after
            if page["more"] != true { break }
        }
        await second.stop(with: SIGTERM)

        let acknowledgedIds = acknowledged.current
        let missing = acknowledgedIds.filter { stored[$0] == nil }
        print(
            "kill -9: \(acknowledgedIds.count) events acknowledged, \(stored.count) stored after restart, \(missing.count) missing"
        )
        #expect(acknowledgedIds.count >= Self.killAfter * Self.batchSize)
        #expect(missing.isEmpty, "acknowledged but lost: \(missing.prefix(5))")
        #expect(stored.values.allSatisfy { $0 == 1 })
        // Only whole batches are stored: a transaction either committed or did not.
        #expect(stored.count % Self.batchSize == 0)
    }
}
#endif

#endif
