import Foundation

/// One recorded event: a line of a Tally recording.
///
/// ## The record format
/// A recording is JSON Lines: one JSON object per line, each line complete on its own, so a recording
/// stays readable when the app dies mid-write (at worst the last line is incomplete and readers skip it).
/// Every line carries the format version, so files can be concatenated and read by later versions:
///
/// ```json
/// {"tally_record":1,"kind":"track","name":"menu_item_ordered","properties":{"item_name":"Pizza"},"message_id":"8f14e45f-ceea-167a-0000-000000000001","timestamp":"2026-11-22T03:17:53.120Z","anonymous_id":"4c1d…","user_id":null,"context":{},"source":"app"}
/// ```
///
/// | key | meaning |
/// |---|---|
/// | `tally_record` | the format version, ``currentVersion`` (1) |
/// | `kind`, `name`, `properties` | what the app said (``Event``); `name` is empty for identify, group and alias |
/// | `event_user_id`, `group_id` | the ids an identify or alias event (``Event/userId``) or a group event (``Event/groupId``) carries; absent otherwise |
/// | `message_id`, `timestamp`, `anonymous_id`, `user_id`, `context` | what the client added (``Envelope``) |
/// | `source` | who wrote the line, such as the process name or a test's name |
/// | `purpose` | optional: the event's consent purpose (``Event/purpose``); absent for ``ConsentPurpose/analytics``, the default |
/// | `consent` | optional: what the client knew of the user's consent for the event's purpose when it delivered it (``Envelope/consent``): `granted`, `denied`, `not_asked`, or `not_required` when the client did not gate the purpose; absent when the client used no consent, and in records written before Tally recorded it |
/// | `origin` | optional: the source location (`path:line`) of the code that recorded the event, such as the line that created a test's spy; absent when unknown (readers of older versions ignore it) |
/// | `stage` | optional: `tracked` when the event was recorded as the app tracked it, before any client's processors ran (a spy's records: ``Stage/tracked``); absent for an event as a client delivered it (``Stage/delivered``) |
///
/// Keys inside `properties` and `context` are written sorted; numbers keep their integer or double form.
/// `properties` and `context` hold values nested at most ``PropertyValue/maximumDepth`` (64) levels, as
/// everywhere: a deeper array or object is written as `null` (``RecordingDestination`` reports it) and a
/// line holding one is refused when read.
public struct Record: Sendable, Hashable {
    /// The version this library writes and reads.
    public static let currentVersion = 1

    /// The event and what the client added to it.
    public var envelope: Envelope
    /// Who wrote the record, such as `LoginExample` or a test name; empty when unknown.
    public var source: String
    /// Where in the source the event was recorded, as `path:line`: the line that created the recorder
    /// (TallyTesting's spies and in-memory destinations, a ``RecordingDestination``), so `tally validate` and
    /// `tally coverage` can name the test or the app code behind a failure. Nil when unknown.
    public var origin: String?
    /// Where in an event's flow it was recorded: as the app tracked it (a spy), or as a client delivered it
    /// (a destination). Default ``Stage/delivered``.
    public var stage: Stage

    /// Where in an event's flow a record was made, so that whoever checks it against a tracking plan knows
    /// whether the client's rules (personal data, consent) had run.
    ///
    /// A spy stands in for the client, so what it records is what the app handed over: a property the plan
    /// says to hash is still in the clear there, as it should be. `tally validate`, `tally coverage` and
    /// `expectValid(against:)` apply the plan's rules to a ``tracked`` record before judging it, and judge a
    /// ``delivered`` one as it is.
    public enum Stage: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        /// As the app tracked it, before any client's processors or consent gate: what spies record
        /// (`"stage":"tracked"` in a record).
        case tracked
        /// As a client handed it to a destination, after its processors and consent gate: what destinations
        /// record. A record without `stage` is one.
        case delivered

        public var description: String { rawValue }
    }

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - envelope: the event and what the client added to it.
    ///   - source: who wrote the record.
    ///   - origin: the source location that recorded the event, as `path:line`; nil when unknown.
    ///   - stage: where in the event's flow it was recorded; a destination's by default.
    public init(envelope: Envelope, source: String = "", origin: String? = nil, stage: Stage = .delivered) {
        self.envelope = envelope
        self.source = source
        self.origin = origin
        self.stage = stage
    }

    /// What the app said.
    public var event: Event { envelope.event }

    /// The record as one line of JSON, with its trailing newline.
    ///
    /// Arrays and objects nested past ``PropertyValue/maximumDepth`` levels are written as `null`.
    public var line: [UInt8] { encodedLine().bytes }

    /// The record as one line of JSON, and how many arrays and objects nested too deep were written as
    /// `null`.
    package func encodedLine() -> (bytes: [UInt8], cutContainers: Int) {
        var writer = JSONWriter()
        writer.writeRaw(#"{"tally_record":"#)
        writer.writeRaw(String(Self.currentVersion))
        writer.writeRaw(#","kind":"#)
        writer.writeString(envelope.event.kind.rawValue)
        writer.writeRaw(#","name":"#)
        writer.writeString(envelope.event.name)
        writer.writeRaw(#","properties":"#)
        writer.writeObject(envelope.event.properties)
        if let userId = envelope.event.userId {
            writer.writeRaw(#","event_user_id":"#)
            writer.writeString(userId)
        }
        if let groupId = envelope.event.groupId {
            writer.writeRaw(#","group_id":"#)
            writer.writeString(groupId)
        }
        if envelope.event.purpose != .analytics {
            writer.writeRaw(#","purpose":"#)
            writer.writeString(envelope.event.purpose.rawValue)
        }
        writer.writeRaw(#","message_id":"#)
        writer.writeString(envelope.messageId.description)
        writer.writeRaw(#","timestamp":"#)
        writer.writeString(ISO8601.string(from: envelope.timestamp))
        writer.writeRaw(#","anonymous_id":"#)
        writer.writeString(envelope.anonymousId)
        writer.writeRaw(#","user_id":"#)
        if let userId = envelope.userId { writer.writeString(userId) } else { writer.writeRaw("null") }
        writer.writeRaw(#","context":"#)
        writer.writeObject(envelope.context)
        writer.writeRaw(#","source":"#)
        writer.writeString(source)
        if let consent = envelope.consent {
            writer.writeRaw(#","consent":"#)
            writer.writeString(consent.rawValue)
        }
        if let origin {
            writer.writeRaw(#","origin":"#)
            writer.writeString(origin)
        }
        if stage == .tracked {
            writer.writeRaw(#","stage":"tracked""#)
        }
        writer.writeRaw("}\n")
        return (writer.bytes, writer.cutContainers)
    }

    /// Reads one line written by ``line`` (with or without its newline).
    ///
    /// Missing envelope fields get neutral values (`message_id` 0, `timestamp` 1970, empty anonymous id), so
    /// hand-written recordings need only `tally_record`, `kind` and `name` (or, for identify, group and
    /// alias, the id they carry).
    ///
    /// - Throws: ``RecordError`` when the line is not JSON (strings must be valid UTF-8, values nested at
    ///   most ``PropertyValue/maximumDepth`` levels), not an object, has another version, lacks `kind` or
    ///   `name`, has `properties` or `context` that are not objects, or a `consent` other than `granted`,
    ///   `denied`, `not_asked` or `not_required`, or a `stage` other than `tracked` or `delivered`.
    public init(line: some Collection<UInt8>) throws(RecordError) {
        let parsed: Fields
        do {
            if let fields = try line.withContiguousStorageIfAvailable({ try Fields($0) }) {
                parsed = fields
            } else {
                parsed = try Array(line).withUnsafeBufferPointer { try Fields($0) }
            }
        } catch let error as JSONError {
            throw RecordError(
                error.message == "Expected a JSON object"
                    ? "A record must be a JSON object" : "Not valid JSON: \(error)")
        } catch {
            throw RecordError("\(error)")
        }
        if let member = parsed.notAnObject { throw Self.notAnObject(member) }
        guard let version = parsed.version else {
            throw RecordError("Missing \"tally_record\" version; this is not a Tally record")
        }
        guard version == Self.currentVersion else {
            throw RecordError(
                "Record version \(version) is not supported; this library reads version \(Self.currentVersion)")
        }
        guard let kindName = parsed.kind, let kind = Event.Kind(rawValue: kindName) else {
            throw RecordError("\"kind\" must be one of \(Event.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let event = try Self.event(
            kind: kind, name: parsed.name, properties: parsed.properties, userId: parsed.eventUserId,
            groupId: parsed.groupId, purpose: parsed.purpose)
        envelope = Envelope(
            event: event,
            messageId: parsed.messageId.flatMap(MessageID.init) ?? MessageID(prefix: 0, sequence: 0),
            timestamp: parsed.timestamp.flatMap(ISO8601.date(from:)) ?? Date(timeIntervalSince1970: 0),
            userId: parsed.userId, anonymousId: parsed.anonymousId ?? "", context: parsed.context,
            consent: try Self.consent(parsed.consent))
        source = parsed.source ?? ""
        origin = parsed.origin
        stage = try Self.stage(parsed.stage)
    }

    /// The members of a record line, read without building a dictionary for the record itself.
    private struct Fields {
        var version: Int?
        var kind: String?
        var name: String?
        var properties: [String: PropertyValue] = [:]
        var eventUserId: String?
        var groupId: String?
        var purpose: String?
        var messageId: String?
        var timestamp: String?
        var anonymousId: String?
        var userId: String?
        var context: [String: PropertyValue] = [:]
        var source: String?
        var origin: String?
        var consent: PropertyValue?
        var stage: PropertyValue?
        /// The first of `properties` and `context` that was not an object.
        var notAnObject: String?

        init(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) {
            var fields = Fields()
            try JSONReader.readMembers(bytes) { key, reader throws(JSONError) in
                // `properties` and `context` are frames (level 0), like `Event.properties`.
                let value: PropertyValue
                switch key {
                case "properties", "context": value = try reader.nextObject().map(PropertyValue.object) ?? .null
                default: value = try reader.nextValue()
                }
                switch key {
                case "tally_record": fields.version = value.intValue ?? (value.isNull ? nil : -1)
                case "kind": fields.kind = value.stringValue
                case "name": fields.name = value.stringValue
                case "properties":
                    guard let object = value.objectValue else {
                        return fields.notAnObject = fields.notAnObject ?? "properties"
                    }
                    fields.properties = object
                case "event_user_id": fields.eventUserId = value.stringValue
                case "group_id": fields.groupId = value.stringValue
                case "purpose": fields.purpose = value.isNull ? nil : value.stringValue ?? ""
                case "message_id": fields.messageId = value.stringValue
                case "timestamp": fields.timestamp = value.stringValue
                case "anonymous_id": fields.anonymousId = value.stringValue
                case "user_id": fields.userId = value.stringValue
                case "context":
                    guard let object = value.objectValue else {
                        return fields.notAnObject = fields.notAnObject ?? "context"
                    }
                    fields.context = object
                case "source": fields.source = value.stringValue
                case "origin": fields.origin = value.stringValue
                case "consent": fields.consent = value
                case "stage": fields.stage = value
                default: break
                }
            }
            self = fields
        }

        private init() {}
    }
}

extension Record {
    /// Reads only what the app said from a record line: faster than ``init(line:)`` when the envelope
    /// is not needed, as for plan checks and coverage over millions of records.
    ///
    /// - Throws: ``RecordError`` as ``init(line:)`` does.
    public static func event(fromLine line: UnsafeBufferPointer<UInt8>) throws(RecordError) -> Event {
        try eventAndOrigin(fromLine: line).event
    }

    /// Reads what the app said and the record's ``origin`` from a record line, as
    /// ``event(fromLine:)`` does.
    package static func eventAndOrigin(
        fromLine line: UnsafeBufferPointer<UInt8>
    ) throws(RecordError) -> (event: Event, origin: String?) {
        let read = try planFields(fromLine: line)
        return (read.event, read.origin)
    }

    /// Reads what the app said, the record's ``origin`` and ``stage``, and the envelope's
    /// ``Envelope/consent`` from a record line, as ``event(fromLine:)`` does: what plan checks of recordings
    /// need.
    ///
    /// - Throws: ``RecordError`` as ``init(line:)`` does.
    package static func planFields(
        fromLine line: UnsafeBufferPointer<UInt8>
    ) throws(RecordError) -> (event: Event, origin: String?, consent: DeliveredConsent?, stage: Stage) {
        var origin: String?
        var version: Int?
        var kindName: String?
        var name: String?
        var properties: [String: PropertyValue] = [:]
        var userId: String?
        var groupId: String?
        var purpose: String?
        var consent: PropertyValue?
        var stage: PropertyValue?
        var notAnObject: String?
        do {
            try JSONReader.readMembers(line) { key, reader throws(JSONError) in
                switch key {
                case "tally_record": version = try reader.nextValue().intValue ?? -1
                case "kind": kindName = try reader.nextValue().stringValue
                case "name": name = try reader.nextValue().stringValue
                case "properties":
                    guard let object = try reader.nextObject() else { return notAnObject = notAnObject ?? "properties" }
                    properties = object
                case "context":
                    if reader.isAtObject {
                        try reader.skipValue()
                    } else {
                        _ = try reader.nextValue()
                        notAnObject = notAnObject ?? "context"
                    }
                case "event_user_id": userId = try reader.nextValue().stringValue
                case "group_id": groupId = try reader.nextValue().stringValue
                case "purpose":
                    let value = try reader.nextValue()
                    purpose = value.isNull ? nil : value.stringValue ?? ""
                case "origin": origin = try reader.nextValue().stringValue
                case "consent": consent = try reader.nextValue()
                case "stage": stage = try reader.nextValue()
                default: try reader.skipValue()
                }
            }
        } catch {
            throw RecordError(
                error.message == "Expected a JSON object"
                    ? "A record must be a JSON object" : "Not valid JSON: \(error)")
        }
        if let notAnObject { throw Self.notAnObject(notAnObject) }
        guard let version else { throw RecordError("Missing \"tally_record\" version; this is not a Tally record") }
        guard version == currentVersion else {
            throw RecordError(
                "Record version \(version) is not supported; this library reads version \(currentVersion)")
        }
        guard let kindName, let kind = Event.Kind(rawValue: kindName) else {
            throw RecordError("\"kind\" must be one of \(Event.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let event = try event(
            kind: kind, name: name, properties: properties, userId: userId, groupId: groupId, purpose: purpose)
        return (event, origin, try Self.consent(consent), try Self.stage(stage))
    }

    /// The stage a `stage` member names: ``Stage/delivered`` when absent or `null`.
    private static func stage(_ value: PropertyValue?) throws(RecordError) -> Stage {
        guard let value, !value.isNull else { return .delivered }
        guard let text = value.stringValue, let stage = Stage(rawValue: text) else {
            let names = Stage.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw RecordError("\"stage\" must be one of \(names), not \(value.jsonString)")
        }
        return stage
    }

    /// The answer a `consent` member holds: nil when absent or `null`.
    private static func consent(_ value: PropertyValue?) throws(RecordError) -> DeliveredConsent? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.stringValue, let status = DeliveredConsent(rawValue: text) else {
            let names = DeliveredConsent.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw RecordError("\"consent\" must be one of \(names), not \(value.jsonString)")
        }
        return status
    }

    private static func notAnObject(_ member: String) -> RecordError {
        RecordError("\"\(member)\" must be a JSON object")
    }

    /// The event a record describes: track and screen records need a `name`, identify and alias records an
    /// `event_user_id`, group records a `group_id`.
    private static func event(
        kind: Event.Kind, name: String?, properties: [String: PropertyValue], userId: String?, groupId: String?,
        purpose: String?
    ) throws(RecordError) -> Event {
        if purpose?.isEmpty == true {
            throw RecordError("\"purpose\" must be a purpose's name, such as \"advertising\"")
        }
        return try event(kind: kind, name: name, properties: properties, userId: userId, groupId: groupId)
            .needing(purpose.map(ConsentPurpose.init(rawValue:)) ?? .analytics)
    }

    private static func event(
        kind: Event.Kind, name: String?, properties: [String: PropertyValue], userId: String?, groupId: String?
    ) throws(RecordError) -> Event {
        switch kind {
        case .track, .screen:
            guard let name else { throw RecordError("Missing \"name\"") }
            return Event(kind: kind, name: name, properties: properties)
        case .identify, .alias:
            guard let userId else { throw RecordError("Missing \"event_user_id\" for \(kind.rawValue)") }
            return Event(kind: kind, name: name ?? "", properties: properties, userId: userId)
        case .group:
            guard let groupId else { throw RecordError("Missing \"group_id\" for group") }
            return Event(kind: kind, name: name ?? "", properties: properties, groupId: groupId)
        }
    }
}

/// A line that is not a readable Tally record.
public struct RecordError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public var message: String
    /// Where, when known: the file and the one-based line number.
    public var file: String?
    public var line: Int?

    public init(_ message: String, file: String? = nil, line: Int? = nil) {
        self.message = message
        self.file = file
        self.line = line
    }

    public var description: String {
        switch (file, line) {
        case (let file?, let line?): return "\(file):\(line): \(message)"
        case (nil, let line?): return "line \(line): \(message)"
        default: return message
        }
    }
}
