import IssueReporting
import Tally
import TallyPlan

extension EventRecorder {
    /// Expects every recorded event to be valid against a tracking plan: a planned event, with the planned
    /// properties, types and values.
    ///
    /// ```swift
    /// let plan = try TrackingPlan(contentsOf: planURL)
    /// model.checkout()
    /// spy.expectValid(against: plan)
    /// ```
    ///
    /// On failure one issue lists every violation with its event, JSON-pointer path and rule.
    ///
    /// Accounts for nothing: the plan says how events look, not which ones this test expects. In exhaustive
    /// mode, expect the events themselves too.
    @discardableResult
    public func expectValid(
        against plan: TrackingPlan, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        expectValid(against: PlanValidator(plan: plan), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Expects every recorded event to pass `validator`. Build the validator once when many tests share a
    /// plan.
    @discardableResult
    public func expectValid(
        against validator: PlanValidator, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Bool {
        refreshOrReport(fileID: fileID, filePath: filePath, line: line, column: column)
        let snapshot = Snapshot(log)
        var lines: [String] = []
        var count = 0
        for index in snapshot.indices {
            let violations = validator.validate(snapshot.event(at: index))
            guard !violations.isEmpty else { continue }
            count += violations.count
            lines.append("  [\(index)] \(snapshot.event(at: index))")
            lines += violations.map { "      \($0.kind.rawValue) at \($0.path.isEmpty ? "the event" : $0.path): \($0.message)" }
        }
        guard count == 0 else {
            reportFailure(
                "Expected every event to be valid against the tracking plan, but \(count) \(count == 1 ? "violation was" : "violations were") found:\n"
                    + lines.joined(separator: "\n"),
                fileID: fileID, filePath: filePath, line: line, column: column)
            return false
        }
        return true
    }
}
