import Foundation

/// The wire formats the collector ingests, each as its SDK sends a batch of the same track event: Segment's
/// (analytics-python), PostHog's (posthog-python, `/batch/`), Amplitude's (`/2/httpapi`) and Mixpanel's
/// (mixpanel-python, form-encoded `data=` to `/track`, 50 events a request, its limit).
public enum IngestFormat: String, CaseIterable, Sendable {
    case segment, posthog, amplitude, mixpanel

    /// Where the SDK posts.
    public var path: String {
        switch self {
        case .segment: "/v1/batch"
        case .posthog: "/batch/"
        case .amplitude: "/2/httpapi"
        case .mixpanel: "/track"
        }
    }

    /// How many events a request carries.
    public var eventsPerBatch: Int { self == .mixpanel ? 50 : 100 }

    var contentType: String { self == .mixpanel ? "application/x-www-form-urlencoded" : "application/json" }

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
        case .mixpanel:
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
        }
    }
}
