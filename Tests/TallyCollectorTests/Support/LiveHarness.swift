#if Collector
import Foundation
import Tally
@testable import TallyCollector
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs `body` with a collector listening on 127.0.0.1 on a free port, and stops it afterwards.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
func withLiveCollector(
    _ configuration: Collector.Configuration = Collector.Configuration(),
    _ body: (Collector) async throws -> Void
) async throws {
    let collector = try await Collector.start(configuration)
    do {
        try await body(collector)
    } catch {
        await collector.stop()
        throw error
    }
    await collector.stop()
}

/// Plain HTTP over loopback, as a client in another language would send it.
enum HTTP {
    struct Answer: Sendable {
        var status: Int
        var body: Data
        var json: PropertyValue { (try? PropertyValue(jsonBytes: body)) ?? .null }
    }

    static func send(
        _ method: String, _ url: URL, body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> Answer {
        var request = URLRequest(url: url, timeoutInterval: 30)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return Answer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }

    static func post(_ url: URL, _ json: String, headers: [String: String] = [:]) async throws -> Answer {
        try await send("POST", url, body: Data(json.utf8), headers: headers)
    }
}

/// A blocking loopback connection read line by line, for streamed answers (server-sent events). Reads
/// run on a thread of their own, off Swift's cooperative pool, and give up after 20 seconds.
final class LineStream: @unchecked Sendable {
    // `buffer` is only touched by `readLine`, which callers await one at a time.
    private let socket: Int32
    private var buffer: [UInt8] = []
    private let queue = DispatchQueue(label: "line-stream")

    init(port: Int, request: String) throws {
        socket = Glibc_socket()
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw CollectorReaderTestError("connect failed: \(errno)") }
        let bytes = Array(request.utf8)
        guard send(socket, bytes, bytes.count, 0) == bytes.count else { throw CollectorReaderTestError("send failed") }
    }

    deinit { close(socket) }

    /// The next line, without its line ending; nil when the connection closed or nothing came for 20 s.
    func readLine() async -> String? {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.readLineBlocking()) }
        }
    }

    /// Reads lines until one satisfies `predicate`; nil if the stream ends first.
    func readLine(where predicate: (String) -> Bool) async -> String? {
        while let line = await readLine() {
            if predicate(line) { return line }
        }
        return nil
    }

    private func readLineBlocking() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = recv(socket, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }
}

private func Glibc_socket() -> Int32 {
    #if canImport(Glibc)
    socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    socket(AF_INET, SOCK_STREAM, 0)
    #endif
}

struct CollectorReaderTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
#endif
