import Foundation
import Tally

extension CollectorReader {
    /// One event of a collector's answer: its id, the envelope, the stage it was recorded at, and how it
    /// arrived.
    typealias Read = (id: Int64, envelope: Envelope, stage: Record.Stage, arrival: DeliveryComparison.Arrival)

    /// The events of a collector's answer (`{"events": [...], "more": false}`), with their ids.
    ///
    /// Each event becomes the envelope a Tally client would have made, as the collector's
    /// `GET /tally/records` writes it: a Segment `page` is a screen; identify and alias carry their user id
    /// in the event, an alias's previous id is the envelope's user id; the message id is the client's when
    /// it is in Tally's form, else the collector's id. A Tally record keeps its purpose, the consent it was
    /// delivered with and its stage; an event in a vendor's format has the default purpose (analytics), no
    /// consent, and is delivered. A collector that predates them sends none of the three: the same
    /// defaults.
    ///
    /// - Throws: ``CollectorReaderError`` when the answer is not the collector's JSON, or names a consent
    ///   or stage this version does not know.
    static func events(in body: Data) throws -> (events: [Read], more: Bool) {
        let answer: PropertyValue
        do {
            answer = try PropertyValue(jsonBytes: body)
        } catch {
            throw CollectorReaderError("The collector's answer is not JSON: \(error)")
        }
        guard case .array(let items)? = answer.objectValue?["events"] else {
            throw CollectorReaderError(
                "The collector's answer has no events: \(String(decoding: body.prefix(200), as: UTF8.self))")
        }
        var events: [Read] = []
        events.reserveCapacity(items.count)
        for item in items {
            guard let fields = item.objectValue, let id = fields["id"]?.intValue,
                let kindName = fields["kind"]?.stringValue,
                let kind = Event.Kind(rawValue: kindName)
            else {
                throw CollectorReaderError("The collector's answer has an event without id or kind: \(item)")
            }
            let userId = fields["user_id"]?.stringValue
            let event = Event(
                kind: kind, name: fields["name"]?.stringValue ?? "",
                properties: fields["properties"]?.objectValue ?? [:],
                userId: kind == .identify || kind == .alias ? userId : nil, groupId: fields["group_id"]?.stringValue,
                purpose: fields["purpose"]?.stringValue.map(ConsentPurpose.init(rawValue:)) ?? .analytics)
            let timestamp =
                fields["timestamp"]?.stringValue.flatMap(ISO8601.date(from:))
                ?? fields["received_at"]?.stringValue.flatMap(ISO8601.date(from:)) ?? Date(timeIntervalSince1970: 0)
            let envelope = Envelope(
                event: event,
                messageId: fields["message_id"]?.stringValue.flatMap(MessageID.init)
                    ?? MessageID(prefix: 0, sequence: UInt64(id)),
                timestamp: timestamp, userId: kind == .alias ? fields["previous_id"]?.stringValue : userId,
                anonymousId: fields["anonymous_id"]?.stringValue ?? "", context: fields["context"]?.objectValue ?? [:],
                consent: try member("consent", of: fields, as: DeliveredConsent.self))
            let arrival = DeliveryComparison.Arrival(
                event: event, messageId: fields["message_id"]?.stringValue, userId: userId,
                vendor: fields["source"]?.stringValue ?? "")
            let stage = try member("stage", of: fields, as: Record.Stage.self) ?? .delivered
            events.append((Int64(id), envelope, stage, arrival))
        }
        return (events, answer.objectValue?["more"]?.boolValue ?? false)
    }

    /// The value the member `name` of an event holds: nil when it is absent or `null`.
    ///
    /// - Throws: ``CollectorReaderError`` for a value this version does not know, rather than reading the
    ///   event as if it said nothing.
    private static func member<Value: RawRepresentable<String> & CaseIterable>(
        _ name: String, of fields: [String: PropertyValue], as _: Value.Type
    ) throws -> Value? {
        guard let value = fields[name], !value.isNull else { return nil }
        guard let text = value.stringValue, let known = Value(rawValue: text) else {
            let names = Value.allCases.map(\.rawValue).joined(separator: ", ")
            throw CollectorReaderError(
                "The collector's answer has an event whose \(name) is \(value.jsonString), not one of \(names)")
        }
        return known
    }
}
