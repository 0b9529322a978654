#if Collector
import Foundation
import Tally

extension StoredEvent {
    /// The event as a Tally record: a line of what `GET /tally/records` answers, which `tally validate` and
    /// `tally coverage` read.
    ///
    /// The envelope is the one a Tally client would have made, as TallyTesting's `CollectorReader` builds
    /// it from `GET /tally/events`: a page is a screen; identify and alias carry their user id in the
    /// event, an alias's previous id is the envelope's user id; the message id is the client's when it is
    /// in Tally's form, else one made of the stored id; the timestamp is the client's, else the time the
    /// collector received it. The record keeps the purpose (a vendor event's planned purpose when the
    /// collector has the plan; `analytics`, the record format's default, when none is known), the consent it
    /// was delivered with (none for vendor formats), the stage and the origin. Its `source` is the API the
    /// event came through (`tally`, `segment`, `posthog`, `amplitude`, `mixpanel`).
    var record: Record {
        let kind = type.kind
        let event = Event(
            kind: kind, name: name, properties: Self.object(properties),
            userId: kind == .identify || kind == .alias ? userId : nil, groupId: groupId,
            purpose: purpose ?? .analytics)
        let envelope = Envelope(
            event: event,
            messageId: messageId.flatMap(MessageID.init) ?? MessageID(prefix: 0, sequence: UInt64(max(id, 0))),
            timestamp: timestamp.flatMap(ISO8601.date(from:))
                ?? Date(timeIntervalSince1970: Double(receivedAt) / 1_000_000),
            userId: kind == .alias ? previousId : userId, anonymousId: anonymousId ?? "",
            context: Self.object(context), consent: consent)
        return Record(envelope: envelope, source: source.rawValue, origin: origin, stage: stage)
    }

    /// A stored JSON object's members. The collector stores only objects it wrote itself, so reading one
    /// back does not fail; an empty object stands in if it ever did.
    private static func object(_ json: String) -> [String: PropertyValue] {
        (try? PropertyValue(json: json))?.objectValue ?? [:]
    }
}
#endif
