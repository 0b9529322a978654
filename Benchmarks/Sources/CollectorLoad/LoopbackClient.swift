#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 client on one keep-alive loopback connection, blocking, for load generation: it
/// sends prepared request bytes and reads the answer's status and body, nothing more. Far cheaper per
/// request than URLSession, so the client takes little of the two cores the server is measured on.
///
/// Not thread-safe: one connection per thread.
public final class LoopbackClient {
    private let socket: Int32
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var start = 0
    private var end = 0

    /// Connects to 127.0.0.1:`port`.
    public init(port: Int) {
        #if canImport(Glibc)
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var noDelay: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        precondition(connected == 0, "cannot connect to 127.0.0.1:\(port)")
    }

    deinit { close(socket) }

    /// The bytes of a request: `method path`, the headers, and `body` with its length.
    public static func request(
        _ method: String, _ path: String, body: [UInt8] = [], headers: [String: String] = [:]
    ) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// Sends `request` and reads the answer.
    ///
    /// - Returns: the status and the body.
    @discardableResult
    public func send(_ request: [UInt8]) -> (status: Int, body: [UInt8]) {
        request.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = Glibc_send(socket, bytes.baseAddress! + sent, bytes.count - sent)
                precondition(count > 0, "send failed")
                sent += count
            }
        }
        return readResponse()
    }

    private func readResponse() -> (status: Int, body: [UInt8]) {
        // Headers end at \r\n\r\n; then Content-Length bytes of body.
        var headerEnd: Int?
        while headerEnd == nil {
            if let found = find([13, 10, 13, 10]) { headerEnd = found } else { fill() }
        }
        let head = String(decoding: buffer[start..<headerEnd!], as: UTF8.self)
        let status = Int(head.split(separator: " ", maxSplits: 2)[1]) ?? 0
        var length = 0
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
            length = Int(line.split(separator: ":")[1].trimmingCharacters(in: " ")) ?? 0
        }
        start = headerEnd! + 4
        while end - start < length { fill() }
        let body = Array(buffer[start..<(start + length)])
        start += length
        return (status, body)
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard end - start >= pattern.count else { return nil }
        for index in start...(end - pattern.count) where buffer[index] == pattern[0] {
            if buffer[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
        }
        return nil
    }

    private func fill() {
        if start > 0 {
            buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
            end -= start
            start = 0
        }
        if end == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress! + end, $0.count - end, 0) }
        precondition(count > 0, "the server closed the connection")
        end += count
    }
}

private func Glibc_send(_ socket: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    send(socket, bytes, count, 0)
}

extension Substring {
    fileprivate func trimmingCharacters(in character: Character) -> Substring {
        var text = self
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return text
    }
}
