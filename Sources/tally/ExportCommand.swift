#if CLI
import ArgumentParser
import Foundation
import TallyPlan

/// `tally export --plan PLAN --format FORMAT --output DIR`: the plan in a production pipeline's schema format.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract:
            "Write a tracking plan as the schemas production pipelines enforce: Iglu (Snowplow), Segment Protocols, JSON Schema 2020-12.",
        discussion: """
            Formats:
              json-schema  one JSON Schema 2020-12 file per event, <kind>.<name>.schema.json, describing its \
            properties (traits for identify and group): for warehouse checks (dbt, Great Expectations, \
            pg_jsonschema) and any validator.
              iglu         an Iglu static registry, schemas/<vendor>/<name>/jsonschema/<version>: self-describing \
            draft 4 schemas for Snowplow, named with --vendor or the plan's iglu: { vendor: com.example }. The schemas already in the output folder are the registry: an \
            unchanged schema keeps its version, a change every earlier event still meets bumps ADDITION \
            (1-0-1), any other change bumps MODEL (2-0-0), and a published version is never rewritten.
              segment      rules.json, the body of Segment's Public API request that replaces a tracking plan's \
            rules: draft-07 schemas wrapping the whole payload (properties, or traits for identify and group).

            Tally's own facts travel as x-tally-* keywords that validators ignore and tally import reads back \
            (name, kind, purpose, owner, expires, tags, personal marks); destinations and consent go to \
            tally-plan.json. What a format cannot say as the plan does (a format draft 4 does not define, an \
            event kind Segment has no rule for) is a warning at the plan's line. Output is sorted and \
            indented: the same plan always gives the same files.

            Examples:
              tally export --plan tracking-plan.yaml --format json-schema --output schemas/warehouse
              tally export --plan tracking-plan.yaml --format iglu --vendor com.example --output iglu-registry
              tally export --plan tracking-plan.yaml --format segment --output segment
              tally export --plan tracking-plan.yaml --format segment --output segment --check

            Exit codes:
              0   written (or, with --check, up to date)
              1   with --check: files would change
              64  bad usage (an unknown format, iglu without a vendor, a vendor Iglu refuses, two events \
            sharing one file)
              65  the plan is invalid, or the Iglu registry holds a file that is not a schema
              66  the plan file is missing or unreadable
              73  a file cannot be written, or standard output is full or closed
            """
    )

    @Option(help: "The plan file, YAML or JSON.")
    var plan: String

    @Option(help: "json-schema, iglu or segment.")
    var format: String

    @Option(help: "The folder to write (for iglu, the registry folder holding schemas/).")
    var output: String

    @Option(
        help: "The Iglu vendor, in reversed domain notation (com.example); iglu only. Default: the plan's iglu.vendor.")
    var vendor: String?

    @Flag(help: "Write nothing; exit with 1 if any file would change.")
    var check = false

    func run() throws {
        let result = PlanTool.export(
            planPath: plan, format: format, outputPath: output, vendor: vendor, check: check,
            style: .forFileDescriptor(STDERR_FILENO))
        try result.finish()
    }
}
#endif
