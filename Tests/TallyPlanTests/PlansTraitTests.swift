import Foundation
import Tally
import TallyPlan
import Testing

/// Without the `Plans` trait (a plain `swift test`), TallyPlan compiles but reads no plan: every load fails
/// with one error naming the trait and the dependency line to write, and the plugin's tool writes an #error
/// that says the same. With the trait (CI's --enable-all-traits) the other suites read plans and this one is
/// off.
@Suite(
    "Without the Plans trait",
    .enabled(
        if: !PlanLoader.canReadPlans,
        "checks the build without the Plans trait: run a plain swift test (no traits) to run it"))
struct PlansTraitTests {
    static let yaml = """
        version: 1
        events:
          - name: e
            description: An event.
        """

    @Test func loadingPlanTextFailsNamingTheTraitAndTheDependencyLine() throws {
        let result = PlanLoader.load(text: Self.yaml, file: "tracking-plan.yaml")
        #expect(result.plan == nil)
        #expect(result.failureKind == .unreadable)
        #expect(result.diagnostics.count == 1)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.file == "tracking-plan.yaml")
        #expect(diagnostic.message.contains("package trait 'Plans'"))
        #expect(diagnostic.message.contains(#"traits: ["Plans"]"#))
        #expect(diagnostic.message.contains("Yams"))
    }

    @Test func jsonPlansNeedTheTraitToo() {
        let result = PlanLoader.load(text: #"{"version": 1, "events": []}"#, file: "plan.json")
        #expect(result.failureKind == .unreadable)
        #expect(result.diagnostics.map(\.message) == [PlanLoader.planReadingNeedsTrait])
    }

    @Test func trackingPlanThrowsThePlanErrorInsteadOfAnEmptyPlan() {
        #expect {
            try TrackingPlan(text: Self.yaml)
        } throws: { error in
            let error = error as? PlanError
            return error?.kind == .unreadable && error?.message == PlanLoader.planReadingNeedsTrait
        }
    }

    @Test func aPlanFileFailsWithTheSameErrorAtItsPath() throws {
        let url = try Fixtures.write(Self.yaml)
        #expect(throws: PlanError.self) { try TrackingPlan(contentsOf: url) }
        let result = PlanLoader.load(contentsOf: url, displayName: "tracking-plan.yaml")
        #expect(
            result.diagnostics.map(\.description) == [
                "tracking-plan.yaml: error: \(PlanLoader.planReadingNeedsTrait)"
            ])
    }

    @Test func lintAndGenExitWithTheMissingInputCodeAndPrintTheError() throws {
        let url = try Fixtures.write(Self.yaml)
        let output = try Fixtures.temporaryDirectory().appendingPathComponent("Events.swift")
        let lint = PlanTool.lint(path: url.path)
        #expect(lint.exitCode == ToolExitCode.missingInput)
        #expect(lint.standardOutput.contains("package trait 'Plans'"))  // lint prints its findings
        let gen = PlanTool.generate(planPath: url.path, outputPath: output.path)
        #expect(gen.exitCode == ToolExitCode.missingInput)
        #expect(gen.standardError.contains(#"traits: ["Plans"]"#))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    /// What the build plugin's tool writes instead of factories: an #error for the target applying the plugin
    /// (this repository's own fixture defines TALLY_PLAN_GENERATOR_FIXTURE to build without the trait).
    @Test func thePluginsToolWritesAnErrorNamingTheTrait() {
        let source = PlanTool.sourceWithoutPlans(planFileName: "tracking-plan.yaml")
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 5)
        #expect(lines[1] == "#if !TALLY_PLAN_GENERATOR_FIXTURE")
        #expect(lines[2].hasPrefix(#"#error("TallyPlanGenerator cannot read tracking-plan.yaml. "#))
        #expect(lines[2].contains(#"traits: [\"Plans\"]"#))
        #expect(lines[2].hasSuffix(#"")"#))
        #expect(lines[3] == "#endif")
    }
}
