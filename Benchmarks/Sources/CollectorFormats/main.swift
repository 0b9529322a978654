import CollectorLoad
import Foundation
import TallyCollector

// Ingest speed per wire format, in one run: Segment's batches beside PostHog's, Amplitude's and Mixpanel's,
// the same order event in each vendor's words (IngestFormat), 200,000 events per round from four loopback
// keep-alive connections, each round on a fresh collector (SQLite file, WAL). Rounds alternate the formats
// so that load from the rest of the machine falls on all of them alike; the median round is reported.
//
//     swift build -c release --package-path Benchmarks --product CollectorFormats
//     Benchmarks/.build/release/CollectorFormats [rounds]

guard #available(macOS 14, *) else { fatalError("needs macOS 14") }
let rounds = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 5
let eventsPerRound = 200_000
var rates: [IngestFormat: [Double]] = [:]

for round in 1...rounds {
    for format in IngestFormat.allCases {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let collector = try await Collector.start(
            Collector.Configuration(database: .file(folder.appendingPathComponent("events.sqlite").path)))
        let load = IngestLoad(port: collector.port, format: format)
        let start = ContinuousClock.now
        let refused = await load.post(batches: eventsPerRound / format.eventsPerBatch)
        let elapsed = ContinuousClock.now - start
        precondition(refused == 0, "\(format): \(refused) batches refused")
        await collector.stop()
        try? FileManager.default.removeItem(at: folder)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        rates[format, default: []].append(Double(eventsPerRound) / seconds)
        print("round \(round) \(format.rawValue): \(Int(Double(eventsPerRound) / seconds)) events/s")
        fflush(nil)
    }
}

print("\nformat     path        events/request  median events/s  (min, max) over \(rounds) rounds")
let segment = rates[.segment]!.sorted()[rounds / 2]
for format in IngestFormat.allCases {
    let sorted = rates[format]!.sorted()
    let median = sorted[rounds / 2]
    let ratio = String(format: "%.2f", median / segment)
    print(
        "\(format.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(format.path.padding(toLength: 11, withPad: " ", startingAt: 0)) "
            + "\(String(format.eventsPerBatch).padding(toLength: 15, withPad: " ", startingAt: 0)) \(Int(median)) (\(Int(sorted.first!)), \(Int(sorted.last!)))  \(ratio)x Segment's"
    )
}
