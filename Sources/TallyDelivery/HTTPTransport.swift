#if Delivery
import Foundation
import Tally
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How an ``SegmentAPIDestination`` sends one request: URLSession by default, anything in tests.
///
/// The destination calls ``send`` on its sender thread, one request at a time, and waits for the answer.
/// Return the server's status and headers, or throw when no answer came (connection refused or reset, a
/// timeout): a thrown error is retried like a 5xx.
///
/// ```swift
/// // A test transport: the server is down.
/// let down = HTTPTransport { _ in throw URLError(.cannotConnectToHost) }
/// // One that accepts everything.
/// let accepting = HTTPTransport { _ in HTTPTransport.Response(statusCode: 200) }
/// ```
public struct HTTPTransport: Sendable {
    /// What the server answered: its status and headers (names as the server wrote them).
    public struct Response: Sendable, Hashable {
        /// The HTTP status code.
        public var statusCode: Int
        /// The response headers.
        public var headers: [String: String]

        /// Creates a response.
        public init(statusCode: Int, headers: [String: String] = [:]) {
            self.statusCode = statusCode
            self.headers = headers
        }

        /// The value of the header `name`, compared without case.
        public func header(_ name: String) -> String? {
            let lowered = name.lowercased()
            return headers.first { $0.key.lowercased() == lowered }?.value
        }
    }

    /// Sends `request` and returns the server's answer; blocks the calling thread until then.
    ///
    /// - Throws: when the server did not answer: refused or reset connection, timeout, no network.
    public var send: @Sendable (_ request: URLRequest) throws -> Response

    /// Creates a transport from a function that sends one request.
    public init(send: @escaping @Sendable (_ request: URLRequest) throws -> Response) {
        self.send = send
    }

    /// Sends through `session` (FoundationNetworking's URLSession on Linux). The request's
    /// `timeoutInterval` bounds each attempt: past it the task is cancelled and `URLError(.timedOut)` thrown.
    ///
    /// - Parameter session: the session to use; default: an ephemeral session of its own that keeps no
    ///   cookies or cache.
    public static func urlSession(_ session: URLSession? = nil) -> HTTPTransport {
        let session = session ?? URLSession(configuration: .ephemeral)
        return HTTPTransport { request in
            let result = Locked<Result<Response, any Error>?>(nil)
            let done = DispatchSemaphore(value: 0)
            let task = session.dataTask(with: request) { _, response, error in
                let outcome: Result<Response, any Error>
                if let http = response as? HTTPURLResponse {
                    var headers: [String: String] = [:]
                    for (key, value) in http.allHeaderFields {
                        headers[String(describing: key)] = String(describing: value)
                    }
                    outcome = .success(Response(statusCode: http.statusCode, headers: headers))
                } else {
                    outcome = .failure(error ?? URLError(.badServerResponse))
                }
                result.withLock { $0 = outcome }
                done.signal()
            }
            task.resume()
            // The request's own timeout, enforced here too: FoundationNetworking lets a server that accepted
            // the connection and never answers hold a task well past `timeoutInterval`.
            if done.wait(timeout: dispatchTime(after: request.timeoutInterval)) == .timedOut {
                task.cancel()
                throw URLError(.timedOut)
            }
            return try result.withLock { $0! }.get()
        }
    }
}
#endif
