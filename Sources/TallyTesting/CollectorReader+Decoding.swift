import Foundation
import Tally

extension CollectorReader {
    /// The events of a collector's answer (`{"events": [...], "more": false}`), with their ids.
    ///
    /// Each event becomes the envelope a Tally client would have made: a Segment `page` is a screen;
    /// identify and alias carry their user id in the event, an alias's previous id is the envelope's user
    /// id; the message id is the client's when it is in Tally's form, else the collector's id.
    ///
    /// - Throws: ``CollectorReaderError`` when the answer is not the collector's JSON.
    static func events(
        in body: Data
    ) throws -> (events: [(id: Int64, envelope: Envelope, arrival: DeliveryComparison.Arrival)], more: Bool) {
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
        var events: [(id: Int64, envelope: Envelope, arrival: DeliveryComparison.Arrival)] = []
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
                userId: kind == .identify || kind == .alias ? userId : nil, groupId: fields["group_id"]?.stringValue)
            let timestamp =
                fields["timestamp"]?.stringValue.flatMap(ISO8601.date(from:))
                ?? fields["received_at"]?.stringValue.flatMap(ISO8601.date(from:)) ?? Date(timeIntervalSince1970: 0)
            let envelope = Envelope(
                event: event,
                messageId: fields["message_id"]?.stringValue.flatMap(MessageID.init)
                    ?? MessageID(prefix: 0, sequence: UInt64(id)),
                timestamp: timestamp, userId: kind == .alias ? fields["previous_id"]?.stringValue : userId,
                anonymousId: fields["anonymous_id"]?.stringValue ?? "", context: fields["context"]?.objectValue ?? [:])
            let arrival = DeliveryComparison.Arrival(
                event: event, messageId: fields["message_id"]?.stringValue, userId: userId,
                vendor: fields["source"]?.stringValue ?? "")
            events.append((Int64(id), envelope, arrival))
        }
        return (events, answer.objectValue?["more"]?.boolValue ?? false)
    }
}
