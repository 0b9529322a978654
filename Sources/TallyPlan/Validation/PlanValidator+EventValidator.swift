import Tally

extension PlanValidator: EventValidator {
    /// The plan's violations of each event, one line each: `missingRequired at /properties/item_name: …`.
    /// What TallyTesting's `expectValid(against:)` reports.
    public func violationReport(for events: [Event]) -> [Int: [String]] {
        var lines: [Int: [String]] = [:]
        for (index, event) in events.enumerated() {
            let violations = validate(event)
            guard !violations.isEmpty else { continue }
            lines[index] = violations.map {
                "\($0.kind.rawValue) at \($0.path.isEmpty ? "the event" : $0.path): \($0.message)"
            }
        }
        return lines
    }
}

extension TrackingPlan: EventValidator {
    /// The plan's violations of each event, through a ``PlanValidator`` compiled for this call. Build the
    /// validator once instead when many checks share a plan.
    public func violationReport(for events: [Event]) -> [Int: [String]] {
        PlanValidator(plan: self).violationReport(for: events)
    }
}
