import Tally

/// How much of a tracking plan a set of events exercised: which planned events were seen and how often,
/// which of their properties were set, and which enum values were sent.
///
/// Compute it from any events, for example those a test run recorded:
///
/// ```swift
/// let coverage = PlanCoverage(plan: plan, events: recordedEvents)
/// print(coverage.renderTable())                       // a terminal table
/// let regressions = coverage.regressions(since: baseline)
/// ```
///
/// Events are matched to the plan as ``PlanValidator`` matches them: track and screen events by kind and
/// name, identify, group and alias events by kind. Events the plan does not have are listed in
/// ``unplannedEvents``. Properties are counted at the top level of each event; enum values for top-level
/// properties with an `enum`.
public struct PlanCoverage: Sendable, Hashable, Codable {
    /// Coverage of one planned event.
    public struct EventCoverage: Sendable, Hashable, Codable {
        /// The planned event's name.
        public var name: String
        /// The planned event's kind.
        public var kind: Event.Kind
        /// How many events matched it.
        public var count: Int
        /// Its planned properties, sorted by name.
        public var properties: [PropertyCoverage]

        /// Creates an event's coverage.
        public init(name: String, kind: Event.Kind, count: Int, properties: [PropertyCoverage]) {
            self.name = name
            self.kind = kind
            self.count = count
            self.properties = properties
        }

        /// Whether any event matched it.
        public var isSeen: Bool { count > 0 }
    }

    /// Coverage of one planned property of one event.
    public struct PropertyCoverage: Sendable, Hashable, Codable {
        /// The property's name.
        public var name: String
        /// How many matching events carried it.
        public var count: Int
        /// The planned `enum` values, when the property has an enum.
        public var plannedValues: [PropertyValue]?
        /// The planned values that were sent, in planned order.
        public var seenValues: [PropertyValue]

        /// Creates a property's coverage.
        public init(name: String, count: Int, plannedValues: [PropertyValue]?, seenValues: [PropertyValue]) {
            self.name = name
            self.count = count
            self.plannedValues = plannedValues
            self.seenValues = seenValues
        }

        /// Whether any matching event carried it.
        public var isSeen: Bool { count > 0 }
        /// The planned values never sent.
        public var unseenValues: [PropertyValue] {
            (plannedValues ?? []).filter { planned in !seenValues.contains(planned) }
        }
    }

    /// An event seen that the plan does not have. Identify, group and alias events, which a plan describes
    /// once per kind, are counted by kind, whatever their ids.
    public struct UnplannedEvent: Sendable, Hashable, Codable {
        /// Its name; for identify, group and alias events, the `Event.reportName` of the first one seen,
        /// such as `identify user-42`.
        public var name: String
        /// Its kind.
        public var kind: Event.Kind
        /// How many times it was seen.
        public var count: Int
        /// For identify, group and alias events: whether some carried other ids than the first.
        public var otherIds: Bool

        /// Creates an entry.
        public init(name: String, kind: Event.Kind, count: Int, otherIds: Bool = false) {
            self.name = name
            self.kind = kind
            self.count = count
            self.otherIds = otherIds
        }

        /// `track "promo_shown"`, `identify user-42`, `identify user-42 and other ids`.
        public var title: String {
            guard !kind.matchesByName else { return kind.printed(name) }
            let first = name.isEmpty ? kind.rawValue : name
            return otherIds ? first + " and other ids" : first
        }

        private enum CodingKeys: String, CodingKey {
            case name, kind, count, otherIds
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            kind = try container.decode(Event.Kind.self, forKey: .kind)
            count = try container.decode(Int.self, forKey: .count)
            // Written only when true (and reports written before it have no such key).
            otherIds = try container.decodeIfPresent(Bool.self, forKey: .otherIds) ?? false
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(kind, forKey: .kind)
            try container.encode(count, forKey: .count)
            if otherIds { try container.encode(otherIds, forKey: .otherIds) }
        }
    }

    /// Seen and planned counts for one measure.
    public struct Measure: Sendable, Hashable, Codable {
        /// How many were seen.
        public var seen: Int
        /// How many are planned.
        public var planned: Int

        /// Creates a measure.
        public init(seen: Int, planned: Int) {
            self.seen = seen
            self.planned = planned
        }
        /// `seen / planned`, or 1 when nothing is planned.
        public var ratio: Double { planned == 0 ? 1 : Double(seen) / Double(planned) }
    }

    /// Every planned event, sorted by kind then name.
    public var events: [EventCoverage]
    /// Events seen that the plan does not have, sorted by kind then name.
    public var unplannedEvents: [UnplannedEvent]

    /// Measures how much of `plan` the `events` exercised.
    public init(plan: TrackingPlan, events: some Sequence<Event>) {
        var coverage: [EventCoverage] = plan.events.map { planned in
            EventCoverage(
                name: planned.name, kind: planned.kind, count: 0,
                properties: planned.properties.keys.sorted().map { name in
                    PropertyCoverage(
                        name: name.string, count: 0, plannedValues: planned.properties[name]!.enumValues, seenValues: []
                    )
                })
        }
        var unplanned: [String: UnplannedEvent] = [:]
        // Planned events by kind and name (by kind alone for kinds whose names are ids); the first wins,
        // as a linear search would.
        var byName: [Event.Kind: [String: Int]] = [:]
        var byKind: [Event.Kind: Int] = [:]
        for (index, planned) in plan.events.enumerated() {
            if planned.kind.matchesByName {
                if byName[planned.kind]?[planned.name] == nil {
                    byName[planned.kind, default: [:]][planned.name] = index
                }
            } else if byKind[planned.kind] == nil {
                byKind[planned.kind] = index
            }
        }
        for event in events {
            let found = event.kind.matchesByName ? byName[event.kind]?[event.name] : byKind[event.kind]
            guard let index = found else {
                let key = event.kind.matchesByName ? "\(event.kind.rawValue) \(event.name)" : event.kind.rawValue
                if let existing = unplanned[key] {
                    unplanned[key]!.count += 1
                    if !event.kind.matchesByName && !existing.otherIds && existing.name != event.reportName {
                        unplanned[key]!.otherIds = true
                    }
                } else {
                    let name = event.kind.matchesByName ? event.name : event.reportName
                    unplanned[key] = UnplannedEvent(name: name, kind: event.kind, count: 1)
                }
                continue
            }
            coverage[index].count += 1
            for position in coverage[index].properties.indices {
                let property = coverage[index].properties[position]
                guard let value = event.properties[property.name] else { continue }
                coverage[index].properties[position].count += 1
                if let planned = property.plannedValues,
                    let match = planned.first(where: { JSONEquality.equal($0, value) }),
                    !property.seenValues.contains(match)
                {
                    let seen = property.seenValues + [match]
                    coverage[index].properties[position].seenValues = planned.filter { seen.contains($0) }
                }
            }
        }
        self.events = coverage.sorted(by: Self.order)
        self.unplannedEvents = unplanned.values.sorted { ($0.kind.order, $0.name) < ($1.kind.order, $1.name) }
    }

    private static func order(_ a: EventCoverage, _ b: EventCoverage) -> Bool {
        (a.kind.order, a.name) < (b.kind.order, b.name)
    }

    // MARK: Totals

    /// Planned events seen.
    public var eventMeasure: Measure { Measure(seen: events.filter(\.isSeen).count, planned: events.count) }

    /// Planned properties seen, over all events.
    public var propertyMeasure: Measure {
        let properties = events.flatMap(\.properties)
        return Measure(seen: properties.filter(\.isSeen).count, planned: properties.count)
    }

    /// Planned enum values sent, over all enum properties.
    public var enumValueMeasure: Measure {
        let properties = events.flatMap(\.properties)
        return Measure(
            seen: properties.reduce(0) { $0 + $1.seenValues.count },
            planned: properties.reduce(0) { $0 + ($1.plannedValues?.count ?? 0) })
    }

    /// Planned events seen, per kind that the plan has.
    public var eventMeasureByKind: [Event.Kind: Measure] {
        Dictionary(grouping: events, by: \.kind).mapValues {
            Measure(seen: $0.filter(\.isSeen).count, planned: $0.count)
        }
    }
}

extension Event.Kind {
    /// The order kinds are listed in: track, screen, identify, group, alias.
    var order: Int { Self.allCases.firstIndex(of: self)! }
}
