#if CLI
import ArgumentParser

/// `tally plan`: commands that work on a tracking plan file.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Work with tracking plan files.",
        discussion: """
            A tracking plan lists the events an app may send and the properties each may carry, in YAML or \
            JSON. See the TallyPlan documentation, "Tracking plans", for the format.

            Examples:
              tally plan lint tracking-plan.yaml
              tally plan lint --warnings-as-errors Plans/tracking-plan.json
            """,
        subcommands: [PlanLintCommand.self]
    )
}
#endif
