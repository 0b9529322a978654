#if Collector
import Tally

/// Reads what PostHog's SDKs send (`POST /batch/`, `/batch`, `/capture/`, `/e/`, `/i/v0/e/`) into the events
/// the collector stores.
///
/// The body is `{"api_key": …, "batch": [event, …]}` (posthog-python, posthog-ios), or one event, or an array of
/// them (the capture endpoints). Each event has an `event` name, a `distinct_id` (at the top or among its
/// properties), `properties`, an ISO `timestamp` and a `uuid`. PostHog's special events become Tally's kinds:
///
/// | PostHog event | stored as |
/// |---|---|
/// | `$identify`, `$set` | identify: the `$set` object (top-level or in properties) is the traits |
/// | `$groupidentify` | group: `$group_key` is the group id, `$group_set` the traits |
/// | `$create_alias` | alias: `properties.alias` is the user id, `distinct_id` the previous id |
/// | `$screen` | screen named by `$screen_name` |
/// | anything else | track |
enum PostHogMessage {
    /// The messages of a PostHog body, read where they lie.
    ///
    /// - Throws: ``APIError`` 400 naming the message and field that is missing or of the wrong type.
    static func events(
        _ body: VendorValue, context: IngestContext, wantsEvents: Bool
    ) throws(APIError) -> [(stored: StoredEvent, event: Event?)] {
        var apiKey: String?
        let messages: [VendorValue]
        let object = body.object
        let batch = object?.span("batch").map { VendorValue(bytes: body.bytes, span: $0, isPlain: body.isPlain) }
        if let object, let batch {
            apiKey = try VendorJSON.string(object["api_key"], "api_key", index: nil)
            guard let items = batch.elements else {
                throw .wrongType("batch", index: nil, expected: "an array", actual: batch.decoded)
            }
            messages = items
        } else {
            messages = try VendorJSON.messages(body, "The body")
        }
        var events: [(stored: StoredEvent, event: Event?)] = []
        events.reserveCapacity(messages.count)
        for (index, value) in messages.enumerated() {
            let position = messages.count == 1 && !body.isArray && batch == nil ? nil : index
            var message = try read(value, index: position)
            message.writeKey = message.writeKey ?? apiKey
            events.append(
                try message.stored(from: .posthog, context: context, index: position, wantsEvent: wantsEvents))
        }
        return events
    }

    /// One PostHog event.
    static func read(_ value: VendorValue, index: Int?) throws(APIError) -> VendorMessage {
        let fields = try VendorJSON.fields(value, "event", index: index)
        let name = try VendorJSON.requiredString(fields["event"], "event", index: index)
        var properties =
            try fields.object("properties", "properties", index: index)
            ?? VendorObject(bytes: value.bytes, members: [], isPlain: value.isPlain)
        let topDistinctId = try VendorJSON.string(fields["distinct_id"], "distinct_id", index: index)
        let propertyDistinctId = try VendorJSON.string(
            properties["distinct_id"], "properties.distinct_id", index: index)
        let distinctId = topDistinctId ?? propertyDistinctId
        guard let distinctId, !distinctId.isEmpty else { throw .missingField("distinct_id", index: index) }
        _ = properties.removeValue(forKey: "distinct_id")

        var message = VendorMessage(type: .track, name: name, userId: distinctId)
        message.messageId = try VendorJSON.string(fields["uuid"], "uuid", index: index)
        message.timestamp = try VendorJSON.string(fields["timestamp"], "timestamp", index: index)
        let apiKey = try VendorJSON.string(fields["api_key"], "api_key", index: index)
        let token = try VendorJSON.string(properties["token"], "properties.token", index: index)
        message.writeKey = apiKey ?? token
        message.anonymousId = try VendorJSON.string(properties["$device_id"], "properties.$device_id", index: index)
        switch name {
        case "$identify", "$set":
            message.type = .identify
            message.name = ""
            let anonymousId = try VendorJSON.string(
                properties["$anon_distinct_id"], "properties.$anon_distinct_id", index: index)
            message.anonymousId = anonymousId ?? message.anonymousId
            let topSet = try VendorJSON.object(fields["$set"], "$set", index: index)
            let propertySet = try VendorJSON.object(properties["$set"], "properties.$set", index: index)
            let topOnce = try VendorJSON.object(fields["$set_once"], "$set_once", index: index)
            let propertyOnce = try VendorJSON.object(properties["$set_once"], "properties.$set_once", index: index)
            message.properties = .values(
                (topOnce ?? propertyOnce ?? [:]).merging(topSet ?? propertySet ?? [:]) { _, set in set })
        case "$groupidentify":
            message.type = .group
            message.name = ""
            message.groupId = try VendorJSON.requiredString(
                properties["$group_key"], "properties.$group_key", index: index)
            message.properties = .values(
                try VendorJSON.object(properties["$group_set"], "properties.$group_set", index: index) ?? [:])
        case "$create_alias":
            message.type = .alias
            message.name = ""
            message.previousId = distinctId
            message.userId = try VendorJSON.requiredString(properties["alias"], "properties.alias", index: index)
        case "$screen":
            message.type = .screen
            message.name =
                try VendorJSON.string(properties["$screen_name"], "properties.$screen_name", index: index)
                ?? ""
            message.properties = .object(properties)
        default:
            message.properties = .object(properties)
        }
        if message.type != .track && message.type != .screen {
            // What PostHog's own bookkeeping put among the properties is not the traits; keep the session tag.
            if let session = properties[CollectorProtocol.sessionContextKey] {
                message.properties[CollectorProtocol.sessionContextKey] = session
            }
        }
        return message
    }
}
#endif
