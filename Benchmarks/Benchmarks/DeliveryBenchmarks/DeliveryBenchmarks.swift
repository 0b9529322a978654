import Benchmark
import BenchmarkSupport
import Foundation
import GRDB
import Synchronization
import Tally
import TallyDelivery

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// TallyDelivery's budget (issue 15), each against a naive reference in the same run; BENCHMARKS.md records
// the figures. The HTTP destination posts to an in-process transport (no network), so what is measured is
// Tally's own work: encoding, the SQLite queue, batching and gzip.

let benchmarks: @Sendable () -> Void = {
    let burst = BenchmarkScalingFactor.kilo

    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, threadCPU],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: burst,
        maxDuration: .seconds(3),
        maxIterations: 10_000
    )

    // MARK: The caller's cost: a no-op destination against the HTTP destination

    // The same client (the two processors of ClientBenchmarks), one destination each. Each iteration tracks a
    // burst of 1,000 events into queues that hold 2,000, then flushes outside the measured region.
    for attached in ["no-op destination (reference)", "SegmentAPIDestination"] {
        Benchmark("track: caller cost, \(attached)") { benchmark, fixture in
            let analytics = fixture.analytics
            let cpu = ThreadCPUTime.now()
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                analytics.track(SampleEvent.menuItemOrdered(index))
            }
            benchmark.stopMeasurement()
            benchmark.measurement(threadCPU, (ThreadCPUTime.now() - cpu) / burst.rawValue)
            await analytics.flush()
            fixture.check(benchmark)
        } setup: {
            try DeliveryFixture(http: attached == "SegmentAPIDestination", capacity: 2 * burst.rawValue)
        }
    }

    // MARK: Committing to the queue

    // 100,000 events handed to the destination (encoded, then committed in groups by its writer), until
    // `flush()` has them all in the database. The transport fails at once, so nothing is sent and the
    // figure is encoding plus committing.
    Benchmark(
        "queue: events committed per second (encode + group commit)",
        configuration: .init(
            metrics: [.wallClock, eventsPerSecond], timeUnits: .milliseconds, warmupIterations: 1,
            scalingFactor: .one, maxDuration: .seconds(30), maxIterations: 5)
    ) { benchmark, envelopes in
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let destination = SegmentAPIDestination(configuration: DeliveryFixture.configuration(folder, failing: true))
        defer { destination.close() }
        let context = DestinationContext(destination: "http") { _ in }
        let start = ContinuousClock.now
        for envelope in envelopes { try destination.receive(envelope, context: context) }
        destination.flush()
        let elapsed = ContinuousClock.now - start
        benchmark.stopMeasurement()
        let committed = destination.statistics.committed
        if committed != envelopes.count { benchmark.error("committed \(committed) of \(envelopes.count)") }
        benchmark.measurement(eventsPerSecond, perSecond(committed, in: elapsed))
    } setup: {
        DeliveryFixture.envelopes(100_000)
    }

    // The naive reference: the same JSON, one transaction per event (GRDB, WAL, synchronous NORMAL).
    Benchmark(
        "Reference: one transaction per event",
        configuration: .init(
            metrics: [.wallClock, eventsPerSecond], timeUnits: .milliseconds, warmupIterations: 1,
            scalingFactor: .one, maxDuration: .seconds(30), maxIterations: 5)
    ) { benchmark, payloads in
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let database = try DatabasePool(path: folder.url.appendingPathComponent("naive.sqlite").path)
        try database.write {
            try $0.execute(sql: "CREATE TABLE message (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
        }
        let start = ContinuousClock.now
        for payload in payloads {
            try database.write { try $0.execute(sql: "INSERT INTO message (payload) VALUES (?)", arguments: [payload]) }
        }
        let elapsed = ContinuousClock.now - start
        benchmark.stopMeasurement()
        benchmark.measurement(eventsPerSecond, perSecond(payloads.count, in: elapsed))
    } setup: {
        // The destination's own encoding of the same events, read back from a queue it filled.
        try DeliveryFixture.payloads(10_000)
    }

    // MARK: Bytes on disk

    // 10,000 events through the client (the two processors) into the queue, nothing sent; the database file
    // after the destination closed (WAL checkpointed), divided by the events.
    Benchmark(
        "queue: bytes per event on disk",
        configuration: .init(
            metrics: [bytesPerEvent, jsonBytesPerEvent], warmupIterations: 0, scalingFactor: .one,
            maxDuration: .seconds(30), maxIterations: 1)
    ) { benchmark in
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fixture = try DeliveryFixture(http: true, capacity: 10_000, folder: folder, failing: true, block: true)
        for index in 0..<10_000 { fixture.analytics.track(SampleEvent.menuItemOrdered(index)) }
        await fixture.analytics.flush()
        let statistics = fixture.http!.statistics
        fixture.http!.close()
        let size =
            try FileManager.default.attributesOfItem(atPath: DeliveryFixture.database(folder).path)[.size] as? Int ?? 0
        benchmark.measurement(bytesPerEvent, size / max(1, statistics.committed))
        benchmark.measurement(jsonBytesPerEvent, statistics.queuedBytes / max(1, statistics.committed))
        if statistics.committed != 10_000 { benchmark.error("committed \(statistics.committed) of 10,000") }
    }
}

private var threadCPU: BenchmarkMetric {
    .custom("Thread CPU per event (ns)", polarity: .prefersSmaller, useScalingFactor: false)
}

private var eventsPerSecond: BenchmarkMetric {
    .custom("Throughput (events / s)", polarity: .prefersLarger, useScalingFactor: false)
}

private var bytesPerEvent: BenchmarkMetric {
    .custom("Bytes per event on disk", polarity: .prefersSmaller, useScalingFactor: false)
}

private var jsonBytesPerEvent: BenchmarkMetric {
    .custom("Bytes of JSON per event", polarity: .prefersSmaller, useScalingFactor: false)
}

private func perSecond(_ count: Int, in duration: Duration) -> Int {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    return Int((Double(count) / seconds).rounded())
}

/// A client with one destination: a counting no-op, or an SegmentAPIDestination on a fresh database.
final class DeliveryFixture: Sendable {
    let analytics: AnalyticsClient
    let counting: CountingDestination?
    let http: SegmentAPIDestination?
    private let folder: TemporaryFolder?

    init(http: Bool, capacity: Int, folder: TemporaryFolder? = nil, failing: Bool = false, block: Bool = false) throws {
        let buffering = Buffering(capacity: capacity, whenFull: block ? .block : .dropNewest)
        let destination: any Destination
        if http {
            let folder = try folder ?? TemporaryFolder()
            self.folder = folder
            let delivery = SegmentAPIDestination(configuration: Self.configuration(folder, failing: failing))
            self.http = delivery
            self.counting = nil
            destination = delivery
        } else {
            let counting = CountingDestination(name: "http")
            self.counting = counting
            self.http = nil
            self.folder = nil
            destination = counting
        }
        analytics = AnalyticsClient(
            processors: ClientFixture.processors(), destinations: [destination],
            configuration: AnalyticsClient.Configuration(buffering: buffering, destinationBuffering: buffering))
    }

    deinit {
        http?.close()
        folder?.remove()
    }

    static func database(_ folder: TemporaryFolder) -> URL { folder.url.appendingPathComponent("queue.sqlite") }

    static func configuration(_ folder: TemporaryFolder, failing: Bool) -> SegmentAPIDestination.Configuration {
        SegmentAPIDestination.Configuration(
            endpoint: URL(string: "http://127.0.0.1:9/v1/batch")!, writeKey: "benchmark", database: database(folder),
            maximumQueuedEvents: 1_000_000, maximumQueuedBytes: 1_000_000_000, flushAt: failing ? 1_000_000_000 : 20,
            transport: HTTPTransport { _ in
                if failing { throw URLError(.cannotConnectToHost) }
                return HTTPTransport.Response(statusCode: 200)
            })
    }

    /// Envelopes as the client makes them for the sample event.
    static func envelopes(_ count: Int) -> [Envelope] {
        (0..<count).map { index in
            Envelope(
                event: SampleEvent.menuItemOrdered(index),
                messageId: MessageID(prefix: 42, sequence: UInt64(index + 1)),
                timestamp: Date(), userId: "user-1", anonymousId: "8f14e45f-ceea-467a-9575-0cb2bb2f9b9d",
                context: ["library": ["name": "tally", "version": "0.1.0"], "os": "Linux"])
        }
    }

    /// The JSON the destination stores for `count` sample events.
    static func payloads(_ count: Int) throws -> [Data] {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let destination = SegmentAPIDestination(configuration: configuration(folder, failing: true))
        let context = DestinationContext(destination: "http") { _ in }
        for envelope in envelopes(count) { try destination.receive(envelope, context: context) }
        destination.flush()
        destination.close()
        return try DatabaseQueue(path: database(folder).path).read { db in
            try Data.fetchAll(db, sql: "SELECT payload FROM message ORDER BY id")
        }
    }

    /// Stops the run if the client dropped anything: the figure would flatter it.
    func check(_ benchmark: Benchmark) {
        let statistics = analytics.statistics
        let stats = statistics.destinations["http"] ?? DestinationStatistics()
        if statistics.totalDropped != 0 || !stats.dropped.isEmpty || stats.delivered != statistics.tracked {
            fatalError("\(benchmark.name): the client dropped events: \(statistics)")
        }
    }
}

/// A fresh folder for one benchmark's database.
final class TemporaryFolder: Sendable {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tally-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func remove() { try? FileManager.default.removeItem(at: url) }
}
