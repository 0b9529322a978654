#if Collector
import HTTPTypes
import Tally

/// What every message of one request shares: who sent it, when it arrived, and the session the request's
/// header names.
struct IngestContext: Sendable {
    /// When the request arrived, in microseconds since 1970.
    var receivedAt: Int64
    /// The `Tally-Session` header; empty when absent.
    var session: String
    /// The write key from Basic auth or the body; nil when absent.
    var writeKey: String?
    /// The batch's own `context`, which each message's context overrides member by member.
    var batchContext: [String: PropertyValue] = [:]
}

/// Reads one message of Segment's HTTP tracking API into the event the collector stores.
///
/// Segment's rules, as its API applies them: every message names a `userId` or an `anonymousId` (either may
/// be null when the other is set); a track names its `event`, a group its `groupId`, an alias its `userId`
/// and `previousId`. Traits are read from the top-level `traits`, else from `context.traits`. Anything of the
/// wrong JSON type is refused rather than guessed at.
enum SegmentMessage {
    /// The context member a test tags its events with; it wins over the `Tally-Session` header.
    static let sessionContextKey = "tally_session"

    /// Reads `message`.
    ///
    /// - Parameters:
    ///   - message: the message, a JSON value.
    ///   - type: the type the route implies (`/v1/track`), or nil to read the message's `type` (`/v1/batch`).
    ///   - index: the message's position in its batch, for error messages; nil for a single call.
    ///   - context: what the request's messages share.
    /// - Returns: the event to store (without its id) and the Tally event to validate.
    /// - Throws: ``APIError`` (400) naming the field that is missing or of the wrong type.
    static func read(
        _ message: PropertyValue, type routeType: MessageType?, index: Int?, context: IngestContext
    ) throws(APIError) -> (stored: StoredEvent, event: Event) {
        guard case .object(let fields) = message else {
            throw APIError(
                .badRequest, "wrong_type",
                (index.map { "batch[\($0)]" } ?? "The body") + " must be a JSON object, not \(message.typeName)")
        }
        let reader = FieldReader(fields: fields, index: index)
        let type: MessageType
        if let implied = routeType { type = implied } else { type = try reader.type() }
        let userId = try reader.string("userId")
        let anonymousId = try reader.string("anonymousId")
        if userId?.isEmpty ?? true, anonymousId?.isEmpty ?? true {
            throw .missingField("userId or anonymousId", index: index, " (one of them, not empty)")
        }
        var messageContext = context.batchContext
        for (key, value) in try reader.object("context") ?? [:] { messageContext[key] = value }

        var name = ""
        var properties: [String: PropertyValue] = [:]
        var groupId: String?
        var previousId: String?
        switch type {
        case .track:
            name = try reader.requiredString("event")
            properties = try reader.object("properties") ?? [:]
        case .screen, .page:
            name = try reader.string("name") ?? ""
            properties = try reader.object("properties") ?? [:]
        case .identify:
            properties = try reader.traits(context: messageContext)
        case .group:
            groupId = try reader.requiredString("groupId")
            properties = try reader.traits(context: messageContext)
        case .alias:
            guard let userId, !userId.isEmpty else { throw .missingField("userId", index: index, " for an alias") }
            previousId = try reader.requiredString("previousId")
        }
        let messageId = try reader.string("messageId")
        var timestamp = try reader.string("timestamp")
        if timestamp == nil { timestamp = try reader.string("originalTimestamp") }
        let session: String
        switch messageContext[sessionContextKey] {
        case .string(let tagged): session = tagged
        case nil, .null: session = context.session
        case let other?:
            throw .wrongType("context.\(sessionContextKey)", index: index, expected: "a string", actual: other)
        }
        let writeKey = try reader.string("writeKey") ?? context.writeKey

        let stored = StoredEvent(
            receivedAt: context.receivedAt, session: session, source: .segment, type: type, name: name,
            properties: properties.jsonString, userId: userId, anonymousId: anonymousId, groupId: groupId,
            previousId: previousId, messageId: messageId.flatMap { $0.isEmpty ? nil : $0 }, timestamp: timestamp,
            context: messageContext.jsonString, writeKey: writeKey)
        let event = Event(
            kind: type.kind, name: name, properties: properties,
            userId: type == .identify || type == .alias ? userId : nil, groupId: groupId)
        return (stored, event)
    }
}

/// Typed reads of a message's fields, with errors that name the field and the message.
private struct FieldReader {
    let fields: [String: PropertyValue]
    let index: Int?

    func type() throws(APIError) -> MessageType {
        let text = try requiredString("type")
        guard let type = MessageType(rawValue: text) else {
            throw APIError(
                .badRequest, "bad_type",
                (index.map { "batch[\($0)]: " } ?? "") + "type must be one of "
                    + MessageType.allCases.map(\.rawValue).joined(separator: ", ")
                    + ", not \(PropertyValue.string(text))")
        }
        return type
    }

    /// A string, or nil when absent or null.
    func string(_ key: String) throws(APIError) -> String? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case let other?: throw .wrongType(key, index: index, expected: "a string", actual: other)
        }
    }

    /// A string that must be present and not empty.
    func requiredString(_ key: String) throws(APIError) -> String {
        guard let value = try string(key), !value.isEmpty else {
            throw .missingField(key, index: index)
        }
        return value
    }

    /// An object, or nil when absent or null.
    func object(_ key: String) throws(APIError) -> [String: PropertyValue]? {
        switch fields[key] {
        case nil, .null?: return nil
        case .object(let value)?: return value
        case let other?: throw .wrongType(key, index: index, expected: "an object", actual: other)
        }
    }

    /// The top-level `traits`, else `context.traits`.
    func traits(context: [String: PropertyValue]) throws(APIError) -> [String: PropertyValue] {
        if let traits = try object("traits") { return traits }
        switch context["traits"] {
        case nil, .null?: return [:]
        case .object(let traits)?: return traits
        case let other?: throw .wrongType("context.traits", index: index, expected: "an object", actual: other)
        }
    }
}
#endif
