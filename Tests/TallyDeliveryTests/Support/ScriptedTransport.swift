#if Delivery
import Foundation
import Tally
import TallyDelivery

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that answers from a script and keeps every request, decoded.
///
/// Each request takes the next answer of the script (200 once it is empty). Tests wait for the n-th
/// request with ``requests(count:)``; an answer ``Answer/hold`` blocks the sender until ``release()``.
final class ScriptedTransport: Sendable {
    enum Answer: Sendable {
        case status(Int, headers: [String: String] = [:])
        case noAnswer
        case hold
        /// Answers 400 to any batch holding the event whose `n` property is this value, 200 otherwise.
        case refuseEventNumbered(Int)
        /// Answers 413 to batches of more than this many events, 200 otherwise.
        case tooLargeAbove(Int)
    }

    /// One request as the server saw it.
    struct Sent: Sendable {
        var headers: [String: String]
        var gzipped: Bool
        var body: PropertyValue
        var messages: [PropertyValue] { body["batch"]?.arrayValue ?? [] }
        /// The `n` property of each message.
        var numbers: [Int] { messages.compactMap { $0["properties"]?["n"]?.intValue } }
        var messageIds: [String] { messages.compactMap { $0["messageId"]?.stringValue } }
    }

    private struct State {
        var script: [Answer] = []
        var standing: Answer?
        var sent: [Sent] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<[Sent], Never>)] = []
    }

    private let state = Locked(State())
    private let gate = DispatchSemaphore(value: 0)

    init(_ script: [Answer] = [], standing: Answer? = nil) {
        state.withLock {
            $0.script = script
            $0.standing = standing
        }
    }

    var sent: [Sent] { state.withLock { $0.sent } }

    func enqueue(_ answers: Answer...) { state.withLock { $0.script.append(contentsOf: answers) } }

    /// Lets a held request answer 200.
    func release() { gate.signal() }

    /// Waits until at least `count` requests were made, and returns them all.
    func requests(count: Int) async -> [Sent] {
        await withCheckedContinuation { continuation in
            let ready: [Sent]? = state.withLock { state in
                if state.sent.count >= count { return state.sent }
                state.waiters.append((count, continuation))
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    var transport: HTTPTransport {
        HTTPTransport { [self] request in try answer(request) }
    }

    private func answer(_ request: URLRequest) throws -> HTTPTransport.Response {
        var headers: [String: String] = [:]
        for (name, value) in request.allHTTPHeaderFields ?? [:] { headers[name.lowercased()] = value }
        let gzipped = headers["content-encoding"] == "gzip"
        let raw = request.httpBody ?? Data()
        let json = gzipped ? (Gzip.decompress(raw) ?? Data()) : raw
        let sent = Sent(headers: headers, gzipped: gzipped, body: (try? PropertyValue(jsonBytes: json)) ?? .null)
        let (answer, ready): (Answer, [CheckedContinuation<[Sent], Never>]) = state.withLock { state in
            state.sent.append(sent)
            let answer = state.script.isEmpty ? (state.standing ?? .status(200)) : state.script.removeFirst()
            var ready: [CheckedContinuation<[Sent], Never>] = []
            let all = state.sent
            state.waiters.removeAll { waiter in
                guard all.count >= waiter.count else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return (answer, ready)
        }
        let all = self.sent
        ready.forEach { $0.resume(returning: all) }
        switch answer {
        case .status(let code, let headers): return HTTPTransport.Response(statusCode: code, headers: headers)
        case .noAnswer: throw URLError(.networkConnectionLost)
        case .hold:
            gate.wait()
            return HTTPTransport.Response(statusCode: 200)
        case .refuseEventNumbered(let number):
            return HTTPTransport.Response(statusCode: sent.numbers.contains(number) ? 400 : 200)
        case .tooLargeAbove(let limit):
            return HTTPTransport.Response(statusCode: sent.messages.count > limit ? 413 : 200)
        }
    }
}

extension PropertyValue {
    subscript(key: String) -> PropertyValue? { objectValue?[key] }
}
#endif
