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
    /// The plan's violations of each event, judged as `tally validate` judges them: through a
    /// ``PlanValidator`` compiled for this call as every gate builds it (``PlanValidator/scansUnmarkedValues``
    /// on), so a value that looks like personal data in a property the plan does not mark `personal` is a
    /// ``PlanViolation/Kind/personalDataUnmarked`` violation. Build a ``PlanValidator`` once instead when
    /// many checks share a plan; one built with `scansUnmarkedValues: false` judges without the scan.
    public func violationReport(for events: [Event]) -> [Int: [String]] {
        PlanValidator(forGates: self).violationReport(for: events)
    }

    /// The plan's violations of each event recorded at `stage`, judged as `tally validate` judges the same
    /// records (values of unmarked properties scanned), through a ``PlanValidator`` compiled for this call.
    public func violationReport(for events: [Event], recordedAt stage: Record.Stage) -> [Int: [String]] {
        PlanValidator(forGates: self).violationReport(for: events, recordedAt: stage)
    }
}
