// Starts processes: `Process` exists on macOS and Linux only (iOS, tvOS and watchOS have none).
#if os(macOS) || os(Linux)

import Foundation
import TallyPlan
import TallyTestSupport
import Testing

/// The built `tally` executable (`TALLY_BINARY`, or where ``BuiltProducts`` finds it). A test that runs it
/// fails, saying what to build, when it is missing or was built without the `CLI` trait (that build only
/// explains how to get the command line, and a test feeding it a FIFO would wait forever): it never skips.
enum TallyBinary {
    /// Whether this build has the command line: `tally` built without the `CLI` trait only explains how to
    /// get it, so the suites that run it are off, and say why, in a plain `swift test`.
    #if CLI
    static let hasCommandLine = true
    #else
    static let hasCommandLine = false
    #endif

    /// Why the built-binary suites did not run.
    static let needsCommandLine: Comment =
        "needs the package trait CLI: swift test --traits CLI (CI enables every trait)"

    static func require() throws -> URL {
        try checked.get()
    }

    private static let build = "swift build --traits CLI --product tally"

    /// The binary, once checked to answer `--help`.
    private static let checked: Swift.Result<URL, any Error> = Swift.Result {
        let url = try BuiltProducts.require("tally", build: build, environmentVariable: "TALLY_BINARY")
        guard try runToEnd(url, ["--help"]).status == 0 else {
            throw MissingProduct(name: "tally with the CLI trait", build: build, searched: [url.path])
        }
        return url
    }

    struct Result {
        var standardOutput: String
        var standardError: String
        var exitCode: Int32
    }

    /// Runs the built binary and waits for it.
    ///
    /// - Parameters:
    ///   - standardOutputPath: a file to write standard output to (such as `/dev/full`) instead of a pipe.
    ///   - closedStandardOutput: give it a pipe whose reading end is already closed.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], standardOutputPath: String? = nil,
        closedStandardOutput: Bool = false
    ) throws -> Result {
        let binary = try require()
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let error = Pipe()
        if let standardOutputPath {
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: standardOutputPath))
        } else {
            process.standardOutput = output
        }
        process.standardError = error
        if closedStandardOutput { try output.fileHandleForReading.close() }
        try process.run()
        let outputData =
            standardOutputPath == nil && !closedStandardOutput
            ? output.fileHandleForReading.readDataToEndOfFile() : Data()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self), exitCode: process.terminationStatus)
    }
}

@Suite("Command line, the built binary", .enabled(if: TallyBinary.hasCommandLine, TallyBinary.needsCommandLine))
struct TallyBinaryTests {
    @Test func helpListsEveryCommandAtOneLevel() throws {
        let result = try TallyBinary.run(["--help"])
        #expect(result.exitCode == 0)
        for command in ["lint", "gen", "validate", "coverage", "privacy-manifest"] {
            #expect(result.standardOutput.contains("\n  \(command) "), "tally --help lists \(command)")
        }
        for renamed in ["plan", "check", "demo"] {
            #expect(!result.standardOutput.contains("\n  \(renamed) "), "tally --help hides the renamed \(renamed)")
        }
    }

    /// Runs a renamed command and returns its standard error, once checked to be a usage error (64) that
    /// ArgumentParser did not word as unexpected arguments.
    private func renamedCommandError(_ arguments: [String]) throws -> String {
        let result = try TallyBinary.run(arguments)
        #expect(result.exitCode == 64)
        #expect(result.standardOutput.isEmpty)
        #expect(!result.standardError.contains("nexpected argument"))
        return result.standardError
    }

    @Test func planLintAnswersWithLint() throws {
        let error = try renamedCommandError(["plan", "lint", "--warnings-as-errors", "tracking-plan.yaml"])
        #expect(
            error.hasPrefix(
                "Error: 'tally plan lint' is now 'tally lint': tally lint --warnings-as-errors tracking-plan.yaml\n"))
    }

    @Test func planAnswersWithLint() throws {
        let error = try renamedCommandError(["plan", "My Plan's.yaml"])
        #expect(error.hasPrefix("Error: 'tally plan' is now 'tally lint': tally lint 'My Plan'\\''s.yaml'\n"))
    }

    @Test func checkAnswersWithValidate() throws {
        let error = try renamedCommandError(["check", "--plan", "tracking-plan.yaml", ".build/recordings"])
        #expect(
            error.hasPrefix(
                "Error: 'tally check' is now 'tally validate': tally validate --plan tracking-plan.yaml .build/recordings\n"
            ))
        let bare = try renamedCommandError(["check"])
        #expect(bare.hasPrefix("Error: 'tally check' is now 'tally validate'.\n"))
    }

    @Test func demoAnswersWithTheExamplesDemo() throws {
        let error = try renamedCommandError(["demo", "--quiet"])
        #expect(
            error.hasPrefix(
                "Error: 'tally demo' is now the examples' demo, run in Tally's repository: swift run --package-path Examples demo --quiet\n"
            ))
    }

    @Test func onlyTheFirstArgumentCanBeARenamedCommand() throws {
        let result = try TallyBinary.run(["lint", "plan"])
        #expect(result.exitCode == 66)
        #expect(!result.standardError.contains("is now"))
    }

    @Test(arguments: [["lint", "--help"], ["gen", "--help"], ["privacy-manifest", "--help"]])
    func everySubcommandHasExamples(_ arguments: [String]) throws {
        let result = try TallyBinary.run(arguments)
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.contains("Examples:"))
    }

    @Test(arguments: [["lint", "--help"], ["gen", "--help"], ["privacy-manifest", "--help"]])
    func exitCodesAreDocumented(_ arguments: [String]) throws {
        let result = try TallyBinary.run(arguments)
        #expect(result.standardOutput.contains("Exit codes:"))
        #expect(result.standardOutput.contains("66"))
    }

    @Test func lintOfTheFixturePlan() throws {
        let path = Fixtures.fixturePlanURL.path
        let result = try TallyBinary.run(["lint", path])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput == "\(path): OK, 9 events\n")
    }

    @Test func lintExitCodes() throws {
        let invalid = try Fixtures.write(CommandLineTests.invalidPlan)
        let result = try TallyBinary.run(["lint", invalid.path])
        #expect(result.exitCode == 1)
        #expect(result.standardOutput.contains("\(invalid.path):4:11: error: Unknown kind 'trak'"))
        #expect(try TallyBinary.run(["lint", "/nonexistent/plan.yaml"]).exitCode == 66)
        let syntax = try Fixtures.write("{ not json", name: "plan.json")
        #expect(try TallyBinary.run(["lint", syntax.path]).exitCode == 65)
        #expect(try TallyBinary.run(["lint"]).exitCode == 64)
    }

    @Test func noColourWhenNotATerminal() throws {
        let invalid = try Fixtures.write(CommandLineTests.invalidPlan)
        let result = try TallyBinary.run(["lint", invalid.path])
        #expect(!result.standardOutput.contains("\u{1B}["))
    }

    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) for a terminal"))
    func colourOnATerminalUnlessNO_COLOR() throws {
        let invalid = try Fixtures.write(CommandLineTests.invalidPlan)
        let binary = try TallyBinary.require().path
        func underTerminal(_ environment: [String: String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qec", "'\(binary)' lint '\(invalid.path)'", "/dev/null"]
            var merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            if environment["NO_COLOR"] == nil { merged.removeValue(forKey: "NO_COLOR") }
            merged["TERM"] = "xterm"
            process.environment = merged
            let output = Pipe()
            process.standardOutput = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        #expect(try underTerminal([:]).contains("\u{1B}[1;31merror:"))
        #expect(!(try underTerminal(["NO_COLOR": "1"]).contains("\u{1B}[")))
    }

    @Test func genWritesWhatTheFixtureHolds() throws {
        let output = try Fixtures.temporaryDirectory().appendingPathComponent("Events.swift")
        let result = try TallyBinary.run(["gen", "--plan", Fixtures.fixturePlanURL.path, "--output", output.path])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput == "Wrote 9 event factories to \(output.path)\n")
        let committed = try String(contentsOf: CodeGenTests.generatedFile, encoding: .utf8)
        #expect(try String(contentsOf: output, encoding: .utf8) == committed)
        let check = try TallyBinary.run([
            "gen", "--plan", Fixtures.fixturePlanURL.path, "--output", output.path, "--check",
        ])
        #expect(check.exitCode == 0)
    }

    @Test func privacyManifestChecksAnAppsFile() throws {
        let plan = try Fixtures.write(PrivacyManifestTests.plan)
        let file = try Fixtures.temporaryDirectory().appendingPathComponent("PrivacyInfo.xcprivacy")
        let written = try TallyBinary.run(["privacy-manifest", "--plan", plan.path, "--output", file.path])
        #expect(written.exitCode == 0)
        #expect(written.standardOutput == "Wrote 5 data types to \(file.path)\n")
        let check = ["privacy-manifest", "--plan", plan.path, "--output", file.path, "--check"]
        #expect(try TallyBinary.run(check).exitCode == 0)
        try Data(PrivacyManifestTests.appManifest.utf8).write(to: file)
        let gaps = try TallyBinary.run(check)
        #expect(gaps.exitCode == 1)
        #expect(gaps.standardError.contains("error: missing NSPrivacyCollectedDataTypeDeviceID"))
        let usage = try TallyBinary.run(["privacy-manifest", "--plan", plan.path, "--check"])
        #expect(usage.exitCode == 64)
        #expect(usage.standardError.contains("--check needs --output"))
    }

    @Test func privacyManifestFailsOnAHostIOSWouldBlock() throws {
        let plan = try Fixtures.write(PrivacyManifestTests.domainsPlan)
        let file = try Fixtures.temporaryDirectory().appendingPathComponent("PrivacyInfo.xcprivacy")
        try PrivacyManifestTests.appManifest(trackingDomains: ["api.product.example"]).write(to: file)
        let written = try TallyBinary.run(["privacy-manifest", "--plan", plan.path, "--output", file.path])
        #expect(written.exitCode == 1)
        #expect(written.standardOutput.contains("  + NSPrivacyTrackingDomains: track.ads.example\n"))
        #expect(written.standardError.contains("error: \(PrivacyManifestTests.productListed)\n"))
        #expect(written.standardError.hasSuffix("1 gap left: tally privacy-manifest removes nothing; edit the file\n"))
        let check = try TallyBinary.run(["privacy-manifest", "--plan", plan.path, "--output", file.path, "--check"])
        #expect(check.exitCode == 1)
        #expect(check.standardError.contains("error: \(PrivacyManifestTests.productListed)\n"))
    }

    @Test func genExitCodes() throws {
        let out = try Fixtures.temporaryDirectory().appendingPathComponent("E.swift").path
        #expect(try TallyBinary.run(["gen", "--plan", "/nonexistent.yaml", "--output", out]).exitCode == 66)
        let invalid = try Fixtures.write(CommandLineTests.invalidPlan)
        let result = try TallyBinary.run(["gen", "--plan", invalid.path, "--output", out])
        #expect(result.exitCode == 65)
        #expect(result.standardError.contains("error: Unknown kind 'trak'"))
        #expect(try TallyBinary.run(["gen", "--plan", invalid.path]).exitCode == 64)
        #expect(
            try TallyBinary.run(["gen", "--plan", invalid.path, "--output", out, "--namespace", "not valid"]).exitCode
                == 64)
        #expect(
            try TallyBinary.run(["gen", "--plan", invalid.path, "--output", out, "--indent-width", "0"]).exitCode == 64)
        let plan = Fixtures.fixturePlanURL.path
        #expect(try TallyBinary.run(["gen", "--plan", plan, "--output", out, "--indent-width", "2"]).exitCode == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8).contains("\n  public static func aliasNewId("))
    }
}

#endif
