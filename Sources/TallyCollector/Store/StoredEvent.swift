#if Collector
import Foundation
import Tally
import TallyPlan

/// The kinds of message the collector accepts: Segment's six, which Tally's five kinds cover (a page is a
/// screen to Tally).
enum MessageType: String, Sendable, CaseIterable {
    case track, screen, page, identify, group, alias

    /// The Tally kind: `page` is a screen.
    var kind: Event.Kind {
        switch self {
        case .track: .track
        case .screen, .page: .screen
        case .identify: .identify
        case .group: .group
        case .alias: .alias
        }
    }

    /// The one-letter path Segment's newer libraries post a single call to: `/v1/t` for a track.
    var shortPath: String {
        switch self {
        case .track: "t"
        case .screen: "s"
        case .page: "p"
        case .identify: "i"
        case .group: "g"
        case .alias: "a"
        }
    }

    init(_ kind: Event.Kind) {
        switch kind {
        case .track: self = .track
        case .screen: self = .screen
        case .identify: self = .identify
        case .group: self = .group
        case .alias: self = .alias
        }
    }
}

/// Where an event came in: the vendor API it was sent to (Segment's, which RudderStack's clients speak too,
/// PostHog's, Amplitude's or Mixpanel's), or Tally's records. The read API shows it as `source`.
enum EventSource: String, Sendable, CaseIterable {
    case segment, tally, posthog, amplitude, mixpanel
}

/// One event as the collector stores and serves it. The JSON members are kept encoded, as stored, so
/// serving an event splices them instead of parsing them again.
struct StoredEvent: Sendable, Hashable {
    /// The position in arrival order, from 1; 0 until stored.
    var id: Int64 = 0
    /// When the collector received it, in microseconds since 1970.
    var receivedAt: Int64
    /// The session a test tagged it with; empty when none.
    var session: String
    var source: EventSource
    var type: MessageType
    /// The event name of a track, the name of a screen or page; empty for the other types.
    var name: String
    /// The properties of a track, screen or page; the traits of an identify or group. A JSON object.
    var properties: String
    var userId: String?
    var anonymousId: String?
    var groupId: String?
    var previousId: String?
    var messageId: String?
    /// The client's timestamp, as it sent it.
    var timestamp: String?
    /// A JSON object.
    var context: String
    var writeKey: String?
    /// The event's consent purpose: a Tally record's (`analytics` when the record names none); for an event
    /// that came in a vendor's format, which names none, its planned event's purpose when the collector has
    /// a plan that lists the event, else nil.
    var purpose: ConsentPurpose?
    /// What the client knew of the user's consent for the purpose when it delivered the event: a Tally
    /// record's `consent`. Nil when the record has none, and for vendor formats, which carry none.
    var consent: DeliveredConsent?
    /// Where in the event's flow it was recorded: a Tally record's `stage` (``Record/Stage/tracked`` for a
    /// spy's); ``Record/Stage/delivered`` for everything else, vendor formats included.
    var stage: Record.Stage = .delivered
    /// The source location that recorded a Tally record's event (its `origin`, `path:line`); nil otherwise.
    var origin: String?
    /// The plan's violations as a JSON array; nil when no plan is loaded.
    var violations: String?

    /// Whether a plan found something wrong with it.
    var hasViolations: Bool { violations.map { $0 != "[]" } ?? false }

    /// The event as the read API and the live page show it.
    ///
    /// ```json
    /// {"id":7,"received_at":"2026-11-24T10:00:00.123Z","session":"checkout","source":"segment","type":"track",
    ///  "kind":"track","name":"Order Completed","properties":{"total":12.5},"user_id":"u1","anonymous_id":null,
    ///  "group_id":null,"previous_id":null,"message_id":"m-1","timestamp":"2026-11-24T10:00:00Z","write_key":null,
    ///  "context":{},"purpose":null,"consent":null,"stage":"delivered","origin":null,"violations":[]}
    /// ```
    func writeJSON(into writer: inout JSONWriter) {
        writer.writeRaw(#"{"id":"#)
        writer.writeRaw(String(id))
        writer.writeRaw(#","received_at":"#)
        writer.writeString(ISO8601.string(from: Date(timeIntervalSince1970: Double(receivedAt) / 1_000_000)))
        writer.writeRaw(#","session":"#)
        writer.writeString(session)
        writer.writeRaw(#","source":"#)
        writer.writeString(source.rawValue)
        writer.writeRaw(#","type":"#)
        writer.writeString(type.rawValue)
        writer.writeRaw(#","kind":"#)
        writer.writeString(type.kind.rawValue)
        writer.writeRaw(#","name":"#)
        writer.writeString(name)
        writer.writeRaw(#","properties":"#)
        writer.writeRaw(properties)
        for (key, value) in [
            ("user_id", userId), ("anonymous_id", anonymousId), ("group_id", groupId), ("previous_id", previousId),
            ("message_id", messageId), ("timestamp", timestamp), ("write_key", writeKey),
        ] {
            writer.writeRaw(",\"\(key)\":")
            if let value { writer.writeString(value) } else { writer.writeRaw("null") }
        }
        writer.writeRaw(#","context":"#)
        writer.writeRaw(context)
        writer.writeRaw(#","purpose":"#)
        if let purpose { writer.writeString(purpose.rawValue) } else { writer.writeRaw("null") }
        writer.writeRaw(#","consent":"#)
        if let consent { writer.writeString(consent.rawValue) } else { writer.writeRaw("null") }
        writer.writeRaw(#","stage":"#)
        writer.writeString(stage.rawValue)
        writer.writeRaw(#","origin":"#)
        if let origin { writer.writeString(origin) } else { writer.writeRaw("null") }
        if let violations {
            writer.writeRaw(#","violations":"#)
            writer.writeRaw(violations)
        }
        writer.writeRaw("}")
    }

    var json: [UInt8] {
        var writer = JSONWriter()
        writeJSON(into: &writer)
        return writer.bytes
    }
}

extension StoredEvent {
    /// The violations as the API shows them: a JSON array of `{"kind", "path", "rule", "message"}`, with the
    /// value found as `actual` unless the plan marks it personal data.
    static func violationsJSON(_ violations: [PlanViolation]) -> String {
        var writer = JSONWriter()
        writer.writeRaw("[")
        for (index, violation) in violations.enumerated() {
            if index > 0 { writer.writeRaw(",") }
            writer.writeRaw(#"{"kind":"#)
            writer.writeString(violation.kind.rawValue)
            writer.writeRaw(#","path":"#)
            writer.writeString(violation.path)
            writer.writeRaw(#","rule":"#)
            writer.writeString(violation.rule)
            writer.writeRaw(#","message":"#)
            writer.writeString(violation.message)
            if let actual = violation.actual, !violation.isPersonalData {
                writer.writeRaw(#","actual":"#)
                writer.write(actual)
            }
            writer.writeRaw("}")
        }
        writer.writeRaw("]")
        return writer.string
    }
}
#endif
