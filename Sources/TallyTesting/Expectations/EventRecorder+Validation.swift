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
    /// TallyPlan's `TrackingPlan` and `PlanValidator` are validators; build a `PlanValidator` once when many
    /// tests share a plan. On failure one issue lists every violation with its event, JSON-pointer path and
    /// rule.
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
        let violations = validator.violationReport(for: events)
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
