import Tally

extension PlanValidator: EventValidator {
    /// The plan's violations of each event, one line each: `missingRequired at /properties/item_name: …`.
    /// What TallyTesting's `expectValid(against:)` reports.
    public func violationReport(for events: [Event]) -> [Int: [String]] {
        violationReport(for: events, recordedAt: .delivered)
    }

    /// The plan's violations of each event recorded at `stage`, one line each: tracked events (a spy's) are
    /// judged after the plan's personal-data rules, as ``validate(_:recordedAt:consent:)`` does.
    public func violationReport(for events: [Event], recordedAt stage: Record.Stage) -> [Int: [String]] {
        var lines: [Int: [String]] = [:]
        for (index, event) in events.enumerated() {
            let violations = validate(event, recordedAt: stage)
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

    /// The plan's violations of each event recorded at `stage`, through a ``PlanValidator`` compiled for
    /// this call.
    public func violationReport(for events: [Event], recordedAt stage: Record.Stage) -> [Int: [String]] {
        PlanValidator(plan: self).violationReport(for: events, recordedAt: stage)
    }
}
