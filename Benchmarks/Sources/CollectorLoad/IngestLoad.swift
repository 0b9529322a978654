import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Posts Segment batches to a server on loopback from several connections at once, each on its own thread,
/// and returns when every batch is acknowledged.
///
/// Batch numbers never repeat within a process, so every event a run posts is new to the collector.
public final class IngestLoad: @unchecked Sendable {
    // `clients` and `batches` are set up once and each index is used by one thread at a time.
    private let connections: Int
    private let clients: [LoopbackClient]
    private var batches: [SegmentBatches]
    private let next = NSLock()
    private var nextNumber = 0
    private var clientNanoseconds: Int64 = 0

    /// The CPU time the posting threads have used so far (user and system), in seconds: what a run's CPU
    /// figure leaves out to be the server's own. The kernel's loopback work for a request is charged to the
    /// thread that sends it (the client's `send`, the server's answer), so each side carries its own writes.
    public var clientCPUSeconds: Double { next.withLock { Double(clientNanoseconds) * 1e-9 } }

    /// Opens `connections` keep-alive connections to 127.0.0.1:`port`.
    public init(port: Int, connections: Int = 4, path: String = "/v1/batch") {
        self.connections = connections
        clients = (0..<connections).map { _ in LoopbackClient(port: port) }
        batches = (0..<connections).map { _ in SegmentBatches(path: path) }
    }

    /// Opens `connections` keep-alive connections to 127.0.0.1:`port`, to post batches in `format`.
    public init(port: Int, connections: Int = 4, format: IngestFormat) {
        self.connections = connections
        clients = (0..<connections).map { _ in LoopbackClient(port: port) }
        batches = (0..<connections).map { _ in SegmentBatches(format: format) }
    }

    /// Posts `count` batches spread over the connections, without blocking the caller's thread: the
    /// benchmark harness already blocks one of the two threads of Swift's pool while a benchmark runs, and
    /// a server whose handlers run on that pool (the counting reference) would get none if this blocked
    /// the other one (last session's stall at 0 % CPU).
    ///
    /// - Returns: how many were answered with something other than 200 (0 when all went in).
    @discardableResult
    public func post(batches count: Int) async -> Int {
        await withCheckedContinuation { continuation in
            let thread = Thread { [self] in continuation.resume(returning: postBlocking(batches: count)) }
            thread.start()
        }
    }

    /// Posts `count` batches spread over the connections, blocking the calling thread until all are
    /// answered; for a thread of one's own (never one of Swift's concurrency pool).
    ///
    /// - Returns: how many were answered with something other than 200 (0 when all went in).
    @discardableResult
    public func postBlocking(batches count: Int) -> Int {
        let first = next.withLock {
            defer { nextNumber += count }
            return nextNumber
        }
        let failures = Failures()
        let group = DispatchGroup()
        for connection in 0..<connections {
            group.enter()
            let thread = Thread { [self] in
                let start = threadCPUNanoseconds()
                var number = first + connection
                var local = 0
                while number < first + count {
                    let request = batches[connection].request(number)
                    if clients[connection].send(request).status != 200 { local += 1 }
                    number += connections
                }
                failures.add(local)
                let used = threadCPUNanoseconds() - start
                next.withLock { clientNanoseconds += used }
                group.leave()
            }
            thread.start()
        }
        group.wait()
        return failures.count
    }
}

/// The CPU time the calling thread has used so far, in nanoseconds.
private func threadCPUNanoseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

/// A count added to from several threads.
private final class Failures: @unchecked Sendable {
    // `total` is only touched while `lock` is held.
    private let lock = NSLock()
    private var total = 0

    func add(_ count: Int) { lock.withLock { total += count } }
    var count: Int { lock.withLock { total } }
}
