extension PlanTool {
    /// Whether `tally validate` may use `plan`: a plan with keywords Tally does not check is refused, each
    /// keyword an error at its location (exit code 65), unless the user accepted them with
    /// `--allow-unchecked-keywords`.
    static func acceptsUncheckedKeywords(
        of plan: TrackingPlan, allowed: Bool, into output: inout ToolOutput, style: TerminalStyle
    ) -> Bool {
        guard !allowed, !plan.uncheckedKeywords.isEmpty else { return true }
        for keyword in plan.uncheckedKeywords { output.standardError += style.format(keyword.refusal) + "\n" }
        output.exitCode = ToolExitCode.invalidInput
        return false
    }

    /// The summary line naming what went unchecked, or nil when everything was checked:
    /// `Not checked (--allow-unchecked-keywords): '$ref' at plan.yaml:12:9, 'minLenght' at plan.yaml:20:9`.
    static func uncheckedSummary(_ plan: TrackingPlan, style: TerminalStyle) -> String? {
        guard !plan.uncheckedKeywords.isEmpty else { return nil }
        let list = plan.uncheckedKeywords.map { "'\($0.keyword)' at \($0.location)" }.joined(separator: ", ")
        return style.yellow("Not checked") + " (--allow-unchecked-keywords): \(list)"
    }
}
