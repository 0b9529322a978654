import IssueReporting
import Tally

extension EventRecorder {
    /// Expects every recorded event to keep `validator`'s contract, such as a tracking plan: a planned
    /// event, with the planned properties, types and values.
    ///
    /// ```swift
    /// import TallyPlan
    ///
    /// let plan = try TrackingPlan(contentsOf: planURL)
    /// model.checkout()
    /// spy.expectValid(against: plan)
    /// ```
    ///
    /// TallyPlan's `TrackingPlan` and `PlanValidator` are validators. A `TrackingPlan` judges as `tally
    /// validate` judges the same records, so a test passes exactly when that gate would: a string that looks
    /// like an e-mail address or an international phone number in a property the plan does not mark
    /// `personal` is a violation (`personalDataUnmarked`). A `PlanValidator` you build judges with its own
    /// settings (`scansUnmarkedValues` is off unless you turn it on); build one once when many tests share a
    /// plan. On failure one issue lists every violation with its event, JSON-pointer path and rule.
    ///
    /// A spy's events are what the app handed over, before any client's rules: the validator judges them
    /// as tracked (`EventValidator.violationReport(for:consents:recordedAt:)`), so a tracking plan applies its
    /// personal-data rules to them first, as the client would. A destination's events are judged as
    /// delivered, with the consent each was delivered with, so an event of a purpose the plan gates that went
    /// out without the user's grant is a violation (`sentWithoutConsent`), as in `tally validate`. Records read
    /// back keep the stage they were recorded at.
    ///
    /// Accounts for nothing: the plan says how events look, not which ones this test expects. In exhaustive
    /// mode, expect the events themselves too.
    @discardableResult
    public func expectValid(
        against validator: some EventValidator, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Bool {
        refreshOrReport(fileID: fileID, filePath: filePath, line: line, column: column)
        let snapshot = Snapshot(log)
        let indices = Array(snapshot.indices)
        let events = indices.map(snapshot.event(at:))
        var violations: [Int: [String]] = [:]
        for stage in Record.Stage.allCases {
            let positions = events.indices.filter { snapshot.stage(at: indices[$0]) == stage }
            guard !positions.isEmpty else { continue }
            let report = validator.violationReport(
                for: positions.map { events[$0] }, consents: positions.map { snapshot.consent(at: indices[$0]) },
                recordedAt: stage)
            for (index, lines) in report where positions.indices.contains(index) {
                violations[positions[index]] = lines
            }
        }
        let count = violations.values.reduce(0) { $0 + $1.count }
        guard count == 0 else {
            var lines: [String] = []
            for index in violations.keys.sorted() where events.indices.contains(index) {
                lines.append("  [\(indices[index])] \(events[index])")
                lines += violations[index, default: []].map { "      \($0)" }
            }
            reportFailure(
                "Expected every event to be valid against the tracking plan, but \(count) \(count == 1 ? "violation was" : "violations were") found:\n"
                    + lines.joined(separator: "\n"),
                fileID: fileID, filePath: filePath, line: line, column: column)
            return false
        }
        return true
    }
}
