// The kill -9 soak of TallyDelivery: a sender process (this executable, re-run as `sender`) tracks numbered
// events into an SegmentAPIDestination posting to a local batch server (Tests/TallyDeliveryTests/Fixtures/
// batch_server.py, on 127.0.0.1, failing one request in twenty), and is killed with SIGKILL at a random point,
// then restarted on the same database, as many times as asked (default 1,000). Then a last sender drains the
// queue and the soak checks what the server received: every event a sender had committed arrived, no batch
// was corrupt, every copy kept its message id. It prints the duplicates per kill.
//
//     swift run -c release --package-path Benchmarks DeliverySoak [kills] [seed]
import Foundation
import Tally
import TallyDelivery

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let arguments = CommandLine.arguments

// MARK: The sender

if arguments.count >= 5, arguments[1] == "sender" {
    var configuration = SegmentAPIDestination.Configuration(
        endpoint: URL(string: arguments[3])!, writeKey: "soak", database: URL(fileURLWithPath: arguments[2]),
        requestTimeout: 5)
    configuration.retry.baseDelay = 0.05
    configuration.retry.maximumDelay = 0.2
    // No back-off while draining (a flush during one returns at once): each flush makes one attempt.
    if arguments[4] == "drain" { configuration.retry.baseDelay = 0 }
    let destination = SegmentAPIDestination(configuration: configuration)
    if arguments[4] == "drain" {
        var rounds = 0
        while destination.statistics.queuedEvents > 0 && rounds < 200 {
            destination.flush()
            rounds += 1
        }
        say("drained \(destination.statistics.queuedEvents)")
        destination.close()
        exit(0)
    }
    let run = Int(arguments[4])!
    let analytics = AnalyticsClient(
        destinations: [destination],
        configuration: AnalyticsClient.Configuration(
            buffering: Buffering(capacity: 1_000, whenFull: .block),
            destinationBuffering: Buffering(capacity: 1_000, whenFull: .block)))
    // The client's own progress is not visible here, so the sender reports what the queue committed.
    let reporter = Thread {
        var last = -1
        while true {
            let committed = destination.statistics.committed
            if committed != last {
                say("committed \(committed)")
                last = committed
            }
            usleep(1_000)
        }
    }
    reporter.start()
    for n in 1...300 {
        analytics.track(
            "soak_event", ["run": .int(run), "n": .int(n), "padding": .string(String(repeating: "x", count: 200))])
        if n % 25 == 0 { usleep(2_000) }
    }
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await analytics.flush()
        done.signal()
    }
    done.wait()
    say("committed \(destination.statistics.committed)")
    say("done")
    exit(0)
}

// MARK: The soak

let kills = arguments.count > 1 ? Int(arguments[1]) ?? 1_000 : 1_000
let seed = arguments.count > 2 ? UInt64(arguments[2]) ?? 1 : UInt64.random(in: 1...UInt64.max)
var generator = SplitMix64(seed: seed)
let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Tests/TallyDeliveryTests/Fixtures/batch_server.py")
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-soak-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let log = folder.appendingPathComponent("received.jsonl")
let database = folder.appendingPathComponent("queue.sqlite").path

let server = Process()
server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
server.arguments = ["python3", script.path, log.path, "--random-faults", "0.05"]
let serverOutput = Pipe()
server.standardOutput = serverOutput
try server.run()
let serverLines = LineReader(serverOutput.fileHandleForReading)
guard let portLine = serverLines.next(), portLine.hasPrefix("port ") else {
    fatalError("the batch server did not start")
}
let endpoint = "http://127.0.0.1:\(portLine.dropFirst(5))/v1/batch"

let started = Date()
var committed: [Int: Int] = [:]
var killed = 0
var runs = 0
while killed < kills && runs < 3 * kills {  // a sender that finishes before its kill point is not a kill
    runs += 1
    let run = runs
    let sender = Process()
    sender.executableURL = URL(fileURLWithPath: arguments[0])
    sender.arguments = ["sender", database, endpoint, String(run)]
    let output = Pipe()
    sender.standardOutput = output
    try sender.run()
    let lines = LineReader(output.fileHandleForReading)
    let killAfter = Int.random(in: 1...16, using: &generator)
    var count = 0
    var finished = false
    while let line = lines.next() {
        if line.hasPrefix("committed "), let value = Int(line.dropFirst(10)) { committed[run] = value }
        if line == "done" { finished = true }
        count += 1
        if count >= killAfter { break }
    }
    if !finished {
        kill(sender.processIdentifier, SIGKILL)
        killed += 1
    }
    sender.waitUntilExit()
}
let drain = Process()
drain.executableURL = URL(fileURLWithPath: arguments[0])
drain.arguments = ["sender", database, endpoint, "drain"]
let drainOutput = Pipe()
drain.standardOutput = drainOutput
try drain.run()
let drained = LineReader(drainOutput.fileHandleForReading).next()
drain.waitUntilExit()
kill(server.processIdentifier, SIGKILL)
server.waitUntilExit()

var idsByEvent: [[Int]: Set<String>] = [:]
var messages = 0
var corrupt = 0
for line in try String(contentsOf: log, encoding: .utf8).split(separator: "\n") {
    let value = try PropertyValue(json: String(line))
    guard case .object(let batch) = value else { continue }
    if batch["corrupt"] != nil {
        corrupt += 1
        continue
    }
    let ids = batch["messageIds"]?.arrayValue ?? []
    let properties = batch["properties"]?.arrayValue ?? []
    for (id, property) in zip(ids, properties) {
        guard let run = property.objectValue?["run"]?.intValue, let n = property.objectValue?["n"]?.intValue,
            let messageId = id.stringValue
        else { continue }
        idsByEvent[[run, n], default: []].insert(messageId)
        messages += 1
    }
}
var numbersByRun: [Int: Set<Int>] = [:]
for key in idsByEvent.keys { numbersByRun[key[0], default: []].insert(key[1]) }
var lost = 0
for run in 1...runs {
    let numbers = numbersByRun[run] ?? []
    let highest = numbers.max() ?? 0
    lost += max(0, committed[run, default: 0] - highest) + (highest - numbers.count)
}
let renamed = idsByEvent.values.filter { $0.count > 1 }.count
let duplicates = messages - idsByEvent.count
say(
    """
    DeliverySoak: \(killed) kills in \(runs) runs in \(Int(Date().timeIntervalSince(started))) s, seed \(seed)
      events delivered: \(idsByEvent.count); committed and lost: \(lost); corrupt batches: \(corrupt)
      duplicates: \(duplicates) (\(String(format: "%.1f", Double(duplicates) / Double(max(killed, 1)))) per kill), \
    copies under another message id: \(renamed); drain: \(drained ?? "no answer")
    """)
try? FileManager.default.removeItem(at: folder)
exit(lost == 0 && corrupt == 0 && renamed == 0 && drained == "drained 0" ? 0 : 1)

/// Reads whole lines from a pipe, blocking.
final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()
    init(_ handle: FileHandle) { self.handle = handle }
    func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let data = handle.availableData
            if data.isEmpty { return nil }
            buffer.append(data)
        }
    }
}

/// A seeded generator, so a failing soak can be replayed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
