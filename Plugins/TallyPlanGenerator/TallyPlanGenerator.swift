import Foundation
import PackagePlugin

/// Regenerates a target's event factories and the plan's runtime rules (`PlannedEvents.rules`) from its
/// tracking plan on every build, so the code cannot drift from the plan.
///
/// Put `tracking-plan.yaml` (or `.yml`, or `.json`) in the target's directory, exclude it from the
/// target's sources and apply the plugin:
///
/// ```swift
/// .target(
///     name: "App",
///     dependencies: [.product(name: "Tally", package: "Tally")],
///     exclude: ["tracking-plan.yaml"],
///     plugins: [.plugin(name: "TallyPlanGenerator", package: "Tally")]
/// )
/// ```
///
/// The plugin runs `tally-plan-generator <plan> <work directory>/TrackingPlan+Events.swift`, which writes
/// what `tally gen` writes; the generated file is compiled into the target like its own sources. A plan with errors fails the build
/// with the errors at their file, line and column.
@main
struct TallyPlanGenerator: BuildToolPlugin {
    static let planFileNames = ["tracking-plan.yaml", "tracking-plan.yml", "tracking-plan.json"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let directory = target.directoryURL
        let plans = Self.planFileNames
            .map { directory.appending(path: $0) }
            .filter { FileManager.default.fileExists(atPath: $0.path(percentEncoded: false)) }
        guard let plan = plans.first else {
            Diagnostics.warning(
                "TallyPlanGenerator: target '\(target.name)' has no \(Self.planFileNames.joined(separator: ", ")); nothing to generate"
            )
            return []
        }
        if plans.count > 1 {
            Diagnostics.warning(
                "TallyPlanGenerator: target '\(target.name)' has several plan files; using \(plan.lastPathComponent)")
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "TrackingPlan+Events.swift")
        return [
            .buildCommand(
                displayName: "Generating event factories from \(plan.lastPathComponent) for \(target.name)",
                executable: try context.tool(named: "tally-plan-generator").url,
                arguments: [plan.path(percentEncoded: false), output.path(percentEncoded: false)],
                inputFiles: [plan],
                outputFiles: [output]
            )
        ]
    }
}
