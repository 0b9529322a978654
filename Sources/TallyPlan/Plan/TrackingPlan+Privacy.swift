import Foundation
import Tally

extension TrackingPlan {
    /// Every property the plan marks `personal`, with its event, for Tally's `PersonalDataProcessor`.
    /// Track and screen events are named by their name, identify and group events by their kind (their
    /// traits). A mark without a rule is given `redact`, the strictest rule that keeps the key.
    public var personalProperties: [PersonalProperty] {
        events.flatMap { event in
            event.properties.compactMap { name, schema -> PersonalProperty? in
                guard let mark = schema.personal else { return nil }
                return PersonalProperty(
                    event: event.kind.matchesByName ? event.name : event.kind.rawValue, key: name.string,
                    kind: mark.kind, rule: mark.rule ?? .redact)
            }
        }
        .sorted { ($0.event ?? "", $0.key) < ($1.event ?? "", $1.key) }
    }

    /// A processor that applies the plan's personal-data rules before any destination sees an event.
    ///
    /// ```swift
    /// let analytics = AnalyticsClient(
    ///     processors: [plan.personalDataProcessor(hash: sha256)], destinations: destinations)
    /// ```
    ///
    /// - Parameter hash: what `hash` rules use; without one, those values are redacted (and reported).
    public func personalDataProcessor(hash: (@Sendable (String) -> String)? = nil) -> PersonalDataProcessor {
        PersonalDataProcessor(personalProperties, hash: hash)
    }

    /// Today in UTC, `YYYY-MM-DD`.
    public static func today() -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: Date())
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }
}
