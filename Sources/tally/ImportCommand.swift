#if CLI
import ArgumentParser
import Foundation
import TallyPlan

extension PlanImportFormat: ExpressibleByArgument {}

/// `tally import --format FORMAT INPUT [--output FILE]`: a Tally plan from another tool's schemas.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Write a Tally plan from JSON Schema, Iglu, Segment Protocols or RudderStack schemas.",
        discussion: """
            Formats (--format):
              json-schema  event schema files (*.json): a directory, or one file
              iglu         an Iglu static registry (the newest version of each
                           schemas/<vendor>/<name>/jsonschema/M-R-A), or one
                           self-describing schema
              segment      Protocols rules, {"rules": [...]} or the Public API's
                           {"data": {"rules": [...]}}: a file, or a directory
                           holding rules.json
              rudderstack  RudderStack data catalog YAML (version: rudder/v1;
                           events, properties, custom-types, tracking-plan):
                           a directory, or one file

            The x-tally-* keywords (name, kind, purpose, owner, expires, tags, personal) that tally export \
            writes are read back, and tally-plan.json beside the schemas gives the destinations and consent. \
            Without them an event is a track event named by its title, Iglu name, rule key or RudderStack \
            event, with purpose analytics. Whatever the plan cannot hold (a keyword outside Tally's subset \
            such as anyOf or $ref, an unknown format, a PAGE or COMMON rule, a RudderStack variant) is a \
            warning at its line in the input, and so is each placeholder written for a missing description. \
            The plan is written to --output, or to standard output; warnings go to standard error.

            Examples:
              tally import --format segment rules.json --output tracking-plan.yaml
              tally import --format iglu registry/ --output tracking-plan.yaml
              tally import --format json-schema schemas/ > tracking-plan.yaml
              tally import --format rudderstack catalog/ --output tracking-plan.yaml

            Exit codes:
              0   imported (warnings allowed)
              64  bad usage
              65  the input is not JSON or YAML, or not in the format's shape
              66  the input is missing, unreadable, or holds no schemas
              73  the output file cannot be written, or standard output is full or closed
            """
    )

    @Option(help: "The input's format: \(PlanImportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: PlanImportFormat

    @Argument(help: "The file or directory to read.")
    var input: String

    @Option(help: "The plan file to write; standard output when not given.")
    var output: String?

    func run() throws {
        let result = PlanTool.importPlan(
            format: format, inputPath: input, outputPath: output, style: .forFileDescriptor(STDERR_FILENO))
        try result.finish()
    }
}
#endif
