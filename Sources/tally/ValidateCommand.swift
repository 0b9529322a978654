#if CLI
import ArgumentParser
import Foundation
import TallyPlan

/// `tally validate --plan PLAN RECORDING...`: validates recorded events against a plan.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate recorded events against a tracking plan and print the violations grouped by event.",
        discussion: """
            Reads Tally recordings (JSON Lines written by RecordingDestination, or by spies when \
            TALLY_RECORD_DIR is set): files, or folders whose .jsonl files are all read. Every event is \
            validated against the plan; violations are grouped by event, each with how often it occurred and \
            one example.

            Examples:
              tally validate --plan tracking-plan.yaml .build/recordings/app.jsonl
              tally validate --plan tracking-plan.yaml .build/recordings
              tally validate --plan tracking-plan.yaml --format json .build/recordings > violations.json

            Exit codes:
              0   every event is valid
              1   at least one violation
              64  bad usage
              65  the plan or a recording is invalid (the file and line are printed)
              66  the plan or a recording is missing
            """
    )

    @Option(help: "The plan file, YAML or JSON.")
    var plan: String

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Argument(help: "Recording files or folders of recordings.")
    var recordings: [String]

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    func validate() throws {
        if recordings.isEmpty { throw ValidationError("Name at least one recording file or folder.") }
    }

    func run() throws {
        let output = PlanTool.validate(
            planPath: plan, recordings: recordings, json: format == .json, style: .forFileDescriptor(STDOUT_FILENO))
        output.write()
        if output.exitCode != 0 { throw ExitCode(output.exitCode) }
    }
}
#endif
