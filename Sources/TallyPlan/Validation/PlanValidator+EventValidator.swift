import Tally

extension PlanValidator: EventValidator {
    /// The plan's violations of each event, one line each: `missingRequired at /properties/item_name: …`.
    /// What TallyTesting's `expectValid(against:)` reports.
    public func violationReport(for events: [Event]) -> [Int: [String]] {
        violationReport(for: events, consents: [], recordedAt: .delivered)
    }

    /// The plan's violations of each event recorded at `stage` with its envelope's consent, one line each, as
    /// ``validate(_:recordedAt:consent:)`` finds them: tracked events (a spy's) are judged after the plan's
    /// personal-data rules, and an event of a purpose the plan gates, delivered without the user's grant, is a
    /// ``PlanViolation/Kind/sentWithoutConsent`` violation, as `tally validate` reports on a recording.
    public func violationReport(
        for events: [Event], consents: [DeliveredConsent?], recordedAt stage: Record.Stage
    ) -> [Int: [String]] {
        var lines: [Int: [String]] = [:]
        for (index, event) in events.enumerated() {
            let consent = index < consents.count ? consents[index] : nil
            let violations = validate(event, recordedAt: stage, consent: consent)
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

    /// The plan's violations of each event recorded at `stage` with its consent, judged as `tally validate`
    /// judges the same records (values of unmarked properties scanned, consent checked), through a
    /// ``PlanValidator`` compiled for this call.
    public func violationReport(
        for events: [Event], consents: [DeliveredConsent?], recordedAt stage: Record.Stage
    ) -> [Int: [String]] {
        PlanValidator(forGates: self).violationReport(for: events, consents: consents, recordedAt: stage)
    }
}
