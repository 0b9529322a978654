import Foundation
import Tally

extension PlanTool {
    /// Loads a plan for a command that reads recordings, or says why it can't.
    static func loadPlan(_ path: String, into output: inout ToolOutput, style: TerminalStyle) -> TrackingPlan? {
        let result = PlanLoader.load(contentsOf: URL(fileURLWithPath: path), displayName: path)
        for diagnostic in result.errors { output.standardError += style.format(diagnostic) + "\n" }
        guard let plan = result.plan, result.failureKind == nil else {
            output.exitCode = ToolExitCode.forLoadFailure(result.failureKind ?? .invalidPlan, lint: false)
            return nil
        }
        return plan
    }

    /// The events of every recording named: files, or folders whose `.jsonl` files are read in name order.
    static func readRecordings(
        _ paths: [String], into output: inout ToolOutput, style: TerminalStyle
    ) -> (events: [Event], files: Int)? {
        var events: [Event] = []
        var files = 0
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                output.standardError += "\(style.bold("\(path):")) \(style.red("error:")) no such file or folder\n"
                output.exitCode = ToolExitCode.missingInput
                return nil
            }
            do {
                if isFolder.boolValue {
                    let folder = URL(fileURLWithPath: path)
                    let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".jsonl") }
                    for name in names.sorted() {
                        events += try RecordingFile.events(contentsOf: folder.appendingPathComponent(name))
                        files += 1
                    }
                } else {
                    events += try RecordingFile.events(contentsOf: URL(fileURLWithPath: path))
                    files += 1
                }
            } catch let error as RecordError {
                output.standardError += "\(style.bold("\(error.file ?? path):\(error.line.map { "\($0):" } ?? "")")) \(style.red("error:")) \(error.message)\n"
                output.exitCode = ToolExitCode.invalidInput
                return nil
            } catch {
                output.standardError += "\(style.bold("\(path):")) \(style.red("error:")) \(error.localizedDescription)\n"
                output.exitCode = ToolExitCode.missingInput
                return nil
            }
        }
        return (events, files)
    }

    /// `tally validate --plan PLAN RECORDING...`: validates every recorded event and prints the violations
    /// grouped by event, with counts.
    ///
    /// Exit codes: 0 every event is valid, 1 violations, 65 invalid plan or recording, 66 missing file.
    package static func validate(
        planPath: String, recordings: [String], json: Bool = false, style: TerminalStyle = .plain
    ) -> ToolOutput {
        var output = ToolOutput()
        guard let plan = loadPlan(planPath, into: &output, style: style),
            let (events, files) = readRecordings(recordings, into: &output, style: style)
        else { return output }
        let report = ValidationReport(plan: plan, events: events)
        output.standardOutput = json ? report.json(files: files) : report.text(files: files, style: style)
        output.exitCode = report.violationCount == 0 ? ToolExitCode.success : ToolExitCode.checkFailed
        return output
    }

    /// `tally coverage --plan PLAN --recordings DIR`: which planned events, properties and enum values the
    /// recordings exercise, with an optional bar and baseline.
    ///
    /// Exit codes: 0 fine, 1 under `minimum` percent of events or a regression since the baseline, 65
    /// invalid plan, recording or baseline, 66 missing file, 73 the report or baseline cannot be written.
    package static func coverage(
        planPath: String, recordings: [String], minimum: Double? = nil, baselinePath: String? = nil,
        writeBaseline: Bool = false, format: CoverageFormat = .table, outputPath: String? = nil,
        style: TerminalStyle = .plain
    ) -> ToolOutput {
        var output = ToolOutput()
        guard let plan = loadPlan(planPath, into: &output, style: style),
            let (events, files) = readRecordings(recordings, into: &output, style: style)
        else { return output }
        let coverage = PlanCoverage(plan: plan, events: events)

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

        var summary = ["Read \(events.count) event\(events.count == 1 ? "" : "s") from \(files) recording\(files == 1 ? "" : "s"). \(coverage.summary)"]
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

/// Violations of a set of recorded events, grouped by event.
struct ValidationReport {
    struct Group {
        var name: String
        var kind: Event.Kind
        var events = 0
        var failingEvents = 0
        /// By violation kind, path and rule: a count and the first description.
        var violations: [String: (count: Int, example: PlanViolation)] = [:]
    }

    var groups: [Group] = []
    var checked = 0
    var violationCount = 0

    init(plan: TrackingPlan, events: [Event]) {
        let validator = PlanValidator(plan: plan)
        var index: [String: Int] = [:]
        for event in events {
            checked += 1
            let key = "\(event.kind.rawValue) \(event.name)"
            let position = index[key] ?? {
                groups.append(Group(name: event.name, kind: event.kind))
                index[key] = groups.count - 1
                return groups.count - 1
            }()
            groups[position].events += 1
            let violations = validator.validate(event)
            guard !violations.isEmpty else { continue }
            groups[position].failingEvents += 1
            violationCount += violations.count
            for violation in violations {
                let signature = "\(violation.kind.rawValue) \(violation.path) \(violation.rule)"
                let existing = groups[position].violations[signature]
                groups[position].violations[signature] = ((existing?.count ?? 0) + 1, existing?.example ?? violation)
            }
        }
        groups = groups.filter { !$0.violations.isEmpty }.sorted { ($0.name, $0.kind.rawValue) < ($1.name, $1.kind.rawValue) }
    }

    var failingEvents: Int { groups.reduce(0) { $0 + $1.failingEvents } }

    func text(files: Int, style: TerminalStyle) -> String {
        var lines: [String] = []
        for group in groups {
            lines.append(style.bold("\(group.kind.rawValue) \"\(group.name)\"") + ": \(group.failingEvents) of \(group.events) event\(group.events == 1 ? "" : "s") \(group.failingEvents == 1 ? "breaks" : "break") the plan")
            for (_, entry) in group.violations.sorted(by: { $0.key < $1.key }) {
                lines.append("  \(style.red("×\(entry.count)")) \(entry.example.description)")
            }
        }
        let verdict = violationCount == 0
            ? style.green("every event is valid")
            : style.red("\(violationCount) violation\(violationCount == 1 ? "" : "s")") + " in \(failingEvents) event\(failingEvents == 1 ? "" : "s")"
        lines.append("Checked \(checked) event\(checked == 1 ? "" : "s") from \(files) recording\(files == 1 ? "" : "s"): \(verdict)")
        return lines.joined(separator: "\n") + "\n"
    }

    func json(files: Int) -> String {
        let groupsJSON: [PropertyValue] = groups.map { group in
            .object([
                "name": .string(group.name), "kind": .string(group.kind.rawValue), "events": .int(group.events),
                "failing_events": .int(group.failingEvents),
                "violations": .array(
                    group.violations.sorted(by: { $0.key < $1.key }).map { _, entry in
                        .object([
                            "kind": .string(entry.example.kind.rawValue), "path": .string(entry.example.path),
                            "rule": .string(entry.example.rule), "count": .int(entry.count),
                            "message": .string(entry.example.message),
                        ])
                    }),
            ])
        }
        let report: PropertyValue = [
            "recordings": .int(files), "events_checked": .int(checked), "violations": .int(violationCount),
            "events": .array(groupsJSON),
        ]
        return report.jsonString + "\n"
    }
}
