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

    /// What the plan's privacy marks break, as lint errors: an event past its `expires` day, a `personal`
    /// property with no rule, and an event whose purpose no destination of `destinations:` may receive.
    ///
    /// - Parameter today: the day to compare `expires` with, `YYYY-MM-DD`; by default today in UTC.
    public func privacyDiagnostics(today: String = TrackingPlan.today()) -> [PlanDiagnostic] {
        var found: [PlanDiagnostic] = []
        for event in events {
            let location = event.location ?? SourceLocation(file: "plan")
            if let expires = event.expires, expires < today {
                let owner = event.owner.map { " (owner: \($0))" } ?? ""
                found.append(
                    PlanDiagnostic(
                        .error,
                        "Event '\(event.name)' expired on \(expires)\(owner); remove it from the plan and the app, or extend 'expires'",
                        at: location))
            }
            for (name, schema) in event.properties.sorted(by: { $0.key < $1.key }) {
                guard let mark = schema.personal, mark.rule == nil else { continue }
                found.append(
                    PlanDiagnostic(
                        .error,
                        "Property '\(name.string)' of '\(event.name)' is personal (\(mark.kind)) with no rule; add rule: send, hash, redact or never_send",
                        at: location))
            }
            if !destinations.isEmpty, event.purpose != .necessary,
                !destinations.values.contains(where: { $0.contains(event.purpose) })
            {
                let allowed = destinations.keys.sorted().map { name in
                    "\(name): \(destinations[name]!.sorted().map(\.rawValue).joined(separator: ", "))"
                }
                found.append(
                    PlanDiagnostic(
                        .error,
                        "Event '\(event.name)' needs purpose '\(event.purpose)', which no destination may receive (\(allowed.joined(separator: "; ")))",
                        at: location))
            }
        }
        return found
    }

    /// Today in UTC, `YYYY-MM-DD`.
    public static func today() -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: Date())
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }
}
