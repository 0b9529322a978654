import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
@_spi(Benchmarks) import TallyCollector

/// The naive reference for ingest: a Hummingbird route that reads each batch's body and counts it,
/// without parsing, validating or storing anything. What a collector costs beyond this is its own work.
@available(macOS 15, *)
public final class CountingServer: Sendable {
    public let port: Int
    private let group: ServiceGroup
    private let running: Task<Void, any Error>
    private let box: CountBox

    /// Starts listening on 127.0.0.1, on a free port.
    public static func start() async throws -> CountingServer {
        let box = CountBox()
        let router = Router()
        router.post("/v1/batch") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            box.add(body.readableBytes)
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"success":true}"#)))
        }
        var logger = Logger(label: "counting-server")
        logger.logLevel = .warning
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let application = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            }, logger: logger)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [application], logger: logger))
        // The collector's own executor: the benchmark harness blocks one thread of Swift's shared pool while a
        // benchmark runs, so a server on that pool would get one core where the collector gets two.
        let threads = CollectorExecutor(threads: ProcessInfo.processInfo.activeProcessorCount, name: "counting server")
        let running = Task(executorPreference: threads) {
            defer { threads.shutdown() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        return CountingServer(port: port, group: group, running: running, box: box)
    }

    private init(port: Int, group: ServiceGroup, running: Task<Void, any Error>, box: CountBox) {
        self.port = port
        self.group = group
        self.running = running
        self.box = box
    }

    /// Batches received so far.
    public var batches: Int { box.batches }

    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = await running.result
    }
}

/// The counter behind the route.
final class CountBox: @unchecked Sendable {
    // `count` and `bytes` are only touched while `lock` is held.
    private let lock = NSLock()
    private var count = 0
    private var bytes = 0

    func add(_ size: Int) {
        lock.withLock {
            count += 1
            bytes += size
        }
    }

    var batches: Int { lock.withLock { count } }
}
