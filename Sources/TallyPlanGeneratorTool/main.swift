import Foundation
import Tally
import TallyPlan

// The TallyPlanGenerator build plugin's tool: `tally-plan-generator PLAN OUTPUT` writes the event factories of
// PLAN to OUTPUT, as `tally gen --plan PLAN --output OUTPUT` does. The plugin is its only caller, so it takes
// exactly those two arguments and needs no argument parser (and so no dependency the plugin's users would
// build).
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let plan = arguments.first, let output = arguments.last else {
    StandardStreams.writeToStandardError("usage: tally-plan-generator PLAN OUTPUT\n")
    exit(64)
}
#if Plans
let result = PlanTool.generate(planPath: plan, outputPath: output, style: .plain)
StandardStreams.writeToStandardError(result.standardOutput)
StandardStreams.writeToStandardError(result.standardError)
exit(result.exitCode)
#else
// Without the `Plans` trait nothing here reads YAML: the generated file's `#error` tells the target's
// build what to add (PlanTool.sourceWithoutPlans).
let source = PlanTool.sourceWithoutPlans(planFileName: URL(fileURLWithPath: plan).lastPathComponent)
do {
    try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    StandardStreams.writeToStandardError("error: cannot write \(output): \(error.localizedDescription)\n")
    exit(73)
}
#endif
