#if CLI
import ArgumentParser

/// The `tally` command line.
@main
struct TallyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tally",
        abstract: "Make analytics provable: lint tracking plans, generate event code, validate recordings, measure coverage.",
        discussion: """
            Examples:
              tally plan lint tracking-plan.yaml
              tally gen --plan tracking-plan.yaml --output Sources/App/TrackingPlan+Events.swift
              tally validate --plan tracking-plan.yaml .build/recordings
              tally coverage --plan tracking-plan.yaml --recordings .build/recordings --min 90 --baseline coverage-baseline.json

            Exit codes: 0 success, 1 a check failed (violations, coverage under the bar, a regression), \
            64 bad usage, 65 invalid input file, 66 missing input file, 73 cannot write the output.
            """,
        subcommands: [
            PlanCommand.self,
            GenCommand.self,
            ValidateCommand.self,
            CoverageCommand.self,
        ]
    )
}
#endif
