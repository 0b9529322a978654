import Foundation
import TallyPlan

// The TallyPlanGenerator build plugin's tool: `tally-plan-generator PLAN OUTPUT` writes the event factories of
// PLAN to OUTPUT, as `tally gen --plan PLAN --output OUTPUT` does. The plugin is its only caller, so it takes
// exactly those two arguments and needs no argument parser (and so no dependency the plugin's users would
// build).
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let plan = arguments.first, let output = arguments.last else {
    FileHandle.standardError.write(Data("usage: tally-plan-generator PLAN OUTPUT\n".utf8))
    exit(64)
}
let result = PlanTool.generate(planPath: plan, outputPath: output, style: .plain)
if !result.standardOutput.isEmpty { FileHandle.standardError.write(Data(result.standardOutput.utf8)) }
if !result.standardError.isEmpty { FileHandle.standardError.write(Data(result.standardError.utf8)) }
exit(result.exitCode)
