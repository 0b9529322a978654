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

    /// The recording files named: files as given, and the `.jsonl` files of folders in name order. Nil,
    /// with exit code 66, when one is missing.
    static func recordingFiles(_ paths: [String], into output: inout ToolOutput, style: TerminalStyle) -> [String]? {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                output.standardError += "\(style.bold("\(path):")) \(style.red("error:")) no such file or folder\n"
                output.exitCode = ToolExitCode.missingInput
                return nil
            }
            guard isFolder.boolValue else {
                files.append(path)
                continue
            }
            do {
                let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".jsonl") }
                files += names.sorted().map { URL(fileURLWithPath: path).appendingPathComponent($0).path }
            } catch {
                output.standardError +=
                    "\(style.bold("\(path):")) \(style.red("error:")) cannot list the folder: \(error.localizedDescription)\n"
                output.exitCode = ToolExitCode.missingInput
                return nil
            }
        }
        return files
    }

    /// `tally validate --plan PLAN RECORDING...`: validates every recorded event and prints the violations
    /// grouped by event, with counts and, when the recording says, where the first event that broke each
    /// rule was tracked (`path:line`). Values that look like personal data in properties the plan does not
    /// mark `personal` are violations too (``PlanValidator/scansUnmarkedValues``), and so is an event of a
    /// purpose the plan says needs consent that was delivered while the user had denied it or not answered
    /// (``PlanViolation/Kind/sentWithoutConsent``, read from the record's `consent`).
    ///
    /// Recordings are read streaming, in bounded memory, and validated on every core. An unreadable line
    /// (not a record, invalid UTF-8, nested too deep, or a last line cut off) is printed to standard error
    /// with its file and line and counted in the summary; the other lines are still validated.
    ///
    /// Exit codes: 0 every event is valid, 1 violations, 65 invalid plan (or a plan with keywords Tally does
    /// not check, unless `allowUncheckedKeywords`) or an unreadable recording line, 66 missing or unreadable
    /// file.
    package static func validate(
        planPath: String, recordings: [String], json: Bool = false, allowUncheckedKeywords: Bool = false,
        style: TerminalStyle = .plain
    ) -> ToolOutput {
        var output = ToolOutput()
        guard let plan = loadPlan(planPath, into: &output, style: style),
            acceptsUncheckedKeywords(of: plan, allowed: allowUncheckedKeywords, into: &output, style: style),
            let files = recordingFiles(recordings, into: &output, style: style)
        else { return output }

        let validator = PlanValidator(forGates: plan)
        let source = RecordingSource(files: files) { line in
            let (event, origin, consent, stage) = try Record.planFields(fromLine: line)
            return ValidationReport.check(event, origin: origin, consent: consent, stage: stage, with: validator)
        }
        var report = ValidationReport()
        while let batch = source.nextBatch() { report.add(batch) }
        source.report(into: &output, style: style)
        if source.failure != nil { return output }
        report.unreadableLines = source.unreadableLines
        let unreadable = source.unreadableLines

        output.standardOutput = json ? report.json(files: files.count) : report.text(files: files.count, style: style)
        if let unchecked = uncheckedSummary(plan, style: json ? .plain : style) {
            if json { output.standardError += unchecked + "\n" } else { output.standardOutput += unchecked + "\n" }
        }
        if unreadable > 0 {
            output.exitCode = ToolExitCode.invalidInput
        } else {
            output.exitCode = report.violationCount == 0 ? ToolExitCode.success : ToolExitCode.checkFailed
        }
        return output
    }
}
