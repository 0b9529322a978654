#if Collector
import Foundation
import HTTPTypes
import Tally

/// Reads what Mixpanel's SDKs send (`POST /track`, `/engage`, `/groups`, `/import`, with or without a
/// trailing slash) into the events the collector stores.
///
/// The body is form-encoded, `data=<JSON>&verbose=1` (mixpanel-python; mixpanel-swift gzips it), where the JSON
/// may also be base64-encoded (older SDKs) and is one message or an array of them. A JSON body (`/import`) is
/// read as the messages themselves.
///
/// | endpoint | message | stored as |
/// |---|---|---|
/// | `/track`, `/import` | `{"event", "properties": {distinct_id, token, time, $insert_id, …}}` | track; `$create_alias` is an alias (`alias` the user id, `distinct_id` the previous one), `$identify` an identify |
/// | `/engage` | `{"$distinct_id", "$token", "$set": {…}}` | identify, `$set_once` under `$set` as the traits; another operation (`$add`, `$unset`…) is an identify named after it |
/// | `/groups` | `{"$group_key", "$group_id", "$set": {…}}` | group, `$group_id` the group id |
enum MixpanelMessage {
    /// Which of Mixpanel's endpoints a request came to.
    enum Endpoint: String, Sendable, CaseIterable {
        case track, engage, groups, `import`
    }

    /// The request's form: its `data` field and whether it asked for a verbose answer.
    struct Form {
        var data: [UInt8]?
        var verbose: Bool

        /// The messages' JSON text: `data`, decoded from base64 when it is not JSON.
        ///
        /// - Throws: ``APIError`` 400 `missing_field` without `data`, 400 `invalid_base64` for data that is
        ///   neither JSON nor base64.
        func json() throws(APIError) -> [UInt8] {
            guard let data, !data.isEmpty else {
                throw .missingField("data", index: nil, " (the form's data=<JSON> field)")
            }
            let first = data.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return data }
            var text = String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace }
            text = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            text += String(repeating: "=", count: (4 - text.count % 4) % 4)
            guard let decoded = Data(base64Encoded: text) else {
                throw APIError(.badRequest, "invalid_base64", "data is neither JSON nor base64-encoded JSON")
            }
            return Array(decoded)
        }
    }

    /// Reads a form-encoded body (`data=…&verbose=1`), or takes a JSON body as the data.
    static func form(_ bytes: [UInt8], isJSON: Bool, verboseQuery: Bool) -> Form {
        if isJSON { return Form(data: bytes, verbose: verboseQuery) }
        var form = Form(data: nil, verbose: verboseQuery)
        for pair in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(decoding: percentDecoded(parts[0]), as: UTF8.self)
            let value = parts.count > 1 ? percentDecoded(parts[1]) : []
            switch key {
            case "data": form.data = value
            case "verbose": form.verbose = value == Array("1".utf8)
            default: break
            }
        }
        return form
    }

    /// `+` as a space and `%XX` as its byte; a broken escape is kept as it is.
    static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                output.append(0x20)
            } else if byte == UInt8(ascii: "%"), index + 2 < bytes.endIndex, let high = hexDigit(bytes[index + 1]),
                let low = hexDigit(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 2
            } else {
                output.append(byte)
            }
            index += 1
        }
        return output
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The messages of a request's data.
    ///
    /// - Throws: ``APIError`` 400 naming the message and field that is missing or of the wrong type.
    static func events(
        _ data: [UInt8], endpoint: Endpoint, context: IngestContext, wantsEvents: Bool
    ) throws(APIError) -> [(stored: StoredEvent, event: Event?)] {
        let body = try VendorJSON.read(data, what: "data")
        let messages = try VendorJSON.messages(body, "data")
        var events: [(stored: StoredEvent, event: Event?)] = []
        events.reserveCapacity(messages.count)
        for (index, value) in messages.enumerated() {
            let position = body.arrayValue == nil ? nil : index
            let message: VendorMessage
            switch endpoint {
            case .track, .import: message = try event(value, index: position)
            case .engage: message = try profile(value, index: position)
            case .groups: message = try group(value, index: position)
            }
            events.append(
                try message.stored(from: .mixpanel, context: context, index: position, wantsEvent: wantsEvents))
        }
        return events
    }

    private static func fields(_ value: PropertyValue, index: Int?) throws(APIError) -> [String: PropertyValue] {
        guard case .object(let fields) = value else {
            throw .wrongType("data", index: index, expected: "an object", actual: value)
        }
        return fields
    }

    /// A `/track` or `/import` event.
    static func event(_ value: PropertyValue, index: Int?) throws(APIError) -> VendorMessage {
        let fields = try fields(value, index: index)
        let name = try VendorJSON.requiredString(fields["event"], "event", index: index)
        var properties = try VendorJSON.object(fields["properties"], "properties", index: index) ?? [:]
        let distinctId = try VendorJSON.string(
            properties.removeValue(forKey: "distinct_id"), "properties.distinct_id", index: index)
        var message = VendorMessage(type: .track, name: name)
        let userId = try VendorJSON.string(
            properties.removeValue(forKey: "$user_id"), "properties.$user_id", index: index)
        message.userId = userId ?? distinctId
        message.anonymousId = try VendorJSON.string(
            properties.removeValue(forKey: "$device_id"), "properties.$device_id", index: index)
        message.writeKey = try VendorJSON.string(
            properties.removeValue(forKey: "token"), "properties.token", index: index)
        message.messageId = try VendorJSON.string(
            properties.removeValue(forKey: "$insert_id"), "properties.$insert_id", index: index)
        message.timestamp = try VendorJSON.epochTime(
            properties.removeValue(forKey: "time"), "properties.time", index: index, expected: "a number",
            milliseconds: nil)
        switch name {
        case "$create_alias":
            message.type = .alias
            message.name = ""
            message.previousId = distinctId
            message.userId = try VendorJSON.requiredString(
                properties.removeValue(forKey: "alias"), "properties.alias", index: index)
            message.properties = properties.filter { $0.key == CollectorProtocol.sessionContextKey }
        case "$identify":
            message.type = .identify
            message.name = ""
            let identified = try VendorJSON.string(
                properties["$identified_id"], "properties.$identified_id", index: index)
            let anonymous = try VendorJSON.string(
                properties["$anon_distinct_id"], "properties.$anon_distinct_id", index: index)
            message.userId = identified ?? message.userId
            message.anonymousId = anonymous ?? message.anonymousId
            message.properties = properties.filter { $0.key == CollectorProtocol.sessionContextKey }
        default:
            message.properties = properties
        }
        guard message.userId?.isEmpty == false || message.anonymousId?.isEmpty == false || message.type == .track
        else {
            throw .missingField("properties.distinct_id", index: index)
        }
        return message
    }

    /// The operations of an `/engage` or `/groups` update, in the order they are looked for.
    private static let operations = ["$set", "$set_once", "$add", "$append", "$union", "$remove", "$unset", "$delete"]

    /// An `/engage` profile update.
    static func profile(_ value: PropertyValue, index: Int?) throws(APIError) -> VendorMessage {
        let fields = try fields(value, index: index)
        var message = VendorMessage(type: .identify)
        message.userId = try VendorJSON.requiredString(fields["$distinct_id"], "$distinct_id", index: index)
        message.anonymousId = try VendorJSON.string(fields["$device_id"], "$device_id", index: index)
        message.writeKey = try VendorJSON.string(fields["$token"], "$token", index: index)
        message.timestamp = try VendorJSON.timestamp(epoch: fields["$time"], "$time", index: index, milliseconds: nil)
        try update(fields, into: &message, index: index)
        return message
    }

    /// A `/groups` group update.
    static func group(_ value: PropertyValue, index: Int?) throws(APIError) -> VendorMessage {
        let fields = try fields(value, index: index)
        var message = VendorMessage(type: .group)
        _ = try VendorJSON.requiredString(fields["$group_key"], "$group_key", index: index)
        message.groupId = try VendorJSON.requiredString(fields["$group_id"], "$group_id", index: index)
        message.writeKey = try VendorJSON.string(fields["$token"], "$token", index: index)
        message.timestamp = try VendorJSON.timestamp(epoch: fields["$time"], "$time", index: index, milliseconds: nil)
        try update(fields, into: &message, index: index)
        return message
    }

    /// The traits of a profile or group update: `$set_once` under `$set`; another operation names the event.
    private static func update(
        _ fields: [String: PropertyValue], into message: inout VendorMessage, index: Int?
    ) throws(APIError) {
        let set = try VendorJSON.object(fields["$set"], "$set", index: index)
        let once = try VendorJSON.object(fields["$set_once"], "$set_once", index: index)
        if set != nil || once != nil {
            message.properties = (once ?? [:]).merging(set ?? [:]) { _, set in set }
        } else if let operation = operations.first(where: { fields[$0] != nil }) {
            message.name = operation
            message.properties = fields[operation]?.objectValue ?? [:]
        } else {
            throw .missingField("$set", index: index, " (or another profile operation)")
        }
    }
}
#endif
