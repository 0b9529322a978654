import CollectorLoad
import Foundation
import TallyCollector

// Fills a collector (SQLite file, WAL) with N events in batches of 100 from four loopback connections, and
// prints the process's resident memory as it fills, then after the reads a test or the live page makes on
// a full database. The issue's bar: at most 128 MB resident at 1,000,000 stored events, and flat.
//
//     swift build -c release --package-path Benchmarks --product CollectorProfile
//     Benchmarks/.build/release/CollectorProfile 1000000
//
// The load generator runs in the same process, so the figures are an upper bound for the collector alone.

guard #available(macOS 14, *) else { fatalError("needs macOS 14") }
let total = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-profile-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let database = folder.appendingPathComponent("events.sqlite").path

/// VmRSS and VmHWM (peak) from /proc/self/status, in MB.
func memory() -> (resident: Double, peak: Double) {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
    func value(_ key: String) -> Double {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return 0 }
        return Double(line.split(separator: " ", omittingEmptySubsequences: true)[1]).map { $0 / 1024 } ?? 0
    }
    return (value("VmRSS:"), value("VmHWM:"))
}

func report(_ label: String, _ stored: Int, since start: ContinuousClock.Instant? = nil, events: Int = 0) {
    let (resident, peak) = memory()
    var line =
        "\(label): \(stored) events stored, resident \(String(format: "%.1f", resident)) MB (peak \(String(format: "%.1f", peak)) MB)"
    if let start {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        line += ", \(Int(Double(events) / seconds)) events/s over this stretch"
    }
    print(line)
    fflush(nil)
}

let collector = try await Collector.start(Collector.Configuration(database: .file(database)))
let load = IngestLoad(port: collector.port)
report("started", 0)
var stored = 0
for checkpoint in [100_000, 250_000, 500_000, 750_000, 1_000_000].filter({ $0 <= total })
    + (total % 250_000 == 0 ? [] : [total])
{
    let start = ContinuousClock.now
    let batches = (checkpoint - stored) / SegmentBatches.batchSize
    let refused = await load.post(batches: batches)
    precondition(refused == 0, "a batch was refused")
    report("filled", checkpoint, since: start, events: checkpoint - stored)
    stored = checkpoint
}

// What a test and the live page do on a full database.
let reader = LoopbackClient(port: collector.port)
let pages = [
    "/tally/events?limit=10000", "/tally/events?limit=10000&after=\(total - 5000)",
    "/tally/events?name=Order%20Completed&limit=1000", "/tally/events/wait?count=1&timeout=1000",
    "/tally/events?session=nobody", "/tally/status",
]
for page in pages { precondition(reader.send(LoopbackClient.request("GET", page)).status == 200, page) }
report("after reads", stored)
let size = (try? FileManager.default.attributesOfItem(atPath: database)[.size] as? Int) ?? 0
print("database file: \(size / 1_048_576) MB")
await collector.stop()
