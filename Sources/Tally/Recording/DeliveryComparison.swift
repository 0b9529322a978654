import Foundation

/// What an app tracked to a destination, matched against what arrived where that destination's vendor SDK
/// delivered it (a `tally collect` standing in for the vendor): which events went missing, which arrived
/// twice, and which arrived altered.
///
/// An event is matched by message id when the SDK kept Tally's (the adapter passed it as PostHog's `uuid`,
/// Amplitude's `insert_id` or Mixpanel's `$insert_id`), else by content: the same kind and name, the
/// tracked user (for identify and alias, and for any event tracked with a user id), the same group, and every
/// tracked property present with an equal value (numbers compare by value). Properties the SDK adds (`$lib`,
/// `$os`…) are ignored. An event that arrived with the right kind and name but not the right content is
/// *altered*; one that did not arrive at all is *missing*; a second arrival of a matched event is a
/// *duplicate*. What arrived and matches nothing tracked (the SDK's own events) is listed as unexpected
/// without failing the comparison.
///
/// ```swift
/// let tracked = try RecordingFile(folder: recordings).records.map(\.envelope)
/// let comparison = DeliveryComparison(tracked: tracked, arrived: arrivals)
/// #expect(comparison.isComplete, "\(comparison)")
/// ```
public struct DeliveryComparison: Sendable, Hashable, CustomStringConvertible {
    /// One event as it arrived at the collector.
    public struct Arrival: Sendable, Hashable {
        /// The event, as the collector read it.
        public var event: Event
        /// The vendor's message id (PostHog's `uuid`, Amplitude's `insert_id`…); nil when it sent none.
        public var messageId: String?
        /// The user id it arrived with (for an alias, the new id).
        public var userId: String?
        /// The API it was sent to, such as `posthog`; empty when unknown.
        public var vendor: String

        /// Creates an arrival.
        ///
        /// - Parameters:
        ///   - event: the event, as the collector read it.
        ///   - messageId: the vendor's message id; nil when it sent none.
        ///   - userId: the user id it arrived with.
        ///   - vendor: the API it was sent to, such as `posthog`.
        public init(event: Event, messageId: String? = nil, userId: String? = nil, vendor: String = "") {
            self.event = event
            self.messageId = messageId
            self.userId = userId
            self.vendor = vendor
        }
    }

    /// A tracked event that arrived, but not as it was tracked.
    public struct Alteration: Sendable, Hashable {
        /// What the app tracked.
        public var tracked: Envelope
        /// What arrived in its place.
        public var arrived: Arrival
        /// What differs, one line each: `properties.total: 12.5 became 12`.
        public var differences: [String]
    }

    /// A tracked event that arrived more than once.
    public struct Duplicate: Sendable, Hashable {
        /// What the app tracked.
        public var tracked: Envelope
        /// How many times it arrived.
        public var count: Int
    }

    /// Tracked events that did not arrive.
    public private(set) var missing: [Envelope] = []
    /// Tracked events that arrived more than once.
    public private(set) var duplicated: [Duplicate] = []
    /// Tracked events that arrived with other content.
    public private(set) var altered: [Alteration] = []
    /// How many tracked events arrived intact, and how many of those matched by message id.
    public private(set) var matched = 0
    /// How many of ``matched`` were matched by message id.
    public private(set) var matchedById = 0
    /// Arrivals that match nothing tracked: usually the SDK's own events. They do not fail the comparison.
    public private(set) var unexpected: [Arrival] = []

    /// Whether every tracked event arrived once, as it was tracked.
    public var isComplete: Bool { missing.isEmpty && duplicated.isEmpty && altered.isEmpty }

    /// Compares what the app tracked with what arrived.
    ///
    /// - Parameters:
    ///   - tracked: what the app tracked to the destination, such as a Tally recording's envelopes.
    ///   - arrived: what arrived through the vendor's SDK.
    public init(tracked: [Envelope], arrived: [Arrival]) {
        var used = [Bool](repeating: false, count: arrived.count)
        var arrivalFor = [Int?](repeating: nil, count: tracked.count)
        var byId: [String: [Int]] = [:]
        for (index, arrival) in arrived.enumerated() {
            if let id = arrival.messageId?.lowercased() { byId[id, default: []].append(index) }
        }
        // 1. By message id.
        for (index, envelope) in tracked.enumerated() {
            let id = envelope.messageId.description.lowercased()
            guard let candidates = byId[id], let first = candidates.first(where: { !used[$0] }) else { continue }
            used[first] = true
            arrivalFor[index] = first
            matchedById += 1
            for other in candidates where !used[other] {
                used[other] = true
                duplicated.append(Duplicate(tracked: envelope, count: candidates.count))
            }
        }
        // 2. By content, for what the SDK did not keep Tally's id for.
        for (index, envelope) in tracked.enumerated() where arrivalFor[index] == nil {
            if let found = arrived.indices.first(where: {
                !used[$0] && Self.differences(envelope, arrived[$0]).isEmpty
            }) {
                used[found] = true
                arrivalFor[index] = found
            }
        }
        // 3. What is left of the right kind and name arrived altered; nothing at all, missing.
        for (index, envelope) in tracked.enumerated() where arrivalFor[index] == nil {
            if let found = arrived.indices.first(where: {
                !used[$0] && arrived[$0].event.kind == envelope.event.kind
                    && arrived[$0].event.name == envelope.event.name
            }) {
                used[found] = true
                arrivalFor[index] = found
                altered.append(
                    Alteration(
                        tracked: envelope, arrived: arrived[found],
                        differences: Self.differences(envelope, arrived[found])))
            } else {
                missing.append(envelope)
            }
        }
        matched = arrivalFor.compactMap { $0 }.count - altered.count
        // 4. A leftover arrival that matches a tracked event's content is that event once more.
        var duplicates: [Int: Int] = [:]
        for index in arrived.indices where !used[index] {
            if let original = tracked.indices.first(where: {
                arrivalFor[$0] != nil && Self.differences(tracked[$0], arrived[index]).isEmpty
            }) {
                duplicates[original, default: 1] += 1
            } else {
                unexpected.append(arrived[index])
            }
        }
        for (original, count) in duplicates.sorted(by: { $0.key < $1.key }) {
            duplicated.append(Duplicate(tracked: tracked[original], count: count))
        }
    }

    /// What differs between a tracked event and an arrival; empty when the arrival is that event.
    static func differences(_ tracked: Envelope, _ arrival: Arrival) -> [String] {
        let event = tracked.event
        var differences: [String] = []
        if arrival.event.kind != event.kind {
            differences.append("kind: \(event.kind.rawValue) became \(arrival.event.kind.rawValue)")
        }
        if arrival.event.name != event.name { differences.append("name: \(event.name) became \(arrival.event.name)") }
        let user = event.kind == .identify || event.kind == .alias ? event.userId : tracked.userId
        if let user, arrival.userId != user {
            differences.append("user: \(user) became \(arrival.userId ?? "none")")
        }
        if let group = event.groupId, arrival.event.groupId != group {
            differences.append("group: \(group) became \(arrival.event.groupId ?? "none")")
        }
        for (key, value) in event.properties.sorted(by: { $0.key < $1.key }) {
            guard let found = arrival.event.properties[key] else {
                differences.append("properties.\(key): \(value.jsonString) is missing")
                continue
            }
            if !Self.same(value, found) {
                differences.append("properties.\(key): \(value.jsonString) became \(found.jsonString)")
            }
        }
        return differences
    }

    /// Equal values; numbers by value, as a JSON round trip may turn `3` into `3.0`.
    static func same(_ left: PropertyValue, _ right: PropertyValue) -> Bool {
        switch (left, right) {
        case (.int, .double), (.double, .int), (.double, .double): return left.doubleValue == right.doubleValue
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { same($0, $1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count
                && left.allSatisfy { key, value in right[key].map { same(value, $0) } ?? false }
        default: return left == right
        }
    }

    /// A report: one line of counts, then one line per missing, duplicated or altered event.
    public var description: String {
        var lines = [
            "\(matched) delivered intact (\(matchedById) by message id), \(missing.count) missing, "
                + "\(duplicated.count) duplicated, \(altered.count) altered, \(unexpected.count) unexpected"
        ]
        for envelope in missing { lines.append("missing: \(Self.name(envelope)) (\(envelope.messageId))") }
        for duplicate in duplicated {
            lines.append("duplicated: \(Self.name(duplicate.tracked)) arrived \(duplicate.count) times")
        }
        for alteration in altered {
            lines.append(
                "altered: \(Self.name(alteration.tracked)): " + alteration.differences.joined(separator: "; "))
        }
        return lines.joined(separator: "\n")
    }

    /// `track "Signed Out"` for a track or screen event; the ``Envelope/reportName`` of the others, which
    /// says what they carry: `identify user-42`, `group acme`, `alias user-43 <- anon-1`.
    private static func name(_ envelope: Envelope) -> String {
        envelope.event.isNamed && !envelope.event.name.isEmpty
            ? "\(envelope.event.kind.rawValue) \"\(envelope.event.name)\"" : envelope.reportName
    }
}

extension DeliveryComparison.Arrival {
    /// The events of a `tally collect` read API answer (`GET /tally/events`): `{"events": [...]}`.
    ///
    /// - Parameter bytes: the answer's body.
    /// - Returns: the arrivals, and whether more events follow the last one (read them with `after=`).
    /// - Throws: ``JSONError`` for invalid JSON; a ``RecordError`` when the answer has no `events` array.
    public static func arrivals(readAPIAnswer bytes: some Collection<UInt8>) throws -> (arrivals: [Self], more: Bool) {
        let answer = try PropertyValue(jsonBytes: bytes)
        guard case .array(let items)? = answer.objectValue?["events"] else {
            throw RecordError("The collector's answer has no events array")
        }
        var arrivals: [Self] = []
        for item in items {
            guard let fields = item.objectValue, let kind = fields["kind"]?.stringValue.flatMap(Event.Kind.init)
            else { continue }
            let userId = fields["user_id"]?.stringValue
            let event = Event(
                kind: kind, name: fields["name"]?.stringValue ?? "",
                properties: fields["properties"]?.objectValue ?? [:],
                userId: kind == .identify || kind == .alias ? userId : nil, groupId: fields["group_id"]?.stringValue)
            arrivals.append(
                Self(
                    event: event, messageId: fields["message_id"]?.stringValue, userId: userId,
                    vendor: fields["source"]?.stringValue ?? ""))
        }
        return (arrivals, answer.objectValue?["more"]?.boolValue ?? false)
    }
}
