import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Tally
@_spi(Benchmarks) import TallyCollector

/// The naive reference for ingest: a Hummingbird route that reads each batch's body and counts it,
/// without parsing, validating or storing anything. What a collector costs beyond this is its own work.
///
/// Started `parsing`, it is the floor of ``IngestFormat``'s formats instead: a route at each format's path
/// that reads the body as that vendor's SDK wrote it (the form and its percent escapes, base64, then the JSON,
/// into values with Tally's reader) and counts the events, answering 400 when the count is not a batch's;
/// nothing is checked field by field, and nothing is stored.
@available(macOS 15, *)
public final class CountingServer: Sendable {
    public let port: Int
    private let group: ServiceGroup
    private let running: Task<Void, any Error>
    private let box: CountBox

    /// Starts listening on 127.0.0.1, on a free port.
    public static func start(parsing: Bool = false) async throws -> CountingServer {
        let box = CountBox()
        let router = Router()
        if parsing {
            // Mixpanel's two formats share /track: the body tells them apart.
            for path in Set(IngestFormat.allCases.map(\.path)) {
                router.post(RouterPath(path)) { request, _ -> Response in
                    let body = try await request.body.collect(upTo: 1 << 24)
                    let format = IngestFormat.allCases.first { $0.path == path }!
                    let count = IngestFormat.countEvents(Array(body.readableBytesView), sentTo: format)
                    guard count == format.eventsPerBatch else {
                        return Response(status: .badRequest, body: ResponseBody(byteBuffer: ByteBuffer(string: "{}")))
                    }
                    box.add(body.readableBytes)
                    return Response(
                        status: .ok, headers: [.contentType: "application/json"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"success":true}"#)))
                }
            }
        } else {
            router.post("/v1/batch") { request, _ -> Response in
                let body = try await request.body.collect(upTo: 1 << 20)
                box.add(body.readableBytes)
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"success":true}"#)))
            }
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

extension IngestFormat {
    /// How many events `body`, posted to `format`'s path, holds: the naive floor's whole work. Nil when it
    /// does not read.
    static func countEvents(_ body: [UInt8], sentTo format: IngestFormat) -> Int? {
        var json = body
        if format.isMixpanel {
            guard let data = formField("data", in: body) else { return nil }
            if data.first == UInt8(ascii: "[") || data.first == UInt8(ascii: "{") {
                json = data
            } else {
                var text = data.map {
                    $0 == UInt8(ascii: "-") ? UInt8(ascii: "+") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0
                }
                text += Array(repeating: UInt8(ascii: "="), count: (4 - text.count % 4) % 4)
                guard let decoded = Data(base64Encoded: Data(text)) else { return nil }
                json = Array(decoded)
            }
        }
        guard let value = try? PropertyValue(jsonBytes: json) else { return nil }
        switch value {
        case .array(let events): return events.count
        case .object(let members):
            if case .array(let events)? = members["batch"] ?? members["events"] { return events.count }
            return nil
        default: return nil
        }
    }

    /// The percent-decoded value of `name` in a form-encoded body.
    private static func formField(_ name: String, in body: [UInt8]) -> [UInt8]? {
        for pair in body.split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].elementsEqual(name.utf8) else { continue }
            var output: [UInt8] = []
            output.reserveCapacity(parts[1].count)
            var index = parts[1].startIndex
            while index < parts[1].endIndex {
                let byte = parts[1][index]
                if byte == UInt8(ascii: "%"), index + 2 < parts[1].endIndex,
                    let high = hex(parts[1][index + 1]), let low = hex(parts[1][index + 2])
                {
                    output.append(high << 4 | low)
                    index += 3
                } else {
                    output.append(byte == UInt8(ascii: "+") ? 0x20 : byte)
                    index += 1
                }
            }
            return output
        }
        return nil
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
