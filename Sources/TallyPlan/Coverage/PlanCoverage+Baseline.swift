import Foundation
import Tally

/// Comparing coverage with an earlier run's, to name what is no longer exercised.
extension PlanCoverage {
    /// Something a baseline exercised that this coverage does not.
    public struct Regression: Sendable, Hashable, Codable, CustomStringConvertible {
        /// What was lost.
        public enum Kind: String, Sendable, Hashable, Codable {
            /// A planned event the baseline saw is no longer seen.
            case eventNoLongerSeen
            /// A property the baseline saw set is no longer set.
            case propertyNoLongerSeen
            /// An enum value the baseline saw sent is no longer sent.
            case enumValueNoLongerSeen
            /// A planned event was seen a different number of times than in the baseline (see
            /// ``PlanCoverage/countChanges(since:)``).
            case countChanged
        }

        /// What was lost.
        public var kind: Kind
        /// The event's kind.
        public var eventKind: Event.Kind
        /// The event's name.
        public var eventName: String
        /// The property, for property and enum value regressions.
        public var property: String?
        /// The enum value, for enum value regressions.
        public var value: PropertyValue?
        /// How many times the baseline saw the event, for count changes.
        public var baselineCount: Int?
        /// How many times this run saw the event, for count changes.
        public var count: Int?

        /// Creates a regression.
        ///
        /// - Parameters:
        ///   - kind: what was lost or changed.
        ///   - eventKind: the event's kind.
        ///   - eventName: the event's name.
        ///   - property: the property, for property and enum value regressions.
        ///   - value: the enum value, for enum value regressions.
        ///   - baselineCount: the baseline's count, for count changes.
        ///   - count: this run's count, for count changes.
        public init(
            kind: Kind, eventKind: Event.Kind, eventName: String, property: String? = nil, value: PropertyValue? = nil,
            baselineCount: Int? = nil, count: Int? = nil
        ) {
            self.kind = kind
            self.eventKind = eventKind
            self.eventName = eventName
            self.property = property
            self.value = value
            self.baselineCount = baselineCount
            self.count = count
        }

        /// One line, such as `track "checkout_started": property coupon is no longer seen`.
        public var description: String {
            let event = eventKind.printed(eventName)
            switch kind {
            case .eventNoLongerSeen: return "\(event) is no longer seen"
            case .propertyNoLongerSeen: return "\(event): property \(property ?? "") is no longer seen"
            case .enumValueNoLongerSeen:
                return "\(event): value \(value?.jsonString ?? "") of \(property ?? "") is no longer seen"
            case .countChanged:
                let was = baselineCount ?? 0
                return "\(event) was seen \(was) time\(was == 1 ? "" : "s") in the baseline, \(count ?? 0) now"
            }
        }
    }

    /// What `baseline` exercised that this coverage does not, in event order. Empty when nothing regressed.
    ///
    /// Events, properties and values the plan no longer has are not regressions.
    public func regressions(since baseline: PlanCoverage) -> [Regression] {
        var regressions: [Regression] = []
        for old in baseline.events where old.isSeen {
            guard let new = events.first(where: { $0.kind == old.kind && $0.name == old.name }) else { continue }
            guard new.isSeen else {
                regressions.append(Regression(kind: .eventNoLongerSeen, eventKind: old.kind, eventName: old.name))
                continue
            }
            for oldProperty in old.properties where oldProperty.isSeen {
                guard let newProperty = new.properties.first(where: { $0.name == oldProperty.name }) else { continue }
                guard newProperty.isSeen else {
                    regressions.append(
                        Regression(
                            kind: .propertyNoLongerSeen, eventKind: old.kind, eventName: old.name,
                            property: oldProperty.name))
                    continue
                }
                // JSON equality: a baseline read back from JSON may spell 1.0 as 1.
                for value in oldProperty.seenValues
                where !newProperty.seenValues.contains(where: { JSONEquality.equal($0, value) })
                    && (newProperty.plannedValues ?? []).contains(where: { JSONEquality.equal($0, value) })
                {
                    regressions.append(
                        Regression(
                            kind: .enumValueNoLongerSeen, eventKind: old.kind, eventName: old.name,
                            property: oldProperty.name, value: value))
                }
            }
        }
        return regressions
    }

    /// The planned events seen a different number of times than in `baseline`, in event order: an event
    /// logged twice, or once where it was logged twice. Empty when every count is the baseline's.
    ///
    /// Counts are compared for events in both the plan and the baseline. An event the baseline saw and
    /// this run did not is a ``Regression/Kind/eventNoLongerSeen`` regression of ``regressions(since:)``,
    /// not a count change; an event the baseline never saw that is seen now is a count change (from 0).
    ///
    /// ```swift
    /// for change in coverage.countChanges(since: baseline) { print(change) }
    /// // track "login_tapped" was seen 4 times in the baseline, 8 now
    /// ```
    ///
    /// - Parameter baseline: an earlier run's coverage, as ``init(json:)`` reads it.
    /// - Returns: one ``Regression/Kind/countChanged`` regression per event whose count changed.
    public func countChanges(since baseline: PlanCoverage) -> [Regression] {
        baseline.events.compactMap { old in
            guard let new = events.first(where: { $0.kind == old.kind && $0.name == old.name }),
                new.count != old.count, new.isSeen
            else { return nil }
            return Regression(
                kind: .countChanged, eventKind: old.kind, eventName: old.name, baselineCount: old.count,
                count: new.count)
        }
    }

    /// Reads coverage written by ``renderJSON()``, for use as a baseline.
    public init(json: Data) throws {
        self = try JSONDecoder().decode(PlanCoverage.self, from: json)
    }
}
