import Foundation

extension PlanTool {
    /// `tally privacy-manifest --plan PLAN [--output FILE [--check]]`: the privacy-manifest entries the plan
    /// implies (``PrivacyManifest``). Without `outputPath`, prints them as a `PrivacyInfo.xcprivacy`. With it,
    /// adds what the file lacks (creating it when missing; nothing is removed) and lists what was added, then
    /// reports, as errors, what only removing would fix (a non-tracking destination's host listed in
    /// `NSPrivacyTrackingDomains`). With `check` too, writes nothing and exits 1 with one error per gap
    /// (``PrivacyManifest/gaps(in:)``).
    ///
    /// Exit codes: 0 printed, written, or (with `check`) covered; 1 with `check`: the file has gaps, or
    /// without: the file still lists a host it must not (Tally removes nothing); 65 an invalid plan, or a
    /// file that is not a property list holding a dictionary; 66 a missing or unreadable plan (or, with
    /// `check`, file); 73 the file cannot be written.
    package static func privacyManifest(
        planPath: String, outputPath: String? = nil, check: Bool = false, style: TerminalStyle = .plain
    ) -> ToolOutput {
        var output = ToolOutput()
        let result = PlanLoader.load(contentsOf: URL(fileURLWithPath: planPath), displayName: planPath)
        for diagnostic in result.diagnostics { output.standardError += style.format(diagnostic) + "\n" }
        guard let plan = result.plan, result.failureKind == nil else {
            output.exitCode = ToolExitCode.forLoadFailure(result.failureKind ?? .invalidPlan, lint: false)
            return output
        }
        let manifest = PrivacyManifest(plan: plan)
        guard let outputPath else {
            output.standardOutput = manifest.propertyListText
            return output
        }
        let fileError = "\(style.bold("\(outputPath):")) \(style.red("error:"))"
        let url = URL(fileURLWithPath: outputPath)
        let existing: Data?
        if FileManager.default.fileExists(atPath: outputPath) {
            do {
                existing = try Data(contentsOf: url)
            } catch {
                output.standardError += "\(fileError) cannot be read: \(error.localizedDescription)\n"
                output.exitCode = ToolExitCode.missingInput
                return output
            }
        } else {
            existing = nil
        }
        var types = count(manifest.entries.count, "data type")
        if !manifest.trackingDomains.isEmpty {
            types += " and " + count(manifest.trackingDomains.count, "tracking domain")
        }
        let rerun = "run tally privacy-manifest --plan \(planPath) --output \(outputPath)"
        let byHand = "tally privacy-manifest removes nothing; edit the file"
        if check {
            guard let existing else {
                output.standardError +=
                    "\(fileError) no such file; \(rerun)\n"
                output.exitCode = ToolExitCode.missingInput
                return output
            }
            do {
                let gaps = try manifest.gaps(in: existing)
                for gap in gaps { output.standardError += "\(fileError) \(gap)\n" }
                if gaps.isEmpty {
                    output.standardOutput = "\(outputPath) declares the \(types) \(planPath) implies\n"
                } else {
                    // What merging leaves is what only removing fixes.
                    let left = try manifest.gaps(in: Data(manifest.merged(into: existing).text.utf8)).count
                    let advice =
                        left == 0
                        ? rerun
                        : left == gaps.count
                            ? byHand : "\(rerun), then edit the file for the \(left) it cannot fix: it removes nothing"
                    output.standardError += "\(outputPath): \(count(gaps.count, "gap")); \(advice)\n"
                    output.exitCode = ToolExitCode.checkFailed
                }
            } catch let failure {
                output.standardError += "\(fileError) \(failure)\n"
                output.exitCode = ToolExitCode.invalidInput
            }
            return output
        }
        do {
            let (text, added) = try manifest.merged(into: existing)
            if added.isEmpty, existing != nil {
                output.standardOutput = "\(outputPath) already declares the \(types) \(planPath) implies\n"
            } else {
                do {
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(text.utf8).write(to: url, options: .atomic)
                } catch let failure {
                    output.standardError += "\(fileError) cannot write the output: \(failure.localizedDescription)\n"
                    output.exitCode = ToolExitCode.cannotCreateOutput
                    return output
                }
                output.standardOutput =
                    existing == nil
                    ? "Wrote \(types) to \(outputPath)\n" : "Added to \(outputPath):\n"
                for line in added where existing != nil { output.standardOutput += "  + \(line)\n" }
            }
            // Merging removes nothing: what it leaves needs a hand, and still fails --check.
            let left = try manifest.gaps(in: Data(text.utf8))
            for gap in left { output.standardError += "\(fileError) \(gap)\n" }
            if !left.isEmpty {
                output.standardError += "\(outputPath): \(count(left.count, "gap")) left: \(byHand)\n"
                output.exitCode = ToolExitCode.checkFailed
            }
        } catch let failure {
            output.standardError += "\(fileError) \(failure)\n"
            output.exitCode = ToolExitCode.invalidInput
        }
        return output
    }
}
