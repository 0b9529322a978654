#if Collector
import Foundation
import HTTPTypes
import Tally

/// What a PostHog, Amplitude or Mixpanel message comes down to once its vendor's decoder has read it: the
/// fields of a stored event, decoded.
///
/// Each vendor has its own decoder (``PostHogMessage``, ``AmplitudeEvent``, ``MixpanelMessage``); what they
/// share is here: the JSON body, the session tag, and the stored event.
struct VendorMessage {
    /// A message's properties: the object of the body they were sent as (a track's, a screen's), or values
    /// a decoder put together (an identify's traits from their operations).
    enum Properties {
        case values([String: PropertyValue])
        case object(VendorObject)

        /// The value of `key`.
        subscript(key: String) -> PropertyValue? {
            get {
                switch self {
                case .values(let values): values[key]
                case .object(let object): object[key]
                }
            }
            set {
                switch self {
                case .values(var values):
                    values[key] = newValue
                    self = .values(values)
                case .object(let object):
                    var values = object.dictionary
                    values[key] = newValue
                    self = .values(values)
                }
            }
        }
    }

    var type: MessageType
    var name = ""
    var properties = Properties.values([:])
    var userId: String?
    var anonymousId: String?
    var groupId: String?
    var previousId: String?
    var messageId: String?
    /// The client's timestamp, as ISO 8601 text.
    var timestamp: String?
    var writeKey: String?

    /// The stored event and, when asked, the Tally event the plan checks.
    ///
    /// A `tally_session` property (``CollectorProtocol/sessionContextKey``) tags the event with a session, as
    /// a Segment message's context member does: vendor SDKs have no context, but every one of them sends
    /// properties. It wins over the `Tally-Session` header and is not kept among the properties.
    func stored(
        from source: EventSource, context: IngestContext, index: Int?, wantsEvent: Bool
    ) throws(APIError) -> (stored: StoredEvent, event: Event?) {
        var session = context.session
        let tag: PropertyValue?
        let text: String
        var values: [String: PropertyValue] = [:]
        switch properties {
        case .values(var properties):
            tag = properties.removeValue(forKey: CollectorProtocol.sessionContextKey)
            text = properties.jsonString
            if wantsEvent { values = properties }
        case .object(var object):
            // Written from the body's bytes: no dictionary is built unless a plan asks for the event.
            tag = object.removeValue(forKey: CollectorProtocol.sessionContextKey)
            text = object.jsonString
            if wantsEvent { values = object.dictionary }
        }
        switch tag {
        case nil, .null?: break
        case .string(let tagged)?: session = tagged
        case let other?:
            throw .wrongType(
                "properties.\(CollectorProtocol.sessionContextKey)", index: index, expected: "a string", actual: other)
        }
        let stored = StoredEvent(
            receivedAt: context.receivedAt, session: session, source: source, type: type, name: name,
            properties: text, userId: userId, anonymousId: anonymousId, groupId: groupId,
            previousId: previousId, messageId: messageId.flatMap { $0.isEmpty ? nil : $0 }, timestamp: timestamp,
            context: "{}", writeKey: writeKey ?? context.writeKey)
        guard wantsEvent else { return (stored, nil) }
        let event = Event(
            kind: type.kind, name: name, properties: values,
            userId: type == .identify || type == .alias ? userId : nil, groupId: groupId)
        return (stored, event)
    }
}

/// Reading vendor bodies: JSON that must be an object or an array, and the typed fields of one message.
enum VendorJSON {
    /// The body, checked to be JSON, to be read where it lies.
    ///
    /// - Throws: ``APIError`` 400 `invalid_json`.
    static func read(_ bytes: [UInt8], what: String = "The body") throws(APIError) -> VendorBody {
        try VendorBody(bytes, what: what)
    }

    /// `value` as an object, or a 400 naming `field`.
    static func object(_ value: PropertyValue?, _ field: String, index: Int?) throws(APIError) -> [String:
        PropertyValue]?
    {
        switch value {
        case nil, .null?: return nil
        case .object(let object)?: return object
        case let other?: throw .wrongType(field, index: index, expected: "an object", actual: other)
        }
    }

    /// `value` as a string, or a 400 naming `field`. Numbers are accepted as their text, as the vendors do
    /// for ids.
    static func string(_ value: PropertyValue?, _ field: String, index: Int?) throws(APIError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case .int(let number)?: return String(number)
        case let other?: throw .wrongType(field, index: index, expected: "a string", actual: other)
        }
    }

    /// A string that must be present and not empty.
    static func requiredString(_ value: PropertyValue?, _ field: String, index: Int?) throws(APIError) -> String {
        guard let text = try string(value, field, index: index), !text.isEmpty else {
            throw .missingField(field, index: index)
        }
        return text
    }

    /// The messages of a body that holds either one message object or an array of them.
    static func messages(_ value: VendorValue, _ field: String) throws(APIError) -> [VendorValue] {
        if let elements = value.elements { return elements }
        if value.isObject { return [value] }
        throw .wrongType(field, index: nil, expected: "an object or an array", actual: value.decoded)
    }

    /// The fields of message `value`, or a 400 naming `field` when it is not an object.
    static func fields(_ value: VendorValue, _ field: String, index: Int?) throws(APIError) -> VendorObject {
        guard let fields = value.object else {
            throw .wrongType(field, index: index, expected: "an object", actual: value.decoded)
        }
        return fields
    }

    /// The message's time field as ISO 8601 text: nil when absent or null, a 400 naming `field` when it is not
    /// a number or is outside years 0000 to 9999. `milliseconds` as in ``timestamp(epoch:_:index:milliseconds:)``.
    static func epochTime(
        _ value: PropertyValue?, _ field: String, index: Int?, expected: String, milliseconds: Bool?
    ) throws(APIError) -> String? {
        guard let value, !value.isNull else { return nil }
        guard value.doubleValue != nil else { throw .wrongType(field, index: index, expected: expected, actual: value) }
        return try timestamp(epoch: value, field, index: index, milliseconds: milliseconds)
    }

    /// A time in seconds or milliseconds since 1970 (a number above 10^11 is taken as milliseconds, as
    /// Mixpanel does), as ISO 8601 text; text that is not a number is kept as it is. A number outside years
    /// 0000 to 9999 is refused with a 400 naming `field`: no real clock sends one, and ISO 8601's fixed form
    /// cannot hold it.
    static func timestamp(
        epoch value: PropertyValue?, _ field: String, index: Int?, milliseconds: Bool?
    ) throws(APIError) -> String? {
        guard let number = value?.doubleValue ?? value?.stringValue.flatMap(Double.init), number.isFinite else {
            return value?.stringValue
        }
        let inMilliseconds = milliseconds ?? (abs(number) > 100_000_000_000)
        let seconds = inMilliseconds ? number / 1000 : number
        guard ISO8601.writable.contains(seconds) else {
            throw .outOfRange(
                field, index: index,
                expected: "a time from year 0000 to 9999 in \(inMilliseconds ? "milliseconds" : "seconds") since 1970",
                actual: number)
        }
        return ISO8601.string(from: Date(timeIntervalSince1970: seconds))
    }
}
#endif
