import Foundation
import Tally

extension PlanTool {
    /// `tally coverage --plan PLAN --recordings DIR`: which planned events, properties and enum values the
    /// recordings exercise, with an optional bar and baseline.
    ///
    /// Recordings are read streaming, in bounded memory. Unreadable lines are printed to standard error
    /// with their file and line, and the coverage of the other lines is still reported.
    ///
    /// Unless `allowPlanViolations`, every recorded event is also validated against the plan: each
    /// violation (an unplanned event, an unplanned property, a wrong value or type...) is a failure line,
    /// once per event and rule with its count, led by the `path:line` that recorded its first occurrence
    /// when the recording carries an `origin`. With `failOnCountChange`, an event seen a different number of
    /// times than in the baseline fails too.
    ///
    /// Exit codes: 0 fine, 1 a plan violation in the recordings, under `minimum` percent of events, a
    /// regression since the baseline or (with `failOnCountChange`) a changed count, 65 invalid plan, baseline
    /// or an unreadable recording line, 66 missing or unreadable file, 73 the report or baseline cannot be
    /// written.
    package static func coverage(
        planPath: String, recordings: [String], minimum: Double? = nil, baselinePath: String? = nil,
        writeBaseline: Bool = false, allowPlanViolations: Bool = false, failOnCountChange: Bool = false,
        format: CoverageFormat = .table, outputPath: String? = nil, style: TerminalStyle = .plain
    ) -> ToolOutput {
        var output = ToolOutput()
        guard let plan = loadPlan(planPath, into: &output, style: style),
            let files = recordingFiles(recordings, into: &output, style: style)
        else { return output }
        let events = CheckedEvents(
            files: files, validator: allowPlanViolations ? nil : PlanValidator(forGates: plan))
        let coverage = PlanCoverage(plan: plan, events: events)
        events.source.report(into: &output, style: style)
        if events.source.failure != nil { return output }
        let eventCount = events.source.valueCount
        let violations = events.violations

        var regressions: [PlanCoverage.Regression] = []
        if let baselinePath, !writeBaseline {
            guard let data = FileManager.default.contents(atPath: baselinePath) else {
                output.standardError +=
                    "\(style.bold("\(baselinePath):")) \(style.red("error:")) the baseline is missing; create it with --write-baseline\n"
                output.exitCode = ToolExitCode.missingInput
                return output
            }
            do {
                let baseline = try PlanCoverage(json: data)
                regressions = coverage.regressions(since: baseline)
                if failOnCountChange { regressions += coverage.countChanges(since: baseline) }
            } catch {
                output.standardError +=
                    "\(style.bold("\(baselinePath):")) \(style.red("error:")) not a coverage baseline written by tally coverage: \(error)\n"
                output.exitCode = ToolExitCode.invalidInput
                return output
            }
        }

        let report: String
        switch format {
        case .table: report = coverage.renderTable(colors: style.colors && outputPath == nil)
        case .json: report = String(decoding: coverage.renderJSON(), as: UTF8.self)
        case .markdown: report = coverage.renderMarkdown()
        case .junit: report = coverage.renderJUnit(regressions: regressions)
        }
        if let outputPath {
            guard write(report, to: outputPath, into: &output, style: style) else { return output }
        } else {
            output.standardOutput += report
        }

        var summary: [String] = []
        for entry in violations.listed {
            let times = entry.count == 1 ? "" : " (\(entry.count) events)"
            summary.append(
                located(entry.origin, style: style)
                    + "\(style.red("error:")) \(entry.label): \(entry.example.description)\(times)")
        }
        if violations.unlisted > 0 {
            summary.append("\(style.red("error:")) \(violations.unlisted) more violations of further rules, not listed")
        }
        summary.append(
            "Read \(eventCount) event\(eventCount == 1 ? "" : "s") from \(files.count) recording\(files.count == 1 ? "" : "s"). \(coverage.summary)"
        )
        if events.source.unreadableLines > 0 {
            summary.append(
                "\(style.red("error:")) \(events.source.unreadableLines) unreadable line\(events.source.unreadableLines == 1 ? " in the recordings was" : "s in the recordings were") not counted"
            )
        }
        if writeBaseline {
            guard let baselinePath else {
                output.standardError += "\(style.red("error:")) --write-baseline needs --baseline FILE\n"
                output.exitCode = ToolExitCode.usage
                return output
            }
            guard
                write(
                    String(decoding: coverage.renderJSON(), as: UTF8.self), to: baselinePath, into: &output,
                    style: style)
            else { return output }
            summary.append("Wrote the baseline to \(baselinePath).")
        }
        for regression in regressions {
            // The event's first origin: where it is still recorded, without the property, value or count.
            let origin = violations.origin(of: regression.eventKind, regression.eventName)
            summary.append(located(origin, style: style) + "\(style.red("regression:")) \(regression)")
        }
        if violations.count > 0 {
            summary.append(
                "\(style.red("error:")) \(violations.count) plan violation\(violations.count == 1 ? "" : "s") in the recorded events (listed above; --allow-plan-violations reports coverage only)"
            )
            output.exitCode = ToolExitCode.checkFailed
        }
        let percent = coverage.eventMeasure.ratio * 100
        if let minimum, percent + 1e-9 < minimum {
            summary.append(
                "\(style.red("error:")) event coverage \(PlanCoverage.percent(coverage.eventMeasure.ratio)) is under the bar of \(minimum)%; unseen: \(coverage.events.filter { !$0.isSeen }.map(\.name).joined(separator: ", "))"
            )
            output.exitCode = ToolExitCode.checkFailed
        }
        if !regressions.isEmpty {
            summary.append(
                "\(style.red("error:")) \(regressions.count) regression\(regressions.count == 1 ? "" : "s") since the baseline"
            )
            output.exitCode = ToolExitCode.checkFailed
        }
        if events.source.unreadableLines > 0 { output.exitCode = ToolExitCode.invalidInput }
        output.standardError += summary.joined(separator: "\n") + "\n"
        return output
    }

    /// `path:line: ` for a record's origin, shortened to a path relative to the current folder when it is
    /// inside it; empty without an origin.
    static func located(_ origin: String?, style: TerminalStyle) -> String {
        guard var origin else { return "" }
        let folder = FileManager.default.currentDirectoryPath + "/"
        if origin.hasPrefix(folder) { origin.removeFirst(folder.count) }
        return style.bold("\(origin):") + " "
    }

    /// The formats of `tally coverage`'s report.
    package enum CoverageFormat: String, CaseIterable, Sendable {
        case table, json, markdown, junit
    }

    private static func write(_ text: String, to path: String, into output: inout ToolOutput, style: TerminalStyle)
        -> Bool
    {
        do {
            let url = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
            return true
        } catch {
            output.standardError +=
                "\(style.bold("\(path):")) \(style.red("error:")) cannot write: \(error.localizedDescription)\n"
            output.exitCode = ToolExitCode.cannotCreateOutput
            return false
        }
    }
}
