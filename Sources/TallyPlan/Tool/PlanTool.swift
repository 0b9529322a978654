import Foundation

/// What a command printed and how it exited, so the command line can be tested in-process.
package struct ToolOutput: Sendable, Equatable {
    package var standardOutput = ""
    package var standardError = ""
    package var exitCode: Int32 = 0

    package init(standardOutput: String = "", standardError: String = "", exitCode: Int32 = 0) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.exitCode = exitCode
    }
}

/// The exit codes of `tally`, after BSD's sysexits where one fits.
package enum ToolExitCode {
    /// Success.
    package static let success: Int32 = 0
    /// A check failed: lint errors, generated code out of date.
    package static let checkFailed: Int32 = 1
    /// Bad usage (ArgumentParser's validation errors).
    package static let usage: Int32 = 64
    /// An input file is invalid: not YAML or JSON, or (for `gen`) a plan with errors.
    package static let invalidInput: Int32 = 65
    /// An input file is missing or unreadable.
    package static let missingInput: Int32 = 66
    /// An output file cannot be written.
    package static let cannotCreateOutput: Int32 = 73

    /// The exit code for a plan that failed to load.
    package static func forLoadFailure(_ kind: PlanError.Kind, lint: Bool) -> Int32 {
        switch kind {
        case .fileNotFound, .unreadable: return missingInput
        case .syntax: return invalidInput
        case .invalidPlan: return lint ? checkFailed : invalidInput
        }
    }
}

/// The work behind `tally lint` and `tally gen`, as pure functions of their inputs.
package enum PlanTool {
    /// `tally lint PLAN`: every finding as `file:line:column: error|warning: message`, then a summary.
    /// Besides the file's own errors, the plan's privacy marks are checked
    /// (``TrackingPlan/privacyDiagnostics(today:)``): an expired event, a personal property with no rule, an
    /// e-mail format with no mark, an advertising identifier outside advertising, a purpose no destination
    /// may receive, an event without consent that an advertising destination may receive.
    ///
    /// Exit codes: 0 no errors (warnings allowed unless `warningsAsErrors`), 1 errors in the plan, 65 not a
    /// YAML or JSON document, 66 missing or unreadable file.
    package static func lint(
        path: String, warningsAsErrors: Bool = false, style: TerminalStyle = .plain,
        today: String = TrackingPlan.today()
    ) -> ToolOutput {
        let result = PlanLoader.load(contentsOf: URL(fileURLWithPath: path), displayName: path)
        var output = ToolOutput()
        let privacy = result.plan?.privacyDiagnostics(today: today) ?? []
        for diagnostic in result.diagnostics + privacy { output.standardOutput += style.format(diagnostic) + "\n" }
        let errors = result.errors.count + privacy.filter { $0.severity == .error }.count
        let warnings = result.warnings.count + privacy.filter { $0.severity == .warning }.count
        if let kind = result.failureKind {
            output.exitCode = ToolExitCode.forLoadFailure(kind, lint: true)
            if kind == .invalidPlan {
                output.standardOutput += "\(path): \(Self.count(errors, "error")), \(Self.count(warnings, "warning"))\n"
            }
            return output
        }
        let events = result.plan?.events.count ?? 0
        if errors > 0 {
            output.standardOutput += "\(path): \(Self.count(errors, "error")), \(Self.count(warnings, "warning"))\n"
            output.exitCode = ToolExitCode.checkFailed
        } else if warnings > 0 {
            output.standardOutput += "\(path): \(Self.count(events, "event")), \(Self.count(warnings, "warning"))\n"
            output.exitCode = warningsAsErrors ? ToolExitCode.checkFailed : ToolExitCode.success
        } else {
            output.standardOutput += "\(path): \(style.green("OK")), \(Self.count(events, "event"))\n"
        }
        return output
    }

    /// `tally gen --plan PLAN --output FILE`: writes the Swift factories for the plan.
    ///
    /// With `check`, writes nothing and exits 1 when `FILE` differs from what would be written. `indentWidth`
    /// is the spaces per indentation level (`--indent-width`; 2 for swift-format's default configuration).
    /// Exit codes: 0 written (or up to date), 1 out of date (`check`), 65 invalid plan, 66 missing plan,
    /// 73 the output cannot be written.
    package static func generate(
        planPath: String, outputPath: String, namespace: String = "PlannedEvents", indentWidth: Int = 4,
        check: Bool = false, style: TerminalStyle = .plain
    ) -> ToolOutput {
        var output = ToolOutput()
        let planURL = URL(fileURLWithPath: planPath)
        let result = PlanLoader.load(contentsOf: planURL, displayName: planPath)
        for diagnostic in result.diagnostics { output.standardError += style.format(diagnostic) + "\n" }
        guard let plan = result.plan, result.failureKind == nil else {
            output.exitCode = ToolExitCode.forLoadFailure(result.failureKind ?? .invalidPlan, lint: false)
            return output
        }
        let source = SwiftCodeGenerator(namespace: namespace, indentWidth: indentWidth).generate(
            plan, planFileName: planURL.lastPathComponent)
        let outputURL = URL(fileURLWithPath: outputPath)
        if check {
            let existing = try? String(contentsOf: outputURL, encoding: .utf8)
            if existing == source {
                output.standardOutput = "\(outputPath) is up to date with \(planPath)\n"
            } else {
                output.standardError +=
                    "\(style.bold("\(outputPath):")) \(style.red("error:")) out of date with \(planPath); run tally gen --plan \(planPath) --output \(outputPath)\n"
                output.exitCode = ToolExitCode.checkFailed
            }
            return output
        }
        do {
            try FileManager.default.createDirectory(
                at: outputURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(source.utf8).write(to: outputURL, options: .atomic)
        } catch {
            output.standardError +=
                "\(style.bold("\(outputPath):")) \(style.red("error:")) cannot write the output: \(error.localizedDescription)\n"
            output.exitCode = ToolExitCode.cannotCreateOutput
            return output
        }
        output.standardOutput =
            "Wrote \(Self.count(plan.events.count, "event factory", plural: "event factories")) to \(outputPath)\n"
        return output
    }

    static func count(_ number: Int, _ noun: String, plural: String? = nil) -> String {
        "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
    }
}
