import ArgumentParser

/// The `tally` command line.
@main
struct TallyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tally",
        abstract: "Make analytics provable: run the demo, check recordings against a tracking plan, generate code.",
        discussion: """
            Exit codes: 0 success, 1 a check failed (violations, coverage under the bar, a regression), \
            64 bad usage, 65 invalid input file, 66 missing input file.
            """,
        subcommands: [
            DemoCommand.self,
            GenCommand.self,
            PlanCommand.self,
        ]
    )
}
