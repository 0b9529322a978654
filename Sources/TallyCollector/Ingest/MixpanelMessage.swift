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
            if let decoded = MixpanelMessage.base64Decoded(data) { return decoded }
            // What the fast decoder leaves (padding, a character outside both alphabets, text past ASCII):
            // Foundation's decoder decides, as it always did.
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
        // Pairs between `&`s (empty ones skipped), each `key=value` split at its first `=`; a pair without
        // one is a key with an empty value. Only the values of the keys read are decoded.
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
            let pair = bytes[start..<end]
            start = end + 1
            guard !pair.isEmpty else { continue }
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let key = String(decoding: percentDecoded(pair[..<(equals ?? pair.endIndex)]), as: UTF8.self)
            func value() -> [UInt8] { equals.map { percentDecoded(pair[($0 + 1)...]) } ?? [] }
            switch key {
            case "data": form.data = value()
            case "verbose": form.verbose = value() == Array("1".utf8)
            default: break
            }
        }
        return form
    }

    /// `+` as a space and `%XX` as its byte; a broken escape is kept as it is.
    static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        hexValues.withUnsafeBufferPointer { hex in
            bytes.withUnsafeBufferPointer { input in
                [UInt8](unsafeUninitializedCapacity: input.count) { output, count in
                    var index = 0
                    var written = 0
                    while index < input.count {
                        let byte = input[index]
                        if byte == UInt8(ascii: "%"), index + 2 < input.count {
                            // Both digits read through one table: 0xFF marks a byte that is not one.
                            let high = hex[Int(input[index + 1])]
                            let low = hex[Int(input[index + 2])]
                            if high < 16, low < 16 {
                                output[written] = high << 4 | low
                                index += 3
                                written += 1
                                continue
                            }
                        }
                        output[written] = byte == UInt8(ascii: "+") ? 0x20 : byte
                        written += 1
                        index += 1
                    }
                    count = written
                }
            }
        }
    }

    /// Each hexadecimal digit's value, either case; 0xFF for any other byte.
    private static let hexValues: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (value, digit) in "0123456789abcdef".utf8.enumerated() { values[Int(digit)] = UInt8(value) }
        for (value, digit) in "ABCDEF".utf8.enumerated() { values[Int(digit)] = UInt8(value + 10) }
        return values
    }()

    /// The six bits of each base64 character, both alphabets (`+/` and `-_`); 0xFF for any other byte, 0xFE
    /// for ASCII whitespace, which is skipped.
    private static let base64Values: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            values[Int(character)] = UInt8(value)
        }
        values[Int(UInt8(ascii: "-"))] = 62
        values[Int(UInt8(ascii: "_"))] = 63
        for space in [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20] { values[space] = 0xFE }
        return values
    }()

    /// `data` decoded from base64 without padding, in either alphabet, ASCII whitespace skipped; nil for
    /// anything else (padding, other characters, a length base64 cannot have, or unused bits that are not
    /// zero), which ``Form/json()`` hands to Foundation's decoder as before.
    static func base64Decoded(_ data: [UInt8]) -> [UInt8]? {
        data.withUnsafeBufferPointer { input -> [UInt8]? in
            var failed = false
            let decoded = [UInt8](unsafeUninitializedCapacity: input.count / 4 * 3 + 3) { output, count in
                var accumulated: UInt32 = 0
                var characters = 0
                var written = 0
                for byte in input {
                    let value = base64Values[Int(byte)]
                    if value == 0xFE { continue }
                    if value == 0xFF {
                        failed = true
                        break
                    }
                    accumulated = accumulated << 6 | UInt32(value)
                    characters += 1
                    if characters == 4 {
                        output[written] = UInt8(truncatingIfNeeded: accumulated >> 16)
                        output[written + 1] = UInt8(truncatingIfNeeded: accumulated >> 8)
                        output[written + 2] = UInt8(truncatingIfNeeded: accumulated)
                        written += 3
                        accumulated = 0
                        characters = 0
                    }
                }
                switch characters {
                case 0: break
                case 2 where accumulated & 0xF == 0:
                    output[written] = UInt8(truncatingIfNeeded: accumulated >> 4)
                    written += 1
                case 3 where accumulated & 0x3 == 0:
                    output[written] = UInt8(truncatingIfNeeded: accumulated >> 10)
                    output[written + 1] = UInt8(truncatingIfNeeded: accumulated >> 2)
                    written += 2
                default: failed = true
                }
                count = failed ? 0 : written
            }
            return failed || (decoded.isEmpty && !input.isEmpty) ? nil : decoded
        }
    }

    /// The messages of a request's data.
    ///
    /// - Throws: ``APIError`` 400 naming the message and field that is missing or of the wrong type.
    static func events(
        _ data: [UInt8], endpoint: Endpoint, context: IngestContext, wantsEvents: Bool
    ) throws(APIError) -> [(stored: StoredEvent, event: Event?)] {
        try VendorJSON.read(data, what: "data").withValue { body throws(APIError) in
            let messages = try VendorJSON.messages(body, "data")
            var events: [(stored: StoredEvent, event: Event?)] = []
            events.reserveCapacity(messages.count)
            for (index, value) in messages.enumerated() {
                let position = body.isArray ? index : nil
                let fields = try VendorJSON.fields(value, "data", index: position)
                let message: VendorMessage
                switch endpoint {
                case .track, .import: message = try event(fields, index: position)
                case .engage: message = try profile(fields, index: position)
                case .groups: message = try group(fields, index: position)
                }
                events.append(
                    try message.stored(from: .mixpanel, context: context, index: position, wantsEvent: wantsEvents))
            }
            return events
        }
    }

    /// A `/track` or `/import` event.
    static func event(_ fields: VendorObject, index: Int?) throws(APIError) -> VendorMessage {
        let name = try VendorJSON.requiredString(fields["event"], "event", index: index)
        var properties =
            try fields.object("properties", "properties", index: index)
            ?? VendorObject(bytes: fields.bytes, members: [], isPlain: fields.isPlain)
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
        let session = properties[CollectorProtocol.sessionContextKey].map { [CollectorProtocol.sessionContextKey: $0] }
        switch name {
        case "$create_alias":
            message.type = .alias
            message.name = ""
            message.previousId = distinctId
            message.userId = try VendorJSON.requiredString(
                properties.removeValue(forKey: "alias"), "properties.alias", index: index)
            message.properties = .values(session ?? [:])
        case "$identify":
            message.type = .identify
            message.name = ""
            let identified = try VendorJSON.string(
                properties["$identified_id"], "properties.$identified_id", index: index)
            let anonymous = try VendorJSON.string(
                properties["$anon_distinct_id"], "properties.$anon_distinct_id", index: index)
            message.userId = identified ?? message.userId
            message.anonymousId = anonymous ?? message.anonymousId
            message.properties = .values(session ?? [:])
        default:
            message.properties = .object(properties)
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
    static func profile(_ fields: VendorObject, index: Int?) throws(APIError) -> VendorMessage {
        var message = VendorMessage(type: .identify)
        message.userId = try VendorJSON.requiredString(fields["$distinct_id"], "$distinct_id", index: index)
        message.anonymousId = try VendorJSON.string(fields["$device_id"], "$device_id", index: index)
        message.writeKey = try VendorJSON.string(fields["$token"], "$token", index: index)
        message.timestamp = try VendorJSON.timestamp(epoch: fields["$time"], "$time", index: index, milliseconds: nil)
        try update(fields, into: &message, index: index)
        return message
    }

    /// A `/groups` group update.
    static func group(_ fields: VendorObject, index: Int?) throws(APIError) -> VendorMessage {
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
        _ fields: VendorObject, into message: inout VendorMessage, index: Int?
    ) throws(APIError) {
        let set = try VendorJSON.object(fields["$set"], "$set", index: index)
        let once = try VendorJSON.object(fields["$set_once"], "$set_once", index: index)
        if set != nil || once != nil {
            message.properties = .values((once ?? [:]).merging(set ?? [:]) { _, set in set })
        } else if let operation = operations.first(where: { fields.contains($0) }) {
            message.name = operation
            message.properties = .values(fields[operation]?.objectValue ?? [:])
        } else {
            throw .missingField("$set", index: index, " (or another profile operation)")
        }
    }
}
#endif
