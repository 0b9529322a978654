import BenchmarkSupport
import Foundation
import Tally
import TallyDelivery

// The caller's cost of `track` with an SegmentAPIDestination attached against a no-op destination, for callgrind:
// instruction counts hold on a loaded machine where the benchmark's time wobbles. The client is the one of
// DeliveryBenchmarks (the two processors, one destination, queues that hold every event); the HTTP destination
// posts to an in-process transport that answers 200. Only `trackAll` is counted, on the caller's thread:
//
//     swift build -c release --package-path Benchmarks --product DeliveryProfile
//     valgrind --tool=callgrind --separate-threads=yes --toggle-collect='*trackAll*' \
//         Benchmarks/.build/release/DeliveryProfile noop 10000
//     (the same with `http`), then `callgrind_annotate` on the caller thread's file (`-01` suffix)
//
// Not a benchmark: the timed figures come from `swift package benchmark --target DeliveryBenchmarks`.

let arguments = CommandLine.arguments
let http = arguments.count > 1 && arguments[1] == "http"
let count = arguments.count > 2 ? Int(arguments[2]) ?? 10_000 : 10_000
let warmup = 100

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-profile-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

let counting = CountingDestination(name: "http")
let delivery: SegmentAPIDestination? =
    http
    ? SegmentAPIDestination(
        configuration: SegmentAPIDestination.Configuration(
            endpoint: URL(string: "http://127.0.0.1:9/v1/batch")!, writeKey: "profile",
            database: folder.appendingPathComponent("queue.sqlite"), maximumQueuedEvents: 1_000_000,
            maximumQueuedBytes: 1_000_000_000, flushAt: 20,
            transport: HTTPTransport { _ in HTTPTransport.Response(statusCode: 200) }))
    : nil
let buffering = Buffering(capacity: count + warmup, whenFull: .dropNewest)
let analytics = AnalyticsClient(
    processors: ClientFixture.processors(), destinations: [delivery ?? counting],
    configuration: AnalyticsClient.Configuration(buffering: buffering, destinationBuffering: buffering))

/// The measured region: `count` calls to `track`, on this thread.
@inline(never)
func trackAll(_ analytics: AnalyticsClient, from start: Int, count: Int) {
    for index in start..<(start + count) {
        analytics.track(SampleEvent.menuItemOrdered(index))
    }
}

/// The same calls, outside the measured region (first-use costs).
@inline(never)
func warmUp(_ analytics: AnalyticsClient, count: Int) {
    for index in 0..<count {
        analytics.track(SampleEvent.menuItemOrdered(index))
    }
}

warmUp(analytics, count: warmup)
trackAll(analytics, from: warmup, count: count)

// Waits on the counters rather than `await flush()`, which crashed valgrind 3.19 at the top level (see
// ClientProfile).
func delivered() -> Int { analytics.statistics.destinations["http"]?.delivered ?? 0 }
while delivered() + analytics.statistics.totalDropped < count + warmup {
    usleep(1_000)
}
delivery?.flush()
let statistics = analytics.statistics
let committed = delivery?.statistics.committed ?? counting.count
print("\(http ? "SegmentAPIDestination" : "no-op destination"): \(count) events tracked, \(committed) received")
if statistics.totalDropped != 0 || committed != count + warmup {
    print("error: the client dropped events: \(statistics)")
    exit(1)
}
delivery?.close()
