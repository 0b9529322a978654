import Foundation
import Tally

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The events a collector (`tally collect`, or `Collector` from TallyCollector) stored for one session,
/// with the same expectations as ``AnalyticsSpy``, and waits that the collector answers the moment a
/// matching event is stored.
///
/// Point the app, or any Segment-compatible client, at the collector and tag its events with the reader's
/// ``session``: the `Tally-Session` header, or `context.tally_session` in each event (the names are
/// `CollectorProtocol`'s). Parallel tests use
/// different sessions and never see each other's events.
///
/// ```swift
/// let events = CollectorReader(url: URL(string: "http://127.0.0.1:8787")!)
/// app.launchEnvironment[CollectorProtocol.collectorVariable] = events.url.absoluteString  // TALLY_COLLECTOR
/// app.launchEnvironment[CollectorProtocol.sessionVariable] = events.session  // TALLY_SESSION
/// app.launch()
/// app.buttons["Log in"].tap()
/// await events.waitForEvent(.named("login_tapped"))
/// events.expectTracked(.named("login_tapped", containing: ["action": "tap"]))
/// events.expectNothingElse()
/// ```
///
/// No thread ever blocks on the network. Reading is asynchronous: `try await events.refresh()` reads what
/// the collector stored since the last read; ``waitForEvent(_:timeout:clock:fileID:filePath:line:column:)``
/// and ``waitForCount(_:of:timeout:clock:fileID:filePath:line:column:)`` hold a long-poll open on the
/// collector (`GET /tally/events/wait`), which the collector answers when the insert that brings new
/// events commits: neither side polls. The synchronous expectations (`expectTracked`,
/// `expectNothingElse`, ...) check what has been read; await a wait or `refresh()` before them.
///
/// In exhaustive mode the check reads the collector once more when the test ends (the trait and the
/// async `withExhaustiveCheck`), or, when the test stops its own collector first, the collector lets the
/// reader take that last read as it stops.
///
/// The reader talks HTTP with URLSession only; it does not need TallyCollector or its packages.
public final class CollectorReader: EventRecorder, FinalReading {
    /// The collector, such as `http://127.0.0.1:8787`.
    public let url: URL
    /// The session whose events this reader sees.
    public let session: String
    /// Everything read so far.
    public let log = EventLog()
    /// Everything read so far as it arrived: with the vendor API it came through and its own message id.
    private let arrivalLog = Locked<[DeliveryComparison.Arrival]>([])
    /// The id of the last event read: the next read asks only for later ones.
    private let lastId = Locked<Int64>(0)
    /// What the last read met when it failed; nil once a read succeeds.
    private let lastError = Locked<CollectorReaderError?>(nil)
    /// Whether the reader took its last read as its collector stopped.
    private let readAtStop = Locked(false)
    /// One session for every reader: a reader may be released on URLSession's own queue, where invalidating
    /// a session of its own would deadlock.
    private static let transport: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        // No cache: nothing here is worth caching, and on Linux a cancel (a wait that ends cancels its
        // long-poll) that lands while the task is still looking in the cache races the task's removal from
        // the session's registry, which FoundationNetworking answers with a fatal error.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    /// The header that tags a request's events with a session: `CollectorProtocol.sessionHeader`.
    public static let sessionHeader = CollectorProtocol.sessionHeader
    /// The member of an event's `context` that tags it with a session (it wins over the header):
    /// `CollectorProtocol.sessionContextKey`.
    public static let sessionContextKey = CollectorProtocol.sessionContextKey

    /// Creates a reader. Nothing is read until the first wait or `await refresh()`.
    ///
    /// In exhaustive mode (``ExhaustiveTrait``, ``withExhaustiveCheck(_:isolation:fileID:filePath:line:column:operation:)``)
    /// the reader registers with the test's check, which reads the collector once more when the test ends:
    /// an event of the session that no expectation accounts for fails the test, reported at the line that
    /// created the reader. A collector the test runs in its own process (`Collector.start()`) lets the
    /// reader take that read as it stops, so the test may stop it at the end of its body. The synchronous
    /// `withExhaustiveCheck` cannot read: it checks what was read, and reports an issue when the reader
    /// could not take its last read (its collector is still running); use the trait or the async form.
    ///
    /// - Parameters:
    ///   - url: the collector.
    ///   - session: the session to read; by default a new unique one, for this test only.
    ///   - fileID: where exhaustive mode reports unaccounted events; the caller's by default.
    ///   - filePath: see `fileID`.
    ///   - line: see `fileID`.
    ///   - column: see `fileID`.
    public init(
        url: URL, session: String = "test-\(UUID().uuidString.lowercased())", fileID: StaticString = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        self.url = url
        self.session = session
        registerForExhaustiveCheck(
            as: "CollectorReader", fileID: fileID, filePath: filePath, line: line, column: column)
        if ExhaustiveCheck.current != nil {
            let port = url.port ?? (url.scheme == "https" ? 443 : 80)
            CollectorLastReads.register(self, port: port) { [weak self] in await self?.readBeforeTheCollectorStops() }
        }
    }

    deinit {
        CollectorLastReads.unregister(self)
    }

    /// The headers a client sends to tag its events with this reader's session.
    public var headers: [String: String] { [Self.sessionHeader: session] }

    /// The `context` members that tag an event with this reader's session, for clients that cannot set
    /// headers (most Segment libraries).
    public var context: [String: PropertyValue] { [Self.sessionContextKey: .string(session)] }

    /// Does not read the collector: a synchronous call would block a thread on the network. The
    /// synchronous expectations, which call it first, check what the reader has read so far, by
    /// `try await refresh()`, ``waitForEvent(_:timeout:clock:fileID:filePath:line:column:)``,
    /// ``waitForCount(_:of:timeout:clock:fileID:filePath:line:column:)`` or the collector's last read before
    /// it stops (in exhaustive mode).
    ///
    /// - Throws: the ``CollectorReaderError`` the last read met, when it failed and no read has succeeded
    ///   since: an expectation then reports why it has nothing new to check.
    public func refresh() throws {
        if let error = lastError.current { throw error }
    }

    /// Reads the events stored since the last read, without blocking a thread.
    ///
    /// - Throws: ``CollectorReaderError`` when the collector cannot be reached or answers with an error;
    ///   what was read before is kept.
    public func refresh() async throws {
        do {
            while true {
                let body = try await fetch(
                    request("tally/events", ["after": String(lastId.current), "limit": "10000"]))
                let page = try Self.events(in: body)
                append(page.events)
                if !page.more { break }
            }
            lastError.withLock { $0 = nil }
        } catch let error as CollectorReaderError {
            lastError.withLock { $0 = error }
            throw error
        }
    }

    /// The last read of exhaustive mode: ``refresh()`` unless the reader already read everything the
    /// collector held as it stopped (`Collector.stop()` in the same process), when there is nothing left
    /// to read, and no collector to read it from.
    func finalRead() async throws {
        if readAtStop.current { return }
        try await refresh()
    }

    /// Whether the reader took its last read as its collector stopped.
    var tookLastRead: Bool { readAtStop.current }

    /// Registered with `CollectorLastReads` in exhaustive mode: read while the stopping collector still
    /// answers.
    private func readBeforeTheCollectorStops() async {
        if (try? await refresh()) != nil { readAtStop.withLock { $0 = true } }
    }

    /// Deletes this session's events from the collector and forgets what was read, so a test can start
    /// over.
    ///
    /// - Throws: ``CollectorReaderError`` when the collector cannot be reached or refuses.
    public func deleteEvents() async throws {
        var request = request("tally/events", [:])
        request.httpMethod = "DELETE"
        _ = try await fetch(request)
        log.clear()
        arrivalLog.withLock { $0 = [] }
    }

    // MARK: Waiting without polling

    /// Holds long-polls open until cancelled, appending what each brings: `GET /tally/events/wait` for
    /// one event of the session after the last one read, which the collector answers when one is
    /// committed (or after `timeout`, 408, and the next long-poll starts).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    func follow(timeout: Duration) async {
        // In Int64 until clamped: `Int` has 32 bits on watch hardware.
        let requested = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        let milliseconds = Int(max(1, min(600_000, requested)))
        while !Task.isCancelled {
            var request = request(
                "tally/events/wait", ["after": String(lastId.current), "count": "1", "timeout": String(milliseconds)])
            request.timeoutInterval = TimeInterval(milliseconds) / 1000 + 30
            do {
                let body = try await fetch(request, accepting: [200, 408])
                append(try Self.events(in: body).events)
                lastError.withLock { $0 = nil }
            } catch {
                // A collector that cannot be reached ends the following; the wait then times out and
                // reports why (the synchronous `refresh()` throws what the last read met).
                if !Task.isCancelled, let error = error as? CollectorReaderError {
                    lastError.withLock { $0 = error }
                }
                return
            }
        }
    }

    /// Appends events past the last id read, so a read and a long-poll that overlap add nothing twice.
    private func append(_ events: [Read]) {
        lastId.withLock { lastId in
            let fresh = events.filter { $0.id > lastId }
            guard let last = fresh.last else { return }
            lastId = last.id
            log.append(contentsOf: fresh.lazy.map { ($0.envelope, $0.stage) })
            arrivalLog.withLock { $0 += fresh.map(\.arrival) }
        }
    }

    /// Everything read so far, as it arrived: each event with the API it was sent to (`vendor`: `segment`,
    /// `posthog`, `amplitude`, `mixpanel` or `tally`) and the message id the client sent, for
    /// ``expectDelivered(_:to:source:fileID:filePath:line:column:)``.
    public var arrivals: [DeliveryComparison.Arrival] { arrivalLog.current }

    // MARK: HTTP

    private func request(_ path: String, _ parameters: [String: String]) -> URLRequest {
        var components = URLComponents(url: url.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        components.queryItems =
            [URLQueryItem(name: "session", value: session)]
            + parameters.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        return URLRequest(url: components.url!)
    }

    private func send(
        _ request: URLRequest, accepting statuses: Set<Int> = [200],
        _ completion: @escaping @Sendable (Result<Data, CollectorReaderError>) -> Void
    ) -> URLSessionDataTask {
        let collector = url.absoluteString
        let task = Self.transport.dataTask(with: request) { data, response, error in
            if let error {
                completion(
                    .failure(
                        CollectorReaderError(
                            "Cannot reach the collector at \(collector): \(error.localizedDescription)")))
                return
            }
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            let body = data ?? Data()
            guard statuses.contains(status) else {
                completion(
                    .failure(
                        CollectorReaderError(
                            "The collector answered \(status) to \(request.httpMethod ?? "GET") \(request.url?.path ?? ""): \(String(decoding: body.prefix(500), as: UTF8.self))"
                        )))
                return
            }
            completion(.success(body))
        }
        task.resume()
        return task
    }

    private func fetch(_ request: URLRequest, accepting statuses: Set<Int> = [200]) async throws -> Data {
        let task = Locked<URLSessionDataTask?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, any Error>) in
                let started = send(request, accepting: statuses) { continuation.resume(with: $0) }
                let cancelled = task.withLock { task -> Bool in
                    task = started
                    return Task.isCancelled
                }
                if cancelled { started.cancel() }
            }
        } onCancel: {
            task.withLock { $0?.cancel() }
        }
    }
}

/// The collector could not be reached, or answered with an error.
public struct CollectorReaderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    init(_ description: String) { self.description = description }
}
