#if Collector
import HTTPTypes
import Tally

/// Reads what Amplitude's SDKs send (`POST /2/httpapi`, `/batch`) into the events the collector stores.
///
/// The body is `{"api_key": …, "events": [event, …]}`. Each event has an `event_type`, a `user_id` or a
/// `device_id` (one is required, except for a group's identify), `event_properties`, `time` in milliseconds and an `insert_id`. Amplitude's
/// special events become Tally's kinds:
///
/// | Amplitude event | stored as |
/// |---|---|
/// | `$identify` | identify: `user_properties.$set` (and `$setOnce`) is the traits |
/// | `$groupidentify` | group: the first of `groups` is the group id, `group_properties.$set` the traits |
/// | anything else | track |
enum AmplitudeEvent {
    /// The events of an Amplitude body, read where they lie.
    ///
    /// - Throws: ``APIError`` 400 naming the event and field that is missing or of the wrong type.
    static func events(
        _ body: VendorValue, context: IngestContext, wantsEvents: Bool
    ) throws(APIError) -> [(stored: StoredEvent, event: Event?)] {
        guard let object = body.object else {
            throw APIError(
                .badRequest, "wrong_type",
                "The body must be a JSON object with an events array, not \(body.decoded.typeName)")
        }
        let apiKey = try VendorJSON.requiredString(object["api_key"], "api_key", index: nil)
        guard let list = object.span("events").map({ VendorValue(bytes: body.bytes, span: $0, isPlain: body.isPlain) })
        else { throw .missingField("events", index: nil, " (an array of events)") }
        guard let items = list.elements else {
            throw .wrongType("events", index: nil, expected: "an array", actual: list.decoded)
        }
        var events: [(stored: StoredEvent, event: Event?)] = []
        events.reserveCapacity(items.count)
        for (index, value) in items.enumerated() {
            var message = try read(value, index: index)
            message.writeKey = apiKey
            events.append(try message.stored(from: .amplitude, context: context, index: index, wantsEvent: wantsEvents))
        }
        return events
    }

    /// One Amplitude event.
    static func read(_ value: VendorValue, index: Int?) throws(APIError) -> VendorMessage {
        let fields = try VendorJSON.fields(value, "event", index: index)
        let name = try VendorJSON.requiredString(fields["event_type"], "event_type", index: index)
        let userId = try VendorJSON.string(fields["user_id"], "user_id", index: index)
        let deviceId = try VendorJSON.string(fields["device_id"], "device_id", index: index)
        // A group's identify names no user: Amplitude's SDKs send it without one.
        if userId?.isEmpty ?? true, deviceId?.isEmpty ?? true, name != "$groupidentify" {
            throw .missingField("user_id or device_id", index: index, " (one of them, not empty)")
        }
        let eventProperties =
            try fields.object("event_properties", "event_properties", index: index)
            ?? VendorObject(bytes: value.bytes, members: [], isPlain: value.isPlain)
        var message = VendorMessage(type: .track, name: name, userId: userId, anonymousId: deviceId)
        message.messageId = try VendorJSON.string(fields["insert_id"], "insert_id", index: index)
        message.timestamp = try VendorJSON.epochTime(
            fields["time"], "time", index: index, expected: "a number of milliseconds", milliseconds: true)
        switch name {
        case "$identify":
            message.type = .identify
            message.name = ""
            let user = try VendorJSON.object(fields["user_properties"], "user_properties", index: index) ?? [:]
            message.properties = .values(try operations(user, "user_properties", index: index))
        case "$groupidentify":
            message.type = .group
            message.name = ""
            let groups = try VendorJSON.object(fields["groups"], "groups", index: index) ?? [:]
            guard let first = groups.keys.sorted().first else {
                throw .missingField("groups", index: index, " (the group to identify)")
            }
            switch groups[first] {
            case .array(let names)?: message.groupId = names.first?.stringValue
            case let other: message.groupId = try VendorJSON.string(other, "groups.\(first)", index: index)
            }
            let group = try VendorJSON.object(fields["group_properties"], "group_properties", index: index) ?? [:]
            message.properties = .values(try operations(group, "group_properties", index: index))
        default:
            message.properties = .object(eventProperties)
        }
        if message.type != .track, let session = eventProperties[CollectorProtocol.sessionContextKey] {
            message.properties[CollectorProtocol.sessionContextKey] = session
        }
        return message
    }

    /// The properties an identify sets: `$setOnce` under `$set`; properties without operations as they are.
    private static func operations(
        _ properties: [String: PropertyValue], _ field: String, index: Int?
    ) throws(APIError) -> [String: PropertyValue] {
        guard properties.keys.contains(where: { $0.hasPrefix("$") }) else { return properties }
        let set = try VendorJSON.object(properties["$set"], "\(field).$set", index: index) ?? [:]
        let once = try VendorJSON.object(properties["$setOnce"], "\(field).$setOnce", index: index) ?? [:]
        return once.merging(set) { _, set in set }
    }
}
#endif
