import Foundation
import Tally
import TallyPlan
import Testing

/// `tally import`: a plan from each format's own kind of example, the warnings at their source lines, and
/// bad inputs with their exit codes.
@Suite("Importing a plan", .readsPlans)
struct PlanImportTests {
    /// The fixture folder of `format`: `input` (what is imported) and `expected.yaml` beside it.
    static func folder(_ format: PlanImportFormat) -> URL {
        Fixtures.directory.appendingPathComponent("Import").appendingPathComponent(format.rawValue)
    }

    /// Imports the fixture of `format` to standard output, with paths in diagnostics made relative to
    /// its folder.
    static func importFixture(_ format: PlanImportFormat, input: String = "input") -> ToolOutput {
        let folder = folder(format).path
        var output = PlanTool.importPlan(format: format, inputPath: folder + "/" + input)
        output.standardError = output.standardError.replacingOccurrences(of: folder + "/", with: "")
        return output
    }

    /// Checks that `yaml` loads as a plan and lints without errors.
    static func expectLoadsAndLints(
        _ yaml: String, _ format: PlanImportFormat, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let url = try Fixtures.write(yaml, name: "imported.yaml")
        let lint = PlanTool.lint(path: url.path)
        #expect(
            lint.exitCode == 0, "The plan imported from \(format.rawValue) does not lint:\n\(lint.standardOutput)",
            sourceLocation: sourceLocation)
        #expect(
            !lint.standardOutput.contains("error:"), "Lint errors:\n\(lint.standardOutput)",
            sourceLocation: sourceLocation)
        _ = try TrackingPlan(contentsOf: url)
    }

    /// Compares the imported YAML with the committed `expected.yaml`, printing both on a difference.
    static func expectImported(
        _ output: ToolOutput, matches format: PlanImportFormat,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let expected = try String(
            contentsOf: folder(format).appendingPathComponent("expected.yaml"), encoding: .utf8)
        #expect(
            output.standardOutput == expected,
            """
            The plan imported from \(format.rawValue) differs from Fixtures/Import/\(format.rawValue)/expected.yaml.
            Imported:
            \(output.standardOutput)
            Expected:
            \(expected)
            """, sourceLocation: sourceLocation)
    }

    // MARK: Each format

    @Test func jsonSchemaDirectory() throws {
        let output = Self.importFixture(.jsonSchema)
        #expect(output.exitCode == 0, "stderr: \(output.standardError)")
        try Self.expectImported(output, matches: .jsonSchema)
        #expect(
            output.standardError == """
                input/screen.menu.schema.json:1:1: warning: The event has no description, which a plan needs: a placeholder was written; describe it
                input/track.cake_ordered.schema.json:17:18: warning: 'anyOf' is outside Tally's keyword subset; it is not carried over, so the plan checks less than the source
                input/track.cake_ordered.schema.json:18:44: warning: The format 'color-hex' is not one Tally checks; it is not carried over
                Imported 2 events from input (json-schema), 3 warnings

                """)
        try Self.expectLoadsAndLints(output.standardOutput, .jsonSchema)
    }

    @Test func igluRegistryTakesTheNewestVersion() throws {
        let output = Self.importFixture(.iglu)
        #expect(output.exitCode == 0, "stderr: \(output.standardError)")
        try Self.expectImported(output, matches: .iglu)
        #expect(
            output.standardError == """
                input/schemas/com.example.bakery/loyalty_joined/jsonschema/1-0-0:8:19: warning: '$ref' is outside Tally's keyword subset; it is not carried over, so the plan checks less than the source
                Imported 2 events from input (iglu), 1 warning

                """)
        try Self.expectLoadsAndLints(output.standardOutput, .iglu)
        let plan = try TrackingPlan(text: output.standardOutput)
        // Draft 4's `minimum: 0, exclusiveMinimum: true` is the plan's `exclusiveMinimum: 0`.
        let total = try #require(plan.event(named: "order_placed")?.properties["total"])
        #expect(total.exclusiveMinimum == 0 && total.minimum == nil)
    }

    @Test func segmentRules() throws {
        let output = Self.importFixture(.segment, input: "rules.json")
        #expect(output.exitCode == 0, "stderr: \(output.standardError)")
        try Self.expectImported(output, matches: .segment)
        #expect(
            output.standardError == """
                rules.json:30:21: warning: The event has no description, which a plan needs: a placeholder was written; describe it
                rules.json:39:30: warning: 'oneOf' is outside Tally's keyword subset; it is not carried over, so the plan checks less than the source
                rules.json:47:15: warning: A PAGE rule is not carried over: a plan has track, screen, identify, group and alias events, each with its own properties
                Imported 2 events from rules.json (segment), 3 warnings

                """)
        try Self.expectLoadsAndLints(output.standardOutput, .segment)
    }

    @Test func rudderStackCatalog() throws {
        let output = Self.importFixture(.rudderstack)
        #expect(output.exitCode == 0, "stderr: \(output.standardError)")
        try Self.expectImported(output, matches: .rudderstack)
        #expect(
            output.standardError == """
                input/events.yaml:11:7: warning: 'category' is not carried over
                input/tracking-plan.yaml:23:7: warning: The rule's 'identity_section' is not carried over
                Imported 2 events from input (rudderstack), 2 warnings

                """)
        try Self.expectLoadsAndLints(output.standardOutput, .rudderstack)
    }
}
