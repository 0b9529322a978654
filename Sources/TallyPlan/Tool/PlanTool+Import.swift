import Foundation

extension PlanTool {
    /// `tally import --format FORMAT INPUT [--output FILE]`: a Tally plan from another tool's schemas.
    ///
    /// Reads `input` (a file or a directory, as ``PlanImportFormat`` describes for each format) and writes
    /// the plan as YAML to `outputPath`, or to standard output when it is nil. What the plan cannot hold
    /// (keywords outside Tally's subset, Segment's PAGE and COMMON rules, RudderStack variants...) is a
    /// warning at its line in the input, `file:line:column: warning: ...`, on standard error, as is every
    /// placeholder written for a missing description. The plan written loads and lints without errors.
    ///
    /// <!-- not compiled: a package-level member that only the tally tool calls; an app cannot -->
    /// ```swift
    /// let output = PlanTool.importPlan(format: .segment, inputPath: "rules.json", outputPath: "plan.yaml")
    /// ```
    ///
    /// - Parameters:
    ///   - format: the input's format.
    ///   - inputPath: the file or directory to read.
    ///   - outputPath: the plan file to write; nil for standard output.
    ///   - style: how diagnostics are coloured.
    /// - Returns: exit code 0 when imported (warnings allowed), 65 when the input is not JSON or YAML or not
    ///   in the format's shape (a Segment rule without a key, a bad keyword value), 66 when the input is
    ///   missing or holds no schemas, 73 when the output cannot be written.
    package static func importPlan(
        format: PlanImportFormat, inputPath: String, outputPath: String? = nil, style: TerminalStyle = .plain
    ) -> ToolOutput {
        var output = ToolOutput()
        #if Plans
        var importer = PlanImporter(format: format, inputPath: inputPath)
        var text: String?
        do throws(PlanImporter.Failure) {
            switch format {
            case .jsonSchema: try importer.importJSONSchema(path: inputPath)
            case .iglu: try importer.importIglu(path: inputPath)
            case .segment: try importer.importSegment(path: inputPath)
            case .rudderstack: try importer.importRudderStack(path: inputPath)
            }
            text = importer.finish()
        } catch {
            importer.append(error.diagnostics)
            output.exitCode = error.exitCode
        }
        var diagnostics = importer.diagnostics
        // The plan written must load: a last check, which a mistake of the importer would fail.
        if let written = text {
            let loaded = PlanLoader.load(text: written, file: outputPath ?? "<standard output>")
            if loaded.failureKind != nil {
                diagnostics += loaded.diagnostics.filter { $0.severity == .error }
                text = nil
            }
        }
        let sorted = diagnostics.enumerated().sorted {
            ($0.element.location, $0.offset) < ($1.element.location, $1.offset)
        }
        for diagnostic in sorted.map(\.element) { output.standardError += style.format(diagnostic) + "\n" }
        guard let text else {
            if output.exitCode == ToolExitCode.success { output.exitCode = ToolExitCode.invalidInput }
            return output
        }
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        let events = importer.events.count
        let summary =
            "Imported \(count(events, "event")) from \(inputPath) (\(format.rawValue)), \(count(warnings, "warning"))"
        guard let outputPath else {
            output.standardOutput = text
            output.standardError += summary + "\n"
            return output
        }
        do {
            let url = URL(fileURLWithPath: outputPath)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            output.standardError +=
                "\(style.bold("\(outputPath):")) \(style.red("error:")) cannot write the output: \(error.localizedDescription)\n"
            output.exitCode = ToolExitCode.cannotCreateOutput
            return output
        }
        output.standardError += summary + "; wrote \(outputPath)\n"
        #else
        output.standardError =
            "\(inputPath): error: importing needs Tally's Plans trait, which reads YAML and JSON (the CLI trait enables it)\n"
        output.exitCode = ToolExitCode.missingInput
        #endif
        return output
    }
}
