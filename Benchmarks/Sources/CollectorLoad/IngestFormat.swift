import Foundation

/// The wire formats the collector ingests, each as its SDK sends a batch of the same track event: Segment's
/// (analytics-python), PostHog's (posthog-python, `/batch/`), Amplitude's (`/2/httpapi`) and Mixpanel's
/// (mixpanel-python, form-encoded `data=` to `/track`, 50 events a request, its limit), and Mixpanel's with the
/// data base64-encoded as older SDKs send it (URL-safe alphabet without padding, which the form carries as it
/// is; the collector reads both alphabets).
public enum IngestFormat: String, CaseIterable, Sendable {
    case segment, posthog, amplitude, mixpanel
    case mixpanelBase64 = "mixpanel64"

    /// Where the SDK posts.
    public var path: String {
        switch self {
        case .segment: "/v1/batch"
        case .posthog: "/batch/"
        case .amplitude: "/2/httpapi"
        case .mixpanel, .mixpanelBase64: "/track"
        }
    }

    /// How many events a request carries.
    public var eventsPerBatch: Int { isMixpanel ? 50 : 100 }

    var isMixpanel: Bool { self == .mixpanel || self == .mixpanelBase64 }

    var contentType: String { isMixpanel ? "application/x-www-form-urlencoded" : "application/json" }

    /// Event `index` of a batch, with message id `id`: the same order, in each vendor's words.
    func event(_ index: Int, id: String) -> String {
        let user = "user-\(index % 7)"
        switch self {
        case .segment:
            return """
                {"type":"track","event":"Order Completed","userId":"\(user)","anonymousId":"5f1c3b1e-8a51-4b7a-9d43-\(fourDigits(index))",\
                "messageId":"\(id)","timestamp":"2026-11-24T10:00:00.000Z",\
                "properties":{"order_id":"o-\(index)","total":29.95,"currency":"EUR","items":3,"coupon":null},\
                "context":{"library":{"name":"analytics-python","version":"2.4.0"},"app":{"version":"3.1.0"}}}
                """
        case .posthog:
            return """
                {"event":"Order Completed","distinct_id":"\(user)","uuid":"\(id)","timestamp":"2026-11-24T10:00:00.000+00:00",\
                "properties":{"order_id":"o-\(index)","total":29.95,"currency":"EUR","items":3,"coupon":null,\
                "$lib":"posthog-python","$lib_version":"7.91.1","$geoip_disable":true}}
                """
        case .amplitude:
            return """
                {"event_type":"Order Completed","user_id":"\(user)","device_id":"5f1c3b1e-8a51-4b7a-9d43-\(fourDigits(index))",\
                "insert_id":"\(id)","time":1795734790376,"library":"amplitude-python/1.3.0",\
                "event_properties":{"order_id":"o-\(index)","total":29.95,"currency":"EUR","items":3,"coupon":null}}
                """
        case .mixpanel, .mixpanelBase64:
            return """
                {"event":"Order Completed","properties":{"token":"mp","distinct_id":"\(user)","time":1795734790.396,\
                "$insert_id":"\(id)","mp_lib":"python","$lib_version":"5.4.1",\
                "order_id":"o-\(index)","total":29.95,"currency":"EUR","items":3,"coupon":null}}
                """
        }
    }

    /// The request body around `events`.
    func body(_ events: [String]) -> [UInt8] {
        let list = events.joined(separator: ",")
        switch self {
        case .segment: return Array(#"{"batch":[\#(list)],"sentAt":"2026-11-24T10:00:00.100Z"}"#.utf8)
        case .posthog:
            return Array(
                #"{"batch":[\#(list)],"historical_migration":false,"sent_at":"2026-11-24T10:00:00.100+00:00","api_key":"phc"}"#
                    .utf8)
        case .amplitude: return Array(#"{"api_key":"amp","events":[\#(list)]}"#.utf8)
        case .mixpanel:
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._")
            return Array(
                ("data=" + "[\(list)]".addingPercentEncoding(withAllowedCharacters: allowed)! + "&verbose=1&ip=0").utf8)
        case .mixpanelBase64:
            return Array("data=".utf8) + Self.base64URL(Array("[\(list)]".utf8)) + Array("&verbose=1&ip=0".utf8)
        }
    }

    /// The JSON a Mixpanel base64 body encodes.
    func base64JSON(_ events: [String]) -> [UInt8] { Array("[\(events.joined(separator: ","))]".utf8) }

    /// Where the encoded data starts in a Mixpanel base64 body.
    static let base64DataOffset = "data=".utf8.count

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` in base64's URL-safe alphabet, without padding.
    static func base64URL(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count / 3 * 4 + 4)
        var index = 0
        while index < bytes.count {
            let group = groupBase64(bytes, at: index)
            output.append(contentsOf: group)
            index += 3
        }
        return output
    }

    /// The (up to) four characters of the three bytes at `index`.
    static func groupBase64(_ bytes: [UInt8], at index: Int) -> ArraySlice<UInt8> {
        let count = min(3, bytes.count - index)
        let first = UInt32(bytes[index])
        let second = count > 1 ? UInt32(bytes[index + 1]) : 0
        let third = count > 2 ? UInt32(bytes[index + 2]) : 0
        let value = first << 16 | second << 8 | third
        let characters = [
            alphabet[Int(value >> 18 & 63)], alphabet[Int(value >> 12 & 63)], alphabet[Int(value >> 6 & 63)],
            alphabet[Int(value & 63)],
        ]
        return characters[0..<(count + 1)]
    }
}
