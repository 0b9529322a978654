import Foundation
import TallyPlan
import Testing

/// `tally lint` and `tally gen`, run in-process through the functions the commands call.
@Suite("Command line, in-process", .readsPlans)
struct CommandLineTests {
    static let validPlan = "version: 1\nevents:\n  - name: a\n    description: x\n"
    static let warningPlan = "version: 1\nevents:\n  - name: a\n    description: x\n    ownr: me\n"
    static let invalidPlan = "version: 1\nevents:\n  - name: a\n    kind: trak\n    description: x\n  - name: b\n"

    @Test func lintOfACleanPlan() throws {
        let url = try Fixtures.write(Self.validPlan)
        let output = PlanTool.lint(path: url.path)
        #expect(output == ToolOutput(standardOutput: "\(url.path): OK, 1 event\n", exitCode: 0))
    }

    @Test func lintPrintsEveryFindingWithItsLocation() throws {
        let url = try Fixtures.write(Self.invalidPlan)
        let output = PlanTool.lint(path: url.path)
        #expect(output.exitCode == 1)
        #expect(
            output.standardOutput == """
                \(url.path):4:11: error: Unknown kind 'trak'; expected one of track, screen, identify, group, alias; did you mean 'track'?
                \(url.path):6:5: error: Event 'b' needs a 'description'
                \(url.path): 2 errors, 0 warnings

                """)
    }

    @Test func warningsPassUnlessTheyAreErrors() throws {
        let url = try Fixtures.write(Self.warningPlan)
        let lenient = PlanTool.lint(path: url.path)
        #expect(lenient.exitCode == 0)
        #expect(
            lenient.standardOutput == """
                \(url.path):5:5: warning: Unknown event key 'ownr' is ignored; did you mean 'owner'?
                \(url.path): 1 event, 1 warning

                """)
        #expect(PlanTool.lint(path: url.path, warningsAsErrors: true).exitCode == 1)
    }

    @Test func lintExitCodesForBadFiles() throws {
        let syntax = try Fixtures.write("version: 1\nevents: [\n")
        let syntaxOutput = PlanTool.lint(path: syntax.path)
        #expect(syntaxOutput.exitCode == 65)
        #expect(syntaxOutput.standardOutput.hasPrefix("\(syntax.path):3:1: error: "))
        let missing = try Fixtures.temporaryDirectory().appendingPathComponent("missing.yaml")
        #expect(
            PlanTool.lint(path: missing.path)
                == ToolOutput(standardOutput: "\(missing.path): error: No such file\n", exitCode: 66))
        #expect(PlanTool.lint(path: try Fixtures.temporaryDirectory().path).exitCode == 66)
    }

    @Test func lintIsColouredOnlyWhenAsked() throws {
        let url = try Fixtures.write(Self.invalidPlan)
        #expect(!PlanTool.lint(path: url.path, style: .plain).standardOutput.contains("\u{1B}["))
        let coloured = PlanTool.lint(path: url.path, style: TerminalStyle(colors: true)).standardOutput
        #expect(coloured.contains("\u{1B}[1;31merror:\u{1B}[0m"))
    }

    @Test func colourNeedsATerminalAndNoNO_COLOR() {
        #expect(TerminalStyle.detect(isTerminal: true, environment: [:]).colors)
        #expect(!TerminalStyle.detect(isTerminal: false, environment: [:]).colors)
        #expect(!TerminalStyle.detect(isTerminal: true, environment: ["NO_COLOR": "1"]).colors)
        #expect(TerminalStyle.detect(isTerminal: true, environment: ["NO_COLOR": ""]).colors)
        #expect(!TerminalStyle.detect(isTerminal: true, environment: ["TERM": "dumb"]).colors)
    }

    @Test func genWritesTheGeneratedSource() throws {
        let output = try Fixtures.temporaryDirectory().appendingPathComponent("Nested/Dir/Events.swift")
        let result = PlanTool.generate(planPath: Fixtures.fixturePlanURL.path, outputPath: output.path)
        #expect(result == ToolOutput(standardOutput: "Wrote 9 event factories to \(output.path)\n", exitCode: 0))
        let written = try String(contentsOf: output, encoding: .utf8)
        #expect(written == SwiftCodeGenerator().generate(try Fixtures.fixturePlan(), planFileName: "fixture-plan.yaml"))
    }

    /// `--indent-width 2`: the same lines with two spaces per level, as swift-format's default configuration
    /// indents; `--check` compares with that width.
    @Test func genWritesTheIndentWidthAsked() throws {
        let output = try Fixtures.temporaryDirectory().appendingPathComponent("Events.swift")
        let plan = Fixtures.fixturePlanURL.path
        #expect(PlanTool.generate(planPath: plan, outputPath: output.path, indentWidth: 2).exitCode == 0)
        let written = try String(contentsOf: output, encoding: .utf8)
        #expect(
            written
                == SwiftCodeGenerator(indentWidth: 2).generate(
                    try Fixtures.fixturePlan(), planFileName: "fixture-plan.yaml"))
        #expect(written.contains("\n  public static func aliasNewId(newId: String) -> Event {\n    Event(kind: .alias"))
        #expect(PlanTool.generate(planPath: plan, outputPath: output.path, indentWidth: 2, check: true).exitCode == 0)
        #expect(PlanTool.generate(planPath: plan, outputPath: output.path, check: true).exitCode == 1)
    }

    @Test func genCheckFindsDrift() throws {
        let output = try Fixtures.temporaryDirectory().appendingPathComponent("Events.swift")
        let plan = Fixtures.fixturePlanURL.path
        #expect(PlanTool.generate(planPath: plan, outputPath: output.path, check: true).exitCode == 1)
        #expect(!FileManager.default.fileExists(atPath: output.path), "--check writes nothing")
        _ = PlanTool.generate(planPath: plan, outputPath: output.path)
        #expect(PlanTool.generate(planPath: plan, outputPath: output.path, check: true).exitCode == 0)
        try Data("// edited\n".utf8).write(to: output, options: .atomic)
        let drift = PlanTool.generate(planPath: plan, outputPath: output.path, check: true)
        #expect(drift.exitCode == 1)
        #expect(drift.standardError.contains("out of date"))
    }

    @Test func genExitCodesForBadInputAndOutput() throws {
        let directory = try Fixtures.temporaryDirectory()
        let out = directory.appendingPathComponent("Events.swift").path
        let invalid = try Fixtures.write(Self.invalidPlan)
        let invalidResult = PlanTool.generate(planPath: invalid.path, outputPath: out)
        #expect(invalidResult.exitCode == 65)
        #expect(invalidResult.standardError.contains("\(invalid.path):4:11: error: Unknown kind 'trak'"))
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(
            PlanTool.generate(planPath: directory.appendingPathComponent("none.yaml").path, outputPath: out).exitCode
                == 66)
        // A path under a regular file cannot be created.
        let blocker = try Fixtures.write("x", name: "file")
        let unwritable = PlanTool.generate(
            planPath: Fixtures.fixturePlanURL.path, outputPath: blocker.appendingPathComponent("Events.swift").path)
        #expect(unwritable.exitCode == 73)
        #expect(unwritable.standardError.contains("cannot write the output"))
    }

    @Test func genPrintsWarningsButSucceeds() throws {
        let plan = try Fixtures.write(Self.warningPlan)
        let out = try Fixtures.temporaryDirectory().appendingPathComponent("E.swift").path
        let result = PlanTool.generate(planPath: plan.path, outputPath: out)
        #expect(result.exitCode == 0)
        #expect(
            result.standardError
                == "\(plan.path):5:5: warning: Unknown event key 'ownr' is ignored; did you mean 'owner'?\n")
    }
}
