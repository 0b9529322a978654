#if Collector
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Tally
import TallyPlan

@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
extension CollectorRoutes {
    /// Most events one read returns; `limit` may ask for fewer.
    static let maximumLimit = 10_000
    /// The longest a long-poll may wait: 10 minutes.
    static let maximumTimeout = 600_000

    /// `GET /tally/events?name=&kind=&type=&session=&since=&after=&limit=`: the stored events in arrival
    /// order, at most `limit` (default 1,000); `more` says whether others follow the last one (read them
    /// with `after=` its id).
    func events(_ request: Request) async throws -> Response {
        let parameters = Self.parameters(request)
        let filter = try EventFilter(parameters: parameters)
        let limit = try Self.integer(parameters, "limit", default: 1000, in: 1...Self.maximumLimit)
        let events = try await read { try await store.events(filter, limit: limit + 1) }
        return .json(Self.eventsJSON(events.prefix(limit), extra: #","more":\#(events.count > limit)"#))
    }

    /// How many events `GET /tally/records` reads from the database at a time.
    static let recordsPageSize = 1000

    /// `GET /tally/records?name=&kind=&type=&session=&since=&after=`: every stored event the filters select,
    /// in arrival order, as Tally records, one per line (``StoredEvent/record``): a session saved with
    /// `curl` is a recording that `tally validate` and `tally coverage` read.
    ///
    /// The answer is streamed, a page of ``recordsPageSize`` events at a time, so memory stays flat however
    /// large the session. The first page is read before answering, so a database that cannot be read is a
    /// 503; one that fails on a later page ends the connection before the end of the answer, which clients
    /// report (curl exits 18), never a shorter answer that looks complete.
    func records(_ request: Request) async throws -> Response {
        let filter = try EventFilter(parameters: Self.parameters(request))
        let pageSize = Self.recordsPageSize
        let store = self.store
        let first = try await read { try await store.events(filter, limit: pageSize) }
        var headers = HTTPFields()
        headers[.contentType] = "application/x-ndjson"
        let body = ResponseBody { writer in
            var page = first
            while true {
                var buffer = ByteBuffer()
                for event in page { buffer.writeBytes(event.record.line) }
                if buffer.readableBytes > 0 { try await writer.write(buffer) }
                guard page.count == pageSize, let last = page.last else { break }
                var next = filter
                next.after = last.id
                page = try await store.events(next, limit: pageSize)
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// `GET /tally/events/wait?count=N&timeout=MS&…filters`: answers as soon as `count` (default 1) stored
    /// events match the filters, with the matching events; after `timeout` milliseconds (default 10,000)
    /// answers 408 with what matched so far.
    func wait(_ request: Request) async throws -> Response {
        let parameters = Self.parameters(request)
        let filter = try EventFilter(parameters: parameters)
        let count = try Self.integer(parameters, "count", default: 1, in: 1...Self.maximumLimit)
        let timeout = try Self.integer(parameters, "timeout", default: 10_000, in: 0...Self.maximumTimeout)
        if stopping.current { throw APIError.stopping }
        let satisfied = await waits.wait(for: filter, count: count, timeout: .milliseconds(timeout))
        let events = try await read { try await store.events(filter, limit: Self.maximumLimit) }
        if satisfied || events.count >= count { return .json(Self.eventsJSON(events[...], extra: "")) }
        if stopping.current { throw APIError.stopping }
        var message = JSONWriter()
        message.writeString("\(events.count) of \(count) matching events after \(timeout) ms")
        return .json(
            Self.eventsJSON(events[...], extra: #","timed_out":true,"code":"timeout","message":"# + message.string),
            status: .requestTimeout)
    }

    /// `DELETE /tally/events?session=…`: deletes the events the filters select (all without filters).
    func delete(_ request: Request) async throws -> Response {
        let filter = try EventFilter(parameters: Self.parameters(request))
        let deleted = try await read { try await store.delete(filter) }
        // The page drops a session's rows; after any other deletion it reloads.
        feed.deleted(session: filter == EventFilter(session: filter.session) ? filter.session : nil)
        await waits.deleted()
        return .json(Array(#"{"deleted":\#(deleted)}"#.utf8))
    }

    /// `GET /tally/coverage?session=…`: how the stored events cover the plan; 404 without a plan.
    func coverage(_ request: Request) async throws -> Response {
        guard let plan else {
            throw APIError(.notFound, "no_plan", "No tracking plan is loaded; start the collector with --plan FILE")
        }
        let filter = try EventFilter(parameters: Self.parameters(request))
        let coverage = try await read { try await store.coverage(of: plan, filter) }
        return .json(Array(CoverageReport(coverage).json))
    }

    /// `GET /tally/status`: how many events are stored, whether a plan is loaded, who is waiting or
    /// watching, and how many write requests were refused (with the last one).
    func status() async throws -> Response {
        let stored = try await read { try await store.count(EventFilter()) }
        var writer = JSONWriter()
        writer.writeRaw(#"{"events":\#(stored.count),"last_id":\#(stored.lastId),"plan":"#)
        if let plan {
            writer.writeRaw(#"{"events":\#(plan.events.count)}"#)
        } else {
            writer.writeRaw("null")
        }
        writer.writeRaw(#","waiting":\#(waits.count),"viewers":\#(feed.viewerCount),"refused":"#)
        let refused = refusals.snapshot
        RefusedRequests.json(count: refused.count, last: refused.last, into: &writer)
        writer.writeRaw("}")
        return .json(writer.bytes)
    }

    /// A read of the store; its failure is the collector's (503), not the client's.
    func read<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(.serviceUnavailable, "storage_failed", "The collector could not read its database: \(error)")
        }
    }

    /// `{"events":[…]…}`, with `extra` members appended.
    static func eventsJSON(_ events: ArraySlice<StoredEvent>, extra: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.writeRaw(#"{"events":["#)
        for (index, event) in events.enumerated() {
            if index > 0 { writer.writeRaw(",") }
            event.writeJSON(into: &writer)
        }
        writer.writeRaw("]")
        writer.writeRaw(extra)
        writer.writeRaw("}")
        return writer.bytes
    }

    /// The query parameters, percent-decoded; when one repeats, the last wins.
    static func parameters(_ request: Request) -> [String: String] {
        var parameters: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { parameters[String(key)] = String(value) }
        return parameters
    }

    /// A whole-number parameter within `range`.
    static func integer(_ parameters: [String: String], _ name: String, default value: Int, in range: ClosedRange<Int>)
        throws(APIError) -> Int
    {
        guard let text = parameters[name] else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw .badParameter(
                name, "must be a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
        }
        return number
    }
}
#endif
