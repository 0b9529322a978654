import Foundation
import Tally

extension PlanTool {
    /// `tally coverage --plan PLAN --recordings DIR`: which planned events, properties and enum values the
    /// recordings exercise, with an optional bar and baseline.
    ///
    /// Recordings are read streaming, in bounded memory. Unreadable lines are printed to standard error
    /// with their file and line, and the coverage of the other lines is still reported.
    ///
    /// Exit codes: 0 fine, 1 under `minimum` percent of events or a regression since the baseline, 65
    /// invalid plan, baseline or an unreadable recording line, 66 missing or unreadable file, 73 the report
    /// or baseline cannot be written.
    package static func coverage(
        planPath: String, recordings: [String], minimum: Double? = nil, baselinePath: String? = nil,
        writeBaseline: Bool = false, format: CoverageFormat = .table, outputPath: String? = nil,
        style: TerminalStyle = .plain
    ) -> ToolOutput {
        var output = ToolOutput()
        guard let plan = loadPlan(planPath, into: &output, style: style),
            let files = recordingFiles(recordings, into: &output, style: style)
        else { return output }
        let events = StreamedEvents(files: files)
        let coverage = PlanCoverage(plan: plan, events: events)
        events.source.report(into: &output, style: style)
        if events.source.failure != nil { return output }
        let eventCount = events.source.valueCount

        var regressions: [PlanCoverage.Regression] = []
        if let baselinePath, !writeBaseline {
            guard let data = FileManager.default.contents(atPath: baselinePath) else {
                output.standardError += "\(style.bold("\(baselinePath):")) \(style.red("error:")) the baseline is missing; create it with --write-baseline\n"
                output.exitCode = ToolExitCode.missingInput
                return output
            }
            do {
                regressions = coverage.regressions(since: try PlanCoverage(json: data))
            } catch {
                output.standardError += "\(style.bold("\(baselinePath):")) \(style.red("error:")) not a coverage baseline written by tally coverage: \(error)\n"
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

        var summary = ["Read \(eventCount) event\(eventCount == 1 ? "" : "s") from \(files.count) recording\(files.count == 1 ? "" : "s"). \(coverage.summary)"]
        if events.source.unreadableLines > 0 {
            summary.append(
                "\(style.red("error:")) \(events.source.unreadableLines) unreadable line\(events.source.unreadableLines == 1 ? " in the recordings was" : "s in the recordings were") not counted")
        }
        if writeBaseline {
            guard let baselinePath else {
                output.standardError += "\(style.red("error:")) --write-baseline needs --baseline FILE\n"
                output.exitCode = ToolExitCode.usage
                return output
            }
            guard write(String(decoding: coverage.renderJSON(), as: UTF8.self), to: baselinePath, into: &output, style: style)
            else { return output }
            summary.append("Wrote the baseline to \(baselinePath).")
        }
        for regression in regressions {
            summary.append("\(style.red("regression:")) \(regression)")
        }
        let percent = coverage.eventMeasure.ratio * 100
        if let minimum, percent + 1e-9 < minimum {
            summary.append(
                "\(style.red("error:")) event coverage \(PlanCoverage.percent(coverage.eventMeasure.ratio)) is under the bar of \(minimum)%; unseen: \(coverage.events.filter { !$0.isSeen }.map(\.name).joined(separator: ", "))")
            output.exitCode = ToolExitCode.checkFailed
        }
        if !regressions.isEmpty {
            summary.append("\(style.red("error:")) \(regressions.count) regression\(regressions.count == 1 ? "" : "s") since the baseline")
            output.exitCode = ToolExitCode.checkFailed
        }
        if events.source.unreadableLines > 0 { output.exitCode = ToolExitCode.invalidInput }
        output.standardError += summary.joined(separator: "\n") + "\n"
        return output
    }

    /// The formats of `tally coverage`'s report.
    package enum CoverageFormat: String, CaseIterable, Sendable {
        case table, json, markdown, junit
    }

    private static func write(_ text: String, to path: String, into output: inout ToolOutput, style: TerminalStyle) -> Bool {
        do {
            let url = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
            return true
        } catch {
            output.standardError += "\(style.bold("\(path):")) \(style.red("error:")) cannot write: \(error.localizedDescription)\n"
            output.exitCode = ToolExitCode.cannotCreateOutput
            return false
        }
    }
}
