import Foundation
import Tally

extension PlanTool {
    /// `tally export --plan PLAN --format FORMAT --output DIR [--vendor V] [--check]`: writes the plan in a
    /// production pipeline's schema format (see ``PlanExport``), then a summary. The Iglu vendor is `vendor`,
    /// else the plan's ``TrackingPlan/igluVendor``.
    ///
    /// For Iglu, the schemas already in `DIR` are the registry: an unchanged schema keeps its version, a
    /// changed one gets the next SchemaVer, and no published version is ever rewritten. What the format cannot
    /// say as the plan does is a warning on standard error, at the plan's line.
    ///
    /// A JSON Schema file of an event the plan no longer has is an error to remove (it would go on validating
    /// events); an Iglu schema of one stays, as registries keep every version.
    ///
    /// Exit codes: 0 written (or, with `check`, up to date), 1 with `check`: files would change; or a JSON
    /// Schema file of an event no longer in the plan, 64 bad usage
    /// (an Iglu vendor Iglu refuses, two events sharing a file), 65 invalid plan or an unreadable schema in
    /// the registry, 66 missing plan, 73 cannot write.
    package static func export(
        planPath: String, format: String, outputPath: String, vendor: String? = nil, check: Bool = false,
        style: TerminalStyle = .plain
    ) -> ToolOutput {
        var output = ToolOutput()
        func fail(_ message: String, _ code: Int32) -> ToolOutput {
            output.standardError += "\(style.red("error:")) \(message)\n"
            output.exitCode = code
            return output
        }
        guard ["json-schema", "segment", "iglu"].contains(format) else {
            return fail("unknown format '\(format)': use json-schema, iglu or segment", ToolExitCode.usage)
        }
        if vendor != nil, format != "iglu" { return fail("--vendor is for --format iglu only", ToolExitCode.usage) }

        let result = PlanLoader.load(contentsOf: URL(fileURLWithPath: planPath), displayName: planPath)
        for diagnostic in result.diagnostics { output.standardError += style.format(diagnostic) + "\n" }
        guard let plan = result.plan, result.failureKind == nil else {
            output.exitCode = ToolExitCode.forLoadFailure(result.failureKind ?? .invalidPlan, lint: false)
            return output
        }
        let chosen: PlanExport.Format
        switch format {
        case "json-schema": chosen = .jsonSchema
        case "segment": chosen = .segment
        default:
            guard let vendor = vendor ?? plan.igluVendor else {
                return fail(
                    "--format iglu needs a vendor: --vendor com.example, or iglu: { vendor: com.example } in the plan",
                    ToolExitCode.usage)
            }
            chosen = .iglu(vendor: vendor)
        }

        let root = URL(fileURLWithPath: outputPath, isDirectory: true)
        var registry: [String: [SchemaVer: PropertyValue]] = [:]
        if case .iglu(let vendor) = chosen {
            do {
                registry = try readIgluRegistry(root, vendor: vendor)
            } catch {
                return fail(error.message, ToolExitCode.invalidInput)
            }
        }
        let export: PlanExport
        do {
            export = try PlanExport(plan, format: chosen, planFile: planPath, registry: registry)
        } catch {
            return fail(error.message, ToolExitCode.usage)
        }
        for diagnostic in export.diagnostics { output.standardError += style.format(diagnostic) + "\n" }

        var changed: [String] = []
        var unchanged = 0
        for file in export.files {
            let url = root.appendingPathComponent(file.path)
            if let existing = try? Data(contentsOf: url), existing == Data(file.contents.utf8) {
                unchanged += 1
                continue
            }
            changed.append(file.path)
            guard !check else { continue }
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.contents.utf8).write(to: url, options: .atomic)
            } catch {
                return fail("cannot write \(url.path): \(error.localizedDescription)", ToolExitCode.cannotCreateOutput)
            }
        }

        for (key, release) in export.versions.sorted(by: { $0.key < $1.key }) where release.change != .unchanged {
            output.standardOutput += "\(key) \(release.version): \(release.change.rawValue)\n"
        }
        // Files of events the plan no longer has: a stale JSON Schema file would go on validating a warehouse
        // table, so it is an error to remove; an Iglu schema is history the registry keeps.
        let written = Set(export.files.map(\.path))
        var stale: [String] = []
        if format == "json-schema" {
            let existing = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
            stale = existing.filter { $0.hasSuffix(".schema.json") && !written.contains($0) }.sorted()
            for path in stale {
                output.standardError +=
                    "\(style.red("error:")) \(path) is no longer in the plan: remove it, or it goes on validating events\n"
            }
        } else {
            for key in registry.keys.sorted() where export.versions[key] == nil {
                output.standardOutput += "\(key): no longer in the plan (kept: a registry keeps every version)\n"
            }
        }
        if check {
            if changed.isEmpty && stale.isEmpty {
                output.standardOutput +=
                    "\(outputPath) is up to date with \(planPath) (\(count(export.files.count, "file")))\n"
            } else {
                for path in changed { output.standardError += "\(style.red("error:")) would write \(path)\n" }
                output.standardError +=
                    "\(outputPath) is out of date with \(planPath): run tally export --plan \(planPath) --format \(format) --output \(outputPath)\(vendor.map { " --vendor \($0)" } ?? "")\n"
                output.exitCode = ToolExitCode.checkFailed
            }
            return output
        }
        if !stale.isEmpty { output.exitCode = ToolExitCode.checkFailed }
        output.standardOutput +=
            "Wrote \(count(changed.count, "file")) to \(outputPath) (\(unchanged) unchanged) from \(count(plan.events.count, "event")), \(count(export.diagnostics.count, "warning"))\n"
        return output
    }

    /// The schemas of `vendor` already in an Iglu static registry folder, by `vendor/name`, each version's
    /// JSON; empty when the folder does not exist yet.
    static func readIgluRegistry(_ root: URL, vendor: String) throws(PlanExportError) -> [String: [SchemaVer:
        PropertyValue]]
    {
        let vendorFolder = root.appendingPathComponent("schemas").appendingPathComponent(vendor)
        let files = FileManager.default
        guard let names = try? files.contentsOfDirectory(atPath: vendorFolder.path) else { return [:] }
        var registry: [String: [SchemaVer: PropertyValue]] = [:]
        for name in names.sorted() where !name.hasPrefix(".") {
            let folder = vendorFolder.appendingPathComponent(name).appendingPathComponent("jsonschema")
            // Hidden files (a Finder's .DS_Store) are no versions.
            for file in (try? files.contentsOfDirectory(atPath: folder.path)) ?? [] where !file.hasPrefix(".") {
                let url = folder.appendingPathComponent(file)
                guard let version = SchemaVer(file) else {
                    throw PlanExportError("\(url.path) is not named by a SchemaVer version such as 1-0-0")
                }
                guard let data = try? Data(contentsOf: url), let schema = try? PropertyValue(jsonBytes: data),
                    schema.objectValue != nil
                else {
                    throw PlanExportError("\(url.path) is not a JSON schema: fix or remove it, then export again")
                }
                registry["\(vendor)/\(name)", default: [:]][version] = schema
            }
        }
        return registry
    }
}
