#if Collector
import HTTPTypes
import Hummingbird
import NIOCore
import Tally

@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
extension CollectorRoutes {
    /// `GET /tally/stream?backlog=N&…filters`: server-sent events, for the live page and for tools.
    ///
    /// The stream starts with the last `backlog` stored events the filters select (none by default), or,
    /// when the browser reconnects with a `Last-Event-ID` header, with every event after that id; then
    /// every event as it is committed. Each event's SSE id is its stored id and its data the event's JSON.
    /// `event: skipped` says how many messages a slow viewer lost, `event: deleted` that events were
    /// deleted (`{"session": "…"}`, or `{"session": null}` for any other deletion), and a comment line
    /// goes out every heartbeat.
    func stream(_ request: Request) async throws -> Response {
        let parameters = Self.parameters(request)
        let filter = try EventFilter(parameters: parameters)
        let backlog = try Self.integer(parameters, "backlog", default: 0, in: 0...Self.maximumLimit)
        let lastSeen = request.headers[Self.lastEventID].flatMap { Int64($0) }
        guard let (token, messages) = feed.subscribe(filter) else { throw APIError.stopping }
        let earlier: (events: [StoredEvent], lastId: Int64)
        do {
            if let lastSeen {
                var after = filter
                after.after = max(filter.after ?? 0, lastSeen)
                let (_, lastId) = try await store.count(EventFilter())
                earlier = (try await store.events(after, limit: Self.maximumLimit), lastId)
            } else {
                earlier = try await store.latest(filter, limit: backlog)
            }
        } catch {
            feed.remove(token)
            throw APIError(.serviceUnavailable, "storage_failed", "The collector could not read its database: \(error)")
        }
        let feed = self.feed
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        let body = ResponseBody { writer in
            defer { feed.remove(token) }
            try await writer.write(ByteBuffer(string: "retry: 1000\n: connected\n\n"))
            for event in earlier.events { try await writer.write(Self.sse(id: event.id, json: event.json)) }
            for await message in messages {
                let skipped = feed.takeSkipped(token)
                if skipped > 0 {
                    try await writer.write(ByteBuffer(string: "event: skipped\ndata: {\"skipped\":\(skipped)}\n\n"))
                }
                switch message {
                case .event(let id, let json, _):
                    if id > earlier.lastId { try await writer.write(Self.sse(id: id, json: json)) }
                case .deleted(let session):
                    var data = JSONWriter()
                    data.writeRaw(#"{"session":"#)
                    if let session { data.writeString(session) } else { data.writeRaw("null") }
                    data.writeRaw("}")
                    try await writer.write(ByteBuffer(string: "event: deleted\ndata: \(data.string)\n\n"))
                case .refused(let json):
                    var buffer = ByteBuffer(string: "event: refused\ndata: ")
                    buffer.writeBytes(json)
                    buffer.writeString("\n\n")
                    try await writer.write(buffer)
                case .heartbeat:
                    try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                }
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// One event as a server-sent event: its id, then its JSON on one line.
    static func sse(id: Int64, json: [UInt8]) -> ByteBuffer {
        var buffer = ByteBuffer(string: "id: \(id)\ndata: ")
        buffer.writeBytes(json)
        buffer.writeString("\n\n")
        return buffer
    }
}
#endif
