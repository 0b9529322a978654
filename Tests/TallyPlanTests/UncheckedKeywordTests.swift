import Foundation
import Tally
import Testing

@testable import TallyPlan

/// Validation never passes what it did not check: keywords outside the subset refuse the plan unless
/// accepted explicitly.
@Suite("Unchecked keywords", .readsPlans)
struct UncheckedKeywordTests {
    static let plan = """
        version: 1
        events:
          - name: e
            description: Keywords Tally checks and keywords it does not.
            requried: [a]
            ownr: someone
            properties:
              a: { type: string, minLenght: 3, descripton: typo in an annotation }
              b: { $ref: "#/$defs/b", x-team: growth }
              c: { type: string, format: idn-email }
              d: { type: array, uniqueItems: true, items: { anyOf: [] } }
              e: { type: number, multipleOf: 0.5 }
              f: { type: object, minProperties: 1, maxProperties: 3, contentMediaType: text/plain }
        """

    @Test func thePlanListsEveryUncheckedKeywordWithItsLocation() {
        let result = PlanLoader.load(text: Self.plan, file: "plan.yaml")
        let unchecked = result.plan?.uncheckedKeywords ?? []
        #expect(unchecked.map(\.keyword) == ["requried", "minLenght", "$ref", "format: idn-email", "anyOf"])
        #expect(
            unchecked.map(\.location.description) == [
                "plan.yaml:5:5", "plan.yaml:8:26", "plan.yaml:9:12", "plan.yaml:10:34", "plan.yaml:11:53",
            ])
        #expect(
            unchecked.map(\.reason) == [
                .unknown(suggestion: "required"), .unknown(suggestion: "minLength"), .unsupported,
                .unknownFormat(suggestion: nil), .unsupported,
            ])
        // Typos in keys validation does not read stay plain warnings; `x-` keys are annotations.
        let warnings = result.warnings.map(\.message)
        #expect(warnings.contains("Unknown event key 'ownr' is ignored; did you mean 'owner'?"))
        #expect(warnings.contains("Unknown keyword 'descripton' is ignored; did you mean 'description'?"))
        #expect(!warnings.contains { $0.contains("x-team") || $0.contains("contentMediaType") })
        #expect(result.errors.isEmpty)
    }

    @Test func loadingForValidationRefusesThemByDefault() throws {
        #expect {
            try TrackingPlan(text: Self.plan)
        } throws: { error in
            let error = try #require(error as? PlanError)
            return error.kind == .invalidPlan
                && error.diagnostics.map(\.location.description) == [
                    "plan.yaml:5:5", "plan.yaml:8:26", "plan.yaml:9:12", "plan.yaml:10:34", "plan.yaml:11:53",
                ]
                && error.diagnostics[1].message
                    == "Unknown keyword 'minLenght' is not checked; did you mean 'minLength'? Validation would pass events that break it: remove it, or accept unchecked keywords (tally validate --allow-unchecked-keywords)"
        }
        let plan = try TrackingPlan(text: Self.plan, allowingUncheckedKeywords: true)
        #expect(plan.uncheckedKeywords.count == 5)
    }

    @Test func theCheapKeywordsAreEnforced() throws {
        let validator = PlanValidator(plan: try TrackingPlan(text: Self.plan, allowingUncheckedKeywords: true))
        let violations = validator.validate(Event("e", ["d": [1, 1], "e": 0.75, "f": [:]]))
        #expect(
            violations.map(\.rule) == [
                "uniqueItems: true (elements 0 and 1 are equal)", "multipleOf: 0.5", "minProperties: 1",
            ])
    }

    static func setUp(plan: String) throws -> (plan: String, recording: String) {
        let folder = try Fixtures.temporaryDirectory()
        let planURL = folder.appendingPathComponent("plan.yaml")
        try Data(plan.utf8).write(to: planURL)
        let recording = folder.appendingPathComponent("run.jsonl")
        try Data(RecordingCommandsTests.recording([Event("e", ["a": "abc"])]).utf8).write(to: recording)
        return (planURL.path, recording.path)
    }

    @Test func validateRefusesThePlanNamingEachKeyword() throws {
        let (plan, recording) = try Self.setUp(plan: Self.plan)
        let output = PlanTool.validate(planPath: plan, recordings: [recording])
        #expect(output.exitCode == 65)
        #expect(output.standardOutput.isEmpty)
        let lines = output.standardError.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines.first?.hasPrefix("\(plan):5:5: error: Unknown keyword 'requried' is not checked") == true)
        #expect(lines.allSatisfy { $0.hasPrefix(plan + ":") && $0.contains(": error: ") })
    }

    @Test func validateAcceptsThemWhenAskedAndSaysWhatWentUnchecked() throws {
        let (plan, recording) = try Self.setUp(plan: Self.plan)
        let output = PlanTool.validate(planPath: plan, recordings: [recording], allowUncheckedKeywords: true)
        #expect(output.exitCode == 0)
        #expect(
            output.standardOutput == """
                Checked 1 event from 1 recording: every event is valid
                Not checked (--allow-unchecked-keywords): 'requried' at \(plan):5:5, 'minLenght' at \(plan):8:26, \
                '$ref' at \(plan):9:12, 'format: idn-email' at \(plan):10:34, 'anyOf' at \(plan):11:53

                """)
        let json = PlanTool.validate(planPath: plan, recordings: [recording], json: true, allowUncheckedKeywords: true)
        #expect(json.exitCode == 0)
        #expect(json.standardError.hasPrefix("Not checked (--allow-unchecked-keywords): 'requried'"))
    }

    @Test func aFullyCheckedPlanSaysNothingMore() throws {
        let (plan, recording) = try Self.setUp(
            plan: "version: 1\nevents:\n  - name: e\n    description: d\n    properties:\n      a: {}\n")
        let output = PlanTool.validate(planPath: plan, recordings: [recording])
        #expect(output.exitCode == 0)
        #expect(output.standardOutput == "Checked 1 event from 1 recording: every event is valid\n")
    }
}
