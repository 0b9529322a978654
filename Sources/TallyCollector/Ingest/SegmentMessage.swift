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
///
/// It reads the message where it lies in the body: the few fields it needs are decoded, and `properties`
/// (or `traits`) and `context` are stored as the client wrote them, without being parsed and encoded again.
enum SegmentMessage {
    /// The context member a test tags its events with; it wins over the `Tally-Session` header.
    static let sessionContextKey = CollectorProtocol.sessionContextKey

    /// Reads the message at `span` of `bytes`, which the caller has checked is valid JSON.
    ///
    /// - Parameters:
    ///   - bytes: the request body.
    ///   - span: where the message is.
    ///   - type: the type the route implies (`/v1/track`), or nil to read the message's `type` (`/v1/batch`).
    ///   - index: the message's position in its batch, for error messages; nil for a single call.
    ///   - context: what the request's messages share.
    ///   - wantsEvent: whether to build the Tally event (to validate it against a plan).
    /// - Returns: the event to store (without its id) and, when asked, the Tally event.
    /// - Throws: ``APIError`` (400) naming the field that is missing or of the wrong type.
    static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, _ span: Range<Int>, type routeType: MessageType?, index: Int?,
        context: IngestContext, wantsEvent: Bool
    ) throws(APIError) -> (stored: StoredEvent, event: Event?) {
        let message = try MessageFields(bytes, span, index: index)
        let type: MessageType
        if let implied = routeType { type = implied } else { type = try message.type() }
        let userId = try message.string("userId")
        let anonymousId = try message.string("anonymousId")
        if userId?.isEmpty ?? true, anonymousId?.isEmpty ?? true {
            throw .missingField("userId or anonymousId", index: index, " (one of them, not empty)")
        }

        // The context: as sent, unless the batch has one to merge under it.
        let contextSpan = try message.objectSpan("context")
        var contextText: String
        var session: PropertyValue?
        var contextTraits: Range<Int>?
        var mergedContext: [String: PropertyValue]?
        if context.batchContext.isEmpty {
            contextText = "{}"
            if let contextSpan { contextText = try message.text(contextSpan, "context") }
            if let contextSpan {
                for member in JSONSpans.members(bytes, contextSpan) {
                    if message.is(member.key, Self.sessionContextKey) {
                        session = try message.value(member.value, "context.\(Self.sessionContextKey)")
                    } else if message.is(member.key, "traits") {
                        contextTraits = member.value
                    }
                }
            }
        } else {
            var merged = context.batchContext
            if let contextSpan, case .object(let own) = try message.value(contextSpan, "context") {
                for (key, value) in own { merged[key] = value }
            }
            contextText = merged.jsonString
            session = merged[Self.sessionContextKey]
            mergedContext = merged
        }

        var name = ""
        var propertiesSpan: Range<Int>?
        var mergedTraits: [String: PropertyValue]?
        var groupId: String?
        var previousId: String?
        switch type {
        case .track:
            name = try message.requiredString("event")
            propertiesSpan = try message.objectSpan("properties")
        case .screen, .page:
            name = try message.string("name") ?? ""
            propertiesSpan = try message.objectSpan("properties")
        case .identify, .group:
            if type == .group { groupId = try message.requiredString("groupId") }
            if let traits = try message.objectSpan("traits") {
                propertiesSpan = traits
            } else if let mergedContext {
                switch mergedContext["traits"] {
                case nil, .null?: break
                case .object(let traits)?: mergedTraits = traits
                case let other?: throw .wrongType("context.traits", index: index, expected: "an object", actual: other)
                }
            } else if let contextTraits {
                guard bytes[contextTraits.lowerBound] == UInt8(ascii: "{") || message.isNull(contextTraits) else {
                    throw .wrongType(
                        "context.traits", index: index, expected: "an object",
                        actual: try message.value(contextTraits, "context.traits"))
                }
                propertiesSpan = message.isNull(contextTraits) ? nil : contextTraits
            }
        case .alias:
            guard let userId, !userId.isEmpty else { throw .missingField("userId", index: index, " for an alias") }
            previousId = try message.requiredString("previousId")
        }
        let properties: String
        if let mergedTraits {
            properties = mergedTraits.jsonString
        } else if let propertiesSpan {
            properties = try message.text(propertiesSpan, "properties")
        } else {
            properties = "{}"
        }
        let messageId = try message.string("messageId")
        var timestamp = try message.string("timestamp")
        if timestamp == nil { timestamp = try message.string("originalTimestamp") }
        let sessionName: String
        switch session {
        case .string(let tagged)?: sessionName = tagged
        case nil, .null?: sessionName = context.session
        case let other?:
            throw .wrongType("context.\(sessionContextKey)", index: index, expected: "a string", actual: other)
        }
        let writeKey = try message.string("writeKey") ?? context.writeKey

        let stored = StoredEvent(
            receivedAt: context.receivedAt, session: sessionName, source: .segment, type: type, name: name,
            properties: properties, userId: userId, anonymousId: anonymousId, groupId: groupId, previousId: previousId,
            messageId: messageId.flatMap { $0.isEmpty ? nil : $0 }, timestamp: timestamp, context: contextText,
            writeKey: writeKey)
        guard wantsEvent else { return (stored, nil) }
        let propertyValues: [String: PropertyValue]
        if let mergedTraits {
            propertyValues = mergedTraits
        } else if let propertiesSpan {
            propertyValues = try message.value(propertiesSpan, "properties").objectValue ?? [:]
        } else {
            propertyValues = [:]
        }
        let event = Event(
            kind: type.kind, name: name, properties: propertyValues,
            userId: type == .identify || type == .alias ? userId : nil, groupId: groupId)
        return (stored, event)
    }
}

/// The top-level fields of one message, read where they lie, with errors that name the field and the
/// message.
private struct MessageFields {
    let bytes: UnsafeBufferPointer<UInt8>
    let members: [(key: Range<Int>, value: Range<Int>)]
    let index: Int?

    init(_ bytes: UnsafeBufferPointer<UInt8>, _ span: Range<Int>, index: Int?) throws(APIError) {
        self.bytes = bytes
        self.index = index
        guard !span.isEmpty, bytes[span.lowerBound] == UInt8(ascii: "{") else {
            let actual = (try? JSONReader.read(UnsafeBufferPointer(rebasing: bytes[span])))?.typeName ?? "nothing"
            throw APIError(
                .badRequest, "wrong_type",
                (index.map { "batch[\($0)]" } ?? "The body") + " must be a JSON object, not \(actual)")
        }
        members = JSONSpans.members(bytes, span)
    }

    /// Where `key`'s value is; the last one when the key repeats, as a JSON reader would keep.
    func span(_ key: StaticString) -> Range<Int>? {
        members.last { self.is($0.key, key) }?.value
    }

    /// Whether the key at `range` is `key`.
    func `is`(_ range: Range<Int>, _ key: StaticString) -> Bool {
        guard range.count == key.utf8CodeUnitCount else { return false }
        return key.withUTF8Buffer { expected in
            var position = range.lowerBound
            for byte in expected {
                guard bytes[position] == byte else { return false }
                position += 1
            }
            return true
        }
    }

    /// Whether the key at `range` is `key`, for keys that are not literals (the protocol's names).
    func `is`(_ range: Range<Int>, _ key: String) -> Bool {
        let expected = key.utf8
        guard range.count == expected.count else { return false }
        return zip(bytes[range], expected).allSatisfy { $0 == $1 }
    }

    func isNull(_ span: Range<Int>) -> Bool { bytes[span.lowerBound] == UInt8(ascii: "n") }

    /// The value at `span`, decoded.
    func value(_ span: Range<Int>, _ field: String) throws(APIError) -> PropertyValue {
        do {
            return try JSONReader.read(UnsafeBufferPointer(rebasing: bytes[span]))
        } catch {
            throw .invalidJSON(error, in: (index.map { "batch[\($0)]." } ?? "") + field)
        }
    }

    /// The JSON text at `span`, as sent. Text with a backslash is decoded once first, so an invalid escape
    /// is refused rather than stored.
    func text(_ span: Range<Int>, _ field: String) throws(APIError) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[span])
        if slice.contains(UInt8(ascii: "\\")) { _ = try value(span, field) }
        return String(decoding: slice, as: UTF8.self)
    }

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
    func string(_ key: StaticString) throws(APIError) -> String? {
        guard let span = span(key), !isNull(span) else { return nil }
        let value = try value(span, "\(key)")
        guard case .string(let text) = value else {
            throw .wrongType("\(key)", index: index, expected: "a string", actual: value)
        }
        return text
    }

    /// A string that must be present and not empty.
    func requiredString(_ key: StaticString) throws(APIError) -> String {
        guard let value = try string(key), !value.isEmpty else { throw .missingField("\(key)", index: index) }
        return value
    }

    /// Where an object is, or nil when absent or null.
    func objectSpan(_ key: StaticString) throws(APIError) -> Range<Int>? {
        guard let span = span(key), !isNull(span) else { return nil }
        guard bytes[span.lowerBound] == UInt8(ascii: "{") else {
            throw .wrongType("\(key)", index: index, expected: "an object", actual: try value(span, "\(key)"))
        }
        return span
    }
}
#endif
