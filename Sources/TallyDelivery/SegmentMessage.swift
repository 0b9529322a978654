#if Delivery
import Foundation
import Tally

/// An event as one message of Segment's HTTP tracking API, in JSON.
///
/// | event kind | fields |
/// |---|---|
/// | `Event.Kind.track` | `"type":"track"`, `event` (the name), `properties` |
/// | `Event.Kind.screen` | `"type":"screen"`, `name`, `properties` |
/// | `Event.Kind.identify` | `"type":"identify"`, `userId` (the event's `Event.userId`), `traits` |
/// | `Event.Kind.group` | `"type":"group"`, `groupId` (the event's `Event.groupId`), `traits` |
/// | `Event.Kind.alias` | `"type":"alias"`, `userId` (the new id, the event's `Event.userId`), `previousId` (the id the event was tracked with) |
///
/// Every message also has `anonymousId`, `userId` when known, `messageId` (the envelope's, so a message
/// sent twice is deduplicated by the server), `timestamp` (ISO 8601, milliseconds, UTC) and `context`:
/// the envelope's context, with `library` set to Tally's name and version unless a processor set it. The
/// batch adds `sentAt` when it is sent.
enum SegmentMessage {
    /// The library Tally names in each message's `context.library`.
    static let library: PropertyValue = .object(["name": "tally", "version": .string(TallyLibrary.version)])

    /// The message's compact JSON.
    static func encode(_ envelope: Envelope) -> [UInt8] {
        let event = envelope.event
        var writer = JSONWriter()
        writer.bytes.reserveCapacity(256)
        writer.writeRaw("{\"type\":")
        writer.writeString(event.kind.rawValue)
        var userId = envelope.userId
        switch event.kind {
        case .track:
            writer.writeRaw(",\"event\":")
            writer.writeString(event.name)
            writer.writeRaw(",\"properties\":")
            writer.writeObject(event.properties)
        case .screen:
            writer.writeRaw(",\"name\":")
            writer.writeString(event.name)
            writer.writeRaw(",\"properties\":")
            writer.writeObject(event.properties)
        case .identify:
            userId = event.userId ?? userId
            writer.writeRaw(",\"traits\":")
            writer.writeObject(event.properties)
        case .group:
            writer.writeRaw(",\"groupId\":")
            writer.writeString(event.groupId ?? "")
            writer.writeRaw(",\"traits\":")
            writer.writeObject(event.properties)
        case .alias:
            userId = event.userId ?? userId
            writer.writeRaw(",\"previousId\":")
            writer.writeString(envelope.distinctId)
        }
        if let userId {
            writer.writeRaw(",\"userId\":")
            writer.writeString(userId)
        }
        writer.writeRaw(",\"anonymousId\":")
        writer.writeString(envelope.anonymousId)
        writer.writeRaw(",\"messageId\":\"")
        writer.writeRaw(envelope.messageId.description)
        writer.writeRaw("\",\"timestamp\":\"")
        writer.writeRaw(ISO8601.string(from: envelope.timestamp))
        writer.writeRaw("\",\"context\":")
        if envelope.context["library"] == nil {
            var context = envelope.context
            context["library"] = library
            writer.writeObject(context)
        } else {
            writer.writeObject(envelope.context)
        }
        writer.writeRaw("}")
        return writer.bytes
    }

    /// The opening of a batch body, before the first message.
    static let batchOpening = Array("{\"batch\":[".utf8)

    /// The end of a batch body sent at `sentAt`, after the last message.
    static func batchClosing(sentAt: Date) -> [UInt8] {
        Array("],\"sentAt\":\"\(ISO8601.string(from: sentAt))\"}".utf8)
    }

    /// The bytes a batch body adds around its messages: the opening, the closing and the commas.
    static func batchOverhead(messages: Int) -> Int {
        batchOpening.count + batchClosing(sentAt: Date(timeIntervalSince1970: 0)).count + max(0, messages - 1)
    }
}
#endif
