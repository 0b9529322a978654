import Benchmark
import CollectorLoad
import Foundation
import TallyCollector
import TallyTesting

// The collector's budget (ARCHITECTURE.md, "Performance budget"; issue 14): ingest at least 100,000 events/s
// over loopback in batches of 100, a waiting test woken within 20 ms (p99) of the commit. Each beside a
// naive reference in the same run: the same batches posted to a Hummingbird route that only counts them,
// and a test that polls every 10 ms instead of waiting.
//
// One iteration posts one batch of 100 events (four keep-alive connections, four client threads, on the
// same two cores as the server), so throughput × 100 is events per second.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .peakMemoryResident],
        timeUnits: .microseconds,
        warmupIterations: 1,
        scalingFactor: .kilo,
        maxDuration: .seconds(5),
        maxIterations: 10
    )

    // MARK: Ingest, batches of 100 over loopback

    Benchmark("Reference: a Hummingbird route that only counts (batch of 100)") { benchmark, server in
        let load = IngestLoad(port: server.port)
        benchmark.startMeasurement()
        precondition(load.post(batches: benchmark.scaledIterations.count) == 0)
        benchmark.stopMeasurement()
    } setup: {
        try await CountingServer.start()
    } teardown: { server in
        await server.stop()
    }

    Benchmark("Collector: ingest a batch of 100 (SQLite file, WAL)") { benchmark, collector in
        let load = IngestLoad(port: collector.port)
        benchmark.startMeasurement()
        precondition(load.post(batches: benchmark.scaledIterations.count) == 0)
        benchmark.stopMeasurement()
    } setup: {
        try await Collector.start(Collector.Configuration(database: .file(temporaryDatabase())))
    } teardown: { collector in
        await collector.stop()
    }

    // MARK: A waiting test sees the event

    let latency = Benchmark.Configuration(
        metrics: [.wallClock], timeUnits: .microseconds, warmupIterations: 5, scalingFactor: .one,
        maxDuration: .seconds(10), maxIterations: 500)

    Benchmark("Reference: a test polling every 10 ms sees the event (post to seen)", configuration: latency) {
        benchmark, collector in
        let reader = CollectorReader(url: collector.url)
        let name = "polled-\(UUID().uuidString)"
        let client = LoopbackClient(port: collector.port)
        let event = oneEvent(name, session: reader.session)
        benchmark.startMeasurement()
        client.send(event)
        while true {
            try? reader.refresh()
            if reader.recordedEvents.contains(where: { $0.name == name }) { break }
            try? await Task.sleep(for: .milliseconds(10))
        }
        benchmark.stopMeasurement()
    } setup: {
        try await Collector.start(Collector.Configuration(database: .file(temporaryDatabase())))
    } teardown: { collector in
        await collector.stop()
    }

    Benchmark("CollectorReader: a waiting test sees the event (post to seen)", configuration: latency) {
        benchmark, collector in
        let reader = CollectorReader(url: collector.url)
        let name = "waited-\(UUID().uuidString)"
        let client = LoopbackClient(port: collector.port)
        let waiting = Task { await reader.waitForEvent(.named(name), timeout: .seconds(30)) }
        // Post only once the collector holds the reader's long-poll: what is timed is the wake-up.
        let status = LoopbackClient(port: collector.port)
        while !String(decoding: status.send(LoopbackClient.request("GET", "/tally/status")).body, as: UTF8.self)
            .contains(#""waiting":1"#)
        {
            await Task.yield()
        }
        let event = oneEvent(name, session: reader.session)
        benchmark.startMeasurement()
        client.send(event)
        precondition(await waiting.value != nil)
        benchmark.stopMeasurement()
    } setup: {
        try await Collector.start(Collector.Configuration(database: .file(temporaryDatabase())))
    } teardown: { collector in
        await collector.stop()
    }
}

/// A fresh database file in the temporary folder.
func temporaryDatabase() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("tally-bench-\(UUID().uuidString).sqlite").path
}

/// One track event for `session`, as a request.
func oneEvent(_ name: String, session: String) -> [UInt8] {
    LoopbackClient.request(
        "POST", "/v1/track", body: Array(#"{"event":"\#(name)","userId":"u1"}"#.utf8),
        headers: ["Tally-Session": session])
}
