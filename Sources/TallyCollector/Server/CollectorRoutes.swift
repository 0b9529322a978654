#if Collector
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Tally
import TallyPlan

/// The collector's HTTP API: what each route does with a request. ``router()`` puts them together.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
struct CollectorRoutes: Sendable {
    let store: EventStore
    let waits: WaitList
    let feed: LiveFeed
    let plan: TrackingPlan?
    let validator: PlanValidator?
    /// Set when the collector starts stopping: writes and new waits are refused with 503.
    let stopping: Locked<Bool>
    /// Where the collector's tasks run.
    let tasks: CollectorTasks
    /// The write requests refused so far.
    let refusals = RefusedRequests()

    /// The header a test tags the events of a request with.
    static let sessionHeader = HTTPField.Name(CollectorProtocol.sessionHeader)!
    /// The header a browser's `EventSource` reconnects with.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!

    /// Every route, with JSON errors and CORS for browsers on other origins.
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: JSONErrorMiddleware(refusals: refusals, feed: feed))
        router.add(
            middleware: CORSMiddleware(
                allowOrigin: .all,
                allowHeaders: [.accept, .authorization, .contentType, .contentEncoding, Self.sessionHeader],
                allowMethods: [.get, .post, .delete, .options]))
        // Segment's paths, and the short ones its newer libraries use (analytics-swift posts to /v1/b,
        // analytics.js to /v1/t, /v1/p…).
        for path in ["/v1/batch", "/v1/import", "/v1/b"] {
            router.post(RouterPath(path)) { request, _ in try await self.ingestSegment(request, type: nil) }
        }
        for type in MessageType.allCases {
            for path in ["/v1/\(type.rawValue)", "/v1/\(type.shortPath)"] {
                router.post(RouterPath(path)) { request, _ in try await self.ingestSegment(request, type: type) }
            }
        }
        addVendorRoutes(to: router)
        router.post("/tally/records") { request, _ in try await self.ingestRecords(request) }
        router.get("/tally/records") { request, _ in try await self.records(request) }
        router.get("/tally/events") { request, _ in try await self.events(request) }
        router.get("/tally/events/wait") { request, _ in try await self.wait(request) }
        router.delete("/tally/events") { request, _ in try await self.delete(request) }
        router.get("/tally/coverage") { request, _ in try await self.coverage(request) }
        router.get("/tally/status") { _, _ in try await self.status() }
        router.get("/tally/stream") { request, _ in try await self.stream(request) }
        router.get("/") { _, _ in LivePage.response }
        return router
    }

    // MARK: Writing

    /// `POST /v1/batch`, `/v1/import`, `/v1/track`…: Segment's tracking API.
    func ingestSegment(_ request: Request, type: MessageType?) async throws -> Response {
        let limit = type == nil ? IngestBody.maximumBatchBytes : IngestBody.maximumMessageBytes
        let bytes = try await body(of: request, limit: limit)
        let events = try IngestBody.segmentEvents(
            bytes, type: type, context: context(of: request), wantsEvents: validator != nil)
        try await keep(events)
        return .json(Array(#"{"success":true}"#.utf8))
    }

    /// `POST /tally/records`: Tally records, JSON Lines.
    func ingestRecords(_ request: Request) async throws -> Response {
        let bytes = try await body(of: request, limit: IngestBody.maximumBatchBytes)
        let events = try RecordLines.events(bytes, context: context(of: request))
        try await keep(events)
        return .json(Array(#"{"success":true}"#.utf8))
    }

    /// Validates `events` against the plan, if any, and stores them; returns once they are committed.
    ///
    /// Each event is judged as `tally validate` judges the record: at its stage (a spy's tracked event after
    /// the plan's personal-data rules), with the consent it was delivered with (none for vendor formats).
    /// An event whose purpose was never said (a vendor format names none) takes its planned event's purpose,
    /// stored with it, so that no gate, here or reading the session later, reports it for a purpose it was
    /// never given; an unplanned one keeps none.
    func keep(_ events: [(stored: StoredEvent, event: Event?)]) async throws {
        if stopping.current { throw APIError.stopping }
        let stored = events.map { pair in
            var stored = pair.stored
            if let validator, var event = pair.event {
                if stored.purpose == nil, let planned = validator.plannedEvent(for: event) {
                    stored.purpose = planned.purpose
                    event.purpose = planned.purpose
                }
                stored.violations = StoredEvent.violationsJSON(
                    validator.validate(event, recordedAt: stored.stage, consent: stored.consent))
            }
            return stored
        }
        do {
            _ = try await store.insert(stored)
        } catch {
            throw APIError.storage(error)
        }
    }

    /// The body, decompressed, within `limit` bytes (compressed and decompressed).
    func body(of request: Request, limit: Int) async throws -> [UInt8] {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw IngestBody.tooLargeBody(limit: limit)
        }
        return try IngestBody.decode(buffer, contentEncoding: request.headers[.contentEncoding], limit: limit)
    }

    func context(of request: Request) -> IngestContext {
        IngestContext(
            receivedAt: Int64((Date().timeIntervalSince1970 * 1_000_000).rounded()),
            session: request.headers[Self.sessionHeader] ?? "",
            writeKey: request.headers[.authorization].flatMap(Self.basicUser))
    }

    /// The user name of a Basic authorization: Segment's write key. Nil for anything else.
    static func basicUser(_ authorization: String) -> String? {
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic", let data = Data(base64Encoded: String(parts[1]))
        else {
            return nil
        }
        let credentials = String(decoding: data, as: UTF8.self)
        return String(credentials.prefix { $0 != ":" })
    }
}

/// Answers every error as JSON: the collector's own ``APIError``s, and Hummingbird's (an unknown route, a
/// wrong method) with their status.
///
/// A refused write (any `POST`) is also logged at warning level with its reason, counted in
/// ``RefusedRequests`` and announced to the live page: the client that sent it has probably dropped its events.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
struct JSONErrorMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    let refusals: RefusedRequests
    let feed: LiveFeed

    func handle(
        _ request: Request, context: BasicRequestContext, next: (Request, BasicRequestContext) async throws -> Response
    ) async throws -> Response {
        let error: APIError
        do {
            return try await next(request, context)
        } catch let apiError as APIError {
            error = apiError
        } catch let httpError as HTTPError {
            let message =
                httpError.status == .notFound
                ? "No route for \(request.method) \(request.uri.path)" : httpError.body ?? httpError.status.reasonPhrase
            error = APIError(httpError.status, httpError.status == .notFound ? "not_found" : "http_error", message)
        }
        if request.method == .post { refused(request, error, logger: context.logger) }
        return error.response
    }

    private func refused(_ request: Request, _ error: APIError, logger: Logger) {
        let refused = RefusedRequests.Refusal(
            request: "\(request.method) \(request.uri.path)", status: error.status.code, code: error.code,
            message: error.message)
        let count = refusals.record(refused)
        logger.warning(
            "Refused \(refused.request) with \(refused.status) \(refused.code): \(refused.message)",
            metadata: ["tally.refused": "\(count)"])
        feed.refused(count: count, refused)
    }
}
#endif
