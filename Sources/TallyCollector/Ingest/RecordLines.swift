#if Collector
import Foundation
import HTTPTypes
import Tally

/// Reads a body of Tally records (JSON Lines, as `RecordingDestination` writes them) into events.
enum RecordLines {
    /// Reads every line; blank lines are skipped.
    ///
    /// - Throws: ``APIError`` 400 naming the first line that is not a record, 400 `too_large` for a line over 32 KB.
    ///   Nothing of the body is stored then.
    static func events(_ bytes: [UInt8], context: IngestContext) throws(APIError) -> [(
        stored: StoredEvent, event: Event?
    )] {
        var events: [(stored: StoredEvent, event: Event?)] = []
        var lineNumber = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            if line.count > IngestBody.maximumMessageBytes {
                throw .tooLarge(
                    "Line \(lineNumber) is \(line.count) bytes; the limit for one record is 32 KB (\(IngestBody.maximumMessageBytes) bytes)"
                )
            }
            let record: Record
            do {
                record = try Record(line: line)
            } catch {
                throw APIError(
                    .badRequest, "invalid_record", "Line \(lineNumber) is not a Tally record: \(error.message)")
            }
            events.append(stored(record, context: context))
        }
        return events
    }

    /// A record as the collector stores it: its event and envelope, with its purpose, the consent it was
    /// delivered with, its stage and its origin. Its `source` (who wrote it) is not kept: the stored
    /// `source` is the API it came through, `tally`.
    static func stored(_ record: Record, context: IngestContext) -> (stored: StoredEvent, event: Event?) {
        let envelope = record.envelope
        let event = envelope.event
        let type = MessageType(event.kind)
        var userId = envelope.userId
        var previousId: String?
        switch event.kind {
        case .identify: userId = event.userId ?? envelope.userId
        case .alias:
            userId = event.userId
            previousId = envelope.userId
        case .track, .screen, .group: break
        }
        let session: String
        if case .string(let tagged)? = envelope.context[SegmentMessage.sessionContextKey] {
            session = tagged
        } else {
            session = context.session
        }
        let unset = MessageID(prefix: 0, sequence: 0)
        let stored = StoredEvent(
            receivedAt: context.receivedAt, session: session, source: .tally, type: type, name: event.name,
            properties: event.properties.jsonString, userId: userId,
            anonymousId: envelope.anonymousId.isEmpty ? nil : envelope.anonymousId, groupId: event.groupId,
            previousId: previousId, messageId: envelope.messageId == unset ? nil : envelope.messageId.description,
            timestamp: envelope.timestamp.timeIntervalSince1970 == 0 ? nil : ISO8601.string(from: envelope.timestamp),
            context: envelope.context.jsonString, writeKey: nil, purpose: event.purpose, consent: envelope.consent,
            stage: record.stage, origin: record.origin)
        return (stored, event)
    }
}
#endif
