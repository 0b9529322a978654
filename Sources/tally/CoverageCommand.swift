#if CLI
import ArgumentParser
import Foundation
import TallyPlan

/// `tally coverage --plan PLAN --recordings DIR`: plan coverage of a test run, with a bar and a baseline.
struct CoverageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract:
            "Show which planned events, properties and enum values a test run's recordings exercise; fail on drift.",
        discussion: """
            Point every spy and recorder of a test run at one folder with TALLY_RECORD_DIR, run the tests, \
            then read the folder here. The report lists each planned event (seen or not, how often), its \
            properties and enum values, by kind. The summary goes to standard error.

            Every recorded event is also validated against the plan, as tally validate does: a wrong value \
            or type, an unplanned event, an unplanned property, a wrong purpose and an event sent without \
            consent each fail the run, one line per event and rule with its count, \
            led by the file:line that recorded it when the recording says (the line that created a spy, an \
            in-memory destination or a RecordingDestination). A spy's records (stage tracked) are judged after \
            the plan's personal-data rules, as the client would deliver them. --allow-plan-violations skips \
            this check.

            --min fails the run when the share of planned events seen is under the bar. --baseline compares \
            with an earlier run's coverage and fails, naming each one, when an event, property or enum value \
            the baseline saw is no longer seen: a removed analytics call shows up here even when no test \
            asked for it. --fail-on-count-change also fails when a planned event was seen more or fewer \
            times than in the baseline (an event logged twice). --write-baseline records this run, counts \
            included, as the new baseline instead.

            Examples:
              TALLY_RECORD_DIR=.build/recordings swift test
              tally coverage --plan tracking-plan.yaml --recordings .build/recordings
              tally coverage --plan tracking-plan.yaml --recordings .build/recordings --min 90 --baseline coverage-baseline.json
              tally coverage --plan tracking-plan.yaml --recordings .build/recordings --baseline coverage-baseline.json --fail-on-count-change
              tally coverage --plan tracking-plan.yaml --recordings .build/recordings --baseline coverage-baseline.json --write-baseline
              tally coverage --plan tracking-plan.yaml --recordings .build/recordings --format junit --output coverage.xml

            Exit codes:
              0   every recorded event is valid, coverage is at or above the bar and nothing regressed
              1   a plan violation, unplanned event or unplanned property in the recordings (unless
                  --allow-plan-violations), under the bar, a regression since the baseline, or (with
                  --fail-on-count-change) a changed count
              64  bad usage
              65  the plan or the baseline is invalid, or a recording has an unreadable or cut-off line (the
                  file and line are printed; the other lines are still counted)
              66  the plan, the recordings or the baseline is missing or cannot be read
              73  the report or the baseline cannot be written (to its file, or to a full or closed
                  standard output)
            """
    )

    @Option(help: "The plan file, YAML or JSON.")
    var plan: String

    @Option(help: "A folder of recordings (or one recording file). Repeat to read several.")
    var recordings: [String] = []

    @Option(help: "The lowest acceptable share of planned events seen, in percent (0 to 100).")
    var min: Double?

    @Option(help: "A coverage baseline written by --write-baseline, to fail on regressions.")
    var baseline: String?

    @Flag(help: "Write this run's coverage to the --baseline file instead of comparing with it.")
    var writeBaseline = false

    @Flag(
        help: """
            Report coverage only: do not fail on plan violations, unplanned events or unplanned properties in \
            the recordings.
            """)
    var allowPlanViolations = false

    @Flag(help: "Also fail when a planned event's count differs from the --baseline's.")
    var failOnCountChange = false

    @Option(help: "Report format: table, json, markdown or junit.")
    var format: Format = .table

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, markdown, junit
    }

    func validate() throws {
        if recordings.isEmpty { throw ValidationError("Name the recordings with --recordings DIR.") }
        if let min, !(0...100).contains(min) { throw ValidationError("--min must be a percentage from 0 to 100.") }
        if writeBaseline && baseline == nil { throw ValidationError("--write-baseline needs --baseline FILE.") }
        if failOnCountChange && (baseline == nil || writeBaseline) {
            throw ValidationError(
                "--fail-on-count-change compares with --baseline FILE; it does not go with --write-baseline.")
        }
    }

    func run() throws {
        let result = PlanTool.coverage(
            planPath: plan, recordings: recordings, minimum: min, baselinePath: baseline, writeBaseline: writeBaseline,
            allowPlanViolations: allowPlanViolations, failOnCountChange: failOnCountChange,
            format: PlanTool.CoverageFormat(rawValue: format.rawValue) ?? .table, outputPath: output,
            style: .forFileDescriptor(output == nil ? STDOUT_FILENO : STDERR_FILENO))
        try result.finish()
    }
}
#endif
