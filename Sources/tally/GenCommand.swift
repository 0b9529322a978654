#if CLI
import ArgumentParser
import Foundation
import TallyPlan

/// `tally gen --plan PLAN --output FILE`: generates typed event factories from a plan.
struct GenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gen",
        abstract: "Generate Swift factories on Event for every event of a tracking plan, and its runtime rules.",
        discussion: """
            Writes one public static factory on Event per planned event: parameters typed from the schema, \
            Swift enums for string enums, doc comments from descriptions. Event and property names are kept \
            verbatim, so an event named a=b's is tracked as a=b's. Beside them, in the namespace enum \
            (PlannedEvents), it writes the plan's runtime rules as a PlanRules value, rules (each event's \
            purpose, consent.required, the purposes and hosts of each destination, each personal property's \
            rule), and the destinations' names, Destinations: one line configures the app's client from \
            them, AnalyticsClient.Configuration(rules: PlannedEvents.rules, hash: ...), so the app never \
            reads the plan at runtime. The output is sorted and has no timestamp: the same plan always gives \
            the same file. It is laid out as swift-format lays it out, within 100 columns, so swift format \
            lint --strict passes it unchanged: with four spaces per level by default, and with \
            --indent-width 2 under swift-format's default configuration.

            The TallyPlanGenerator build-tool plugin runs this on every build for a target that has a \
            tracking-plan.yaml (or .yml or .json), so the code cannot drift from the plan. Without the \
            plugin, run with --check in CI.

            Examples:
              tally gen --plan tracking-plan.yaml --output Sources/App/TrackingPlan+Events.swift
              tally gen --plan plan.json --output Events.swift --namespace AppEvents
              tally gen --plan plan.json --output Events.swift --indent-width 2
              tally gen --plan tracking-plan.yaml --output Sources/App/TrackingPlan+Events.swift --check

            Exit codes:
              0   written (or, with --check, up to date)
              1   with --check: the output file is out of date
              64  bad usage
              65  the plan is invalid, or not UTF-8 (errors print to standard error)
              66  the plan file is missing or unreadable
              73  the output file cannot be written, or standard output is full or closed
            """
    )

    @Option(help: "The plan file, YAML or JSON.")
    var plan: String

    @Option(help: "The Swift file to write.")
    var output: String

    @Option(help: "The enum that holds the plan's rules, its destinations' names and the generated enum types.")
    var namespace = "PlannedEvents"

    @Option(
        help: """
            The spaces per indentation level: 4, or 2 to match swift-format's default configuration (the \
            output passes swift format lint --strict either way, within 100 columns).
            """)
    var indentWidth = 4

    @Flag(help: "Write nothing; exit with 1 if the output file differs from what would be written.")
    var check = false

    func validate() throws {
        guard namespace.first.map({ $0.isLetter || $0 == "_" }) == true,
            namespace.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else {
            throw ValidationError("--namespace must be a Swift identifier, such as PlannedEvents")
        }
        guard (1...8).contains(indentWidth) else {
            throw ValidationError("--indent-width must be between 1 and 8, such as 2 or 4")
        }
    }

    func run() throws {
        let result = PlanTool.generate(
            planPath: plan, outputPath: output, namespace: namespace, indentWidth: indentWidth, check: check,
            style: .forFileDescriptor(STDERR_FILENO))
        try result.finish()
    }
}
#endif
