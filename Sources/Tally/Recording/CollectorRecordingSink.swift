import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends every record to a Tally collector (`tally collect`) as it is written, so a test, a QA session or
/// the collector's live page sees what the app tracked, wherever the app runs.
///
/// ```swift
/// let sink = CollectorRecordingSink(url: URL(string: "http://127.0.0.1:8787")!, session: "checkout-test")
/// let analytics = AnalyticsClient(destinations: [RecordingDestination(sink: sink)])
/// ```
///
/// Each record is one `POST /tally/records` (JSON Lines), tagged with ``session`` in the `Tally-Session`
/// header; ``write(_:line:)`` returns once the collector has stored it, or throws. The client calls sinks on
/// its destination's own thread, never the caller's, so the app does not wait; a collector that is down
/// costs each record up to ``timeout`` and is counted as a failed delivery, never silently.
public final class CollectorRecordingSink: RecordingSink {
    /// The collector, such as `http://127.0.0.1:8787`.
    public let url: URL
    /// The session the records are tagged with; nil for none.
    public let session: String?
    /// How long one record may take to be acknowledged, in seconds.
    public let timeout: TimeInterval
    /// One session for every sink: a sink may be released on URLSession's own queue, where invalidating a
    /// session of its own would deadlock.
    private static let transport = URLSession(configuration: .ephemeral)

    /// Creates a sink sending to the collector at `url`.
    ///
    /// - Parameters:
    ///   - url: the collector's address.
    ///   - session: tags every record (the `Tally-Session` header), so a test reads only its own.
    ///   - timeout: how long one record may take, in seconds. Default 5.
    public init(url: URL, session: String? = nil, timeout: TimeInterval = 5) {
        self.url = url
        self.session = session
        self.timeout = timeout
    }

    /// Sends the record and waits until the collector has stored it.
    ///
    /// - Throws: ``RecordError`` when the collector cannot be reached, does not answer within ``timeout``,
    ///   or refuses the record (its JSON error is in the message).
    public func write(_ record: Record, line: [UInt8]) throws {
        var request = URLRequest(url: url.appendingPathComponent("tally/records"), timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.httpBody = Data(line)
        request.setValue("application/x-ndjson", forHTTPHeaderField: "Content-Type")
        if let session { request.setValue(session, forHTTPHeaderField: CollectorProtocol.sessionHeader) }
        let outcome = Outcome()
        let collector = url.absoluteString
        let task = Self.transport.dataTask(with: request) { data, response, error in
            if let error {
                outcome.finish("Cannot reach the collector at \(collector): \(error.localizedDescription)")
            } else if let status = (response as? HTTPURLResponse)?.statusCode, status != 200 {
                outcome.finish(
                    "The collector refused the record (\(status)): \(String(decoding: (data ?? Data()).prefix(300), as: UTF8.self))"
                )
            } else {
                outcome.finish(nil)
            }
        }
        task.resume()
        if let failure = outcome.wait() { throw RecordError(failure) }
    }

    /// One request's result, handed from URLSession's queue to the writing thread.
    private final class Outcome: @unchecked Sendable {
        // `failure` is written once before `done` is signalled and read after waiting on it.
        private var failure: String?
        private let done = DispatchSemaphore(value: 0)

        func finish(_ failure: String?) {
            self.failure = failure
            done.signal()
        }

        func wait() -> String? {
            done.wait()
            return failure
        }
    }
}

extension RecordingDestination {
    /// The environment variable naming the collector to send records to: `TALLY_COLLECTOR=http://127.0.0.1:8787`.
    public static let collectorVariable = CollectorProtocol.collectorVariable
    /// The environment variable naming the session records are tagged with: `TALLY_SESSION=login-test`.
    public static let sessionVariable = CollectorProtocol.sessionVariable

    /// A recording destination that sends to a collector.
    ///
    /// ```swift
    /// let analytics = AnalyticsClient(destinations: [.console, RecordingDestination.collector(url)])
    /// ```
    ///
    /// - Parameters:
    ///   - url: the collector's address.
    ///   - session: tags every record, so a test reads only its own.
    ///   - source: written into each record. Default the process name.
    ///   - filePath: with `line`, written into each record's `origin`; the caller's by default.
    ///   - line: see `filePath`.
    public static func collector(
        _ url: URL, session: String? = nil, source: String = ProcessInfo.processInfo.processName,
        filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecordingDestination {
        RecordingDestination(
            sink: CollectorRecordingSink(url: url, session: session), source: source, name: "collector",
            filePath: filePath, line: line)
    }

    /// A destination sending to the collector `TALLY_COLLECTOR` names, tagged with `TALLY_SESSION`, or nil
    /// when the variable is not set: a UI test launches the app with both, and the app adds the result to
    /// its destinations.
    ///
    /// ```swift
    /// if let collector = try RecordingDestination.collectorFromEnvironment() { destinations.append(collector) }
    /// ```
    ///
    /// - Throws: ``RecordError`` when `TALLY_COLLECTOR` is not an http or https URL, so a misconfigured run
    ///   fails loudly instead of sending nothing.
    public static func collectorFromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment,
        source: String = ProcessInfo.processInfo.processName, filePath: StaticString = #filePath, line: UInt = #line
    ) throws(RecordError) -> RecordingDestination? {
        guard let address = environment[collectorVariable], !address.isEmpty else { return nil }
        guard let url = URL(string: address), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw RecordError("\(collectorVariable) must be an http URL such as http://127.0.0.1:8787, not \(address)")
        }
        let session = environment[sessionVariable].flatMap { $0.isEmpty ? nil : $0 }
        return collector(url, session: session, source: source, filePath: filePath, line: line)
    }
}
