import Foundation
import Tally

#if canImport(Glibc)
import Glibc
#endif

// The consent hold under a flood: COUNT events (default 1,000,000) tracked before the user answers, with the
// hold at its default bound (1,000 events), and with a naive hold that keeps everything (bound = COUNT), in
// the same run. Prints what each holds and drops, how much the process's resident memory grew while the
// events wait (Linux's /proc/self/statm; the bounded hold runs first, so the naive one's growth is not
// hidden by memory the first freed), and the time to track and flush them. Release build:
//
//     swift build -c release --package-path Benchmarks --product ConsentHold
//     Benchmarks/.build/release/ConsentHold 1000000

let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
guard count > 0 else {
    print("usage: ConsentHold [COUNT>0]")
    exit(2)
}

/// The process's resident memory in bytes (4 KiB pages, as on x86-64 Linux), or nil where /proc is missing.
func residentBytes() -> Int64? {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int64(fields[1]) else { return nil }
    return pages * 4096
}

/// A destination that only counts: the events never arrive while the user has not answered.
final class Counter: Destination {
    let name = "counter"
    private let received = Locked(0)
    func receive(_ envelope: Envelope, context: DestinationContext) throws { received.withLock { $0 += 1 } }
    var count: Int { received.withLock { $0 } }
}

/// A minimal lock, so that this file needs nothing but Foundation.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

func run(label: String, capacity: Int) async {
    let before = residentBytes()
    let counter = Counter()
    let analytics = AnalyticsClient(
        destinations: [counter],
        // The client's queue waits for room rather than dropping, so that every event reaches the hold.
        configuration: .init(
            buffering: Buffering(capacity: 10_000, whenFull: .block), consentRequired: [.analytics],
            consentHoldCapacity: capacity))
    let clock = ContinuousClock()
    let start = clock.now
    for index in 0..<count {
        analytics.track(Event("screen_viewed", ["index": .int(index), "screen": "home"]))
    }
    await analytics.flush()
    let elapsed = clock.now - start
    let live = residentBytes().flatMap { after in before.map { after - $0 } }
    let statistics = analytics.statistics
    let memory = live.map { String(format: "%.1f MB", Double($0) / 1_048_576) } ?? "n/a"
    print(
        "\(label): tracked \(statistics.tracked), held \(statistics.heldForConsent), dropped "
            + "\(statistics.dropped.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) \($0.key)" })"
            + ", delivered \(counter.count), "
            + "resident memory grew \(memory), \(elapsed) to track and flush")
    await analytics.shutdown()
}

print("ConsentHold: \(count) events tracked before the user answers")
await run(label: "bounded hold (1,000, the default)", capacity: 1000)
await run(label: "naive hold (keeps every event)", capacity: count)
