#if CLI
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import TallyPlan

/// The `tally` command line.
@main
struct TallyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tally",
        abstract:
            "Make analytics provable: lint tracking plans, generate event code, validate recordings, measure coverage, write privacy manifests, export and import schemas.",
        discussion: """
            Examples:
              tally lint tracking-plan.yaml
              tally gen --plan tracking-plan.yaml --output Sources/App/TrackingPlan+Events.swift
              tally validate --plan tracking-plan.yaml .build/recordings
              tally coverage --plan tracking-plan.yaml --recordings .build/recordings --min 90 --baseline coverage-baseline.json
              tally compare --recordings .build/recordings --collector http://127.0.0.1:8787 --session checkout
              tally privacy-manifest --plan tracking-plan.yaml --output App/PrivacyInfo.xcprivacy --check
              tally export --plan tracking-plan.yaml --format iglu --vendor com.example --output iglu-registry
              tally import --format segment segment/rules.json --output tracking-plan.yaml

            Exit codes: 0 success, 1 a check failed (violations, coverage under the bar, a regression), \
            64 bad usage, 65 invalid input file (or an unreadable line in a recording), 66 missing or \
            unreadable input file, 73 cannot write the output (a file, or a full or closed standard output).
            """,
        subcommands: [
            LintCommand.self,
            GenCommand.self,
            ValidateCommand.self,
            CoverageCommand.self,
            CompareCommand.self,
            PrivacyManifestCommand.self,
            ExportCommand.self,
            ImportCommand.self,
        ] + collectorCommands  // `collect`, with the Collector trait (CollectCommand.swift)
    )

    /// Runs the command line, writing every message with plain `write` calls, so a full or closed standard
    /// output or error ends the process with exit code 73 and a message instead of killing it.
    static func main() async {
        // A write to a closed pipe then fails with EPIPE, which is reported, instead of killing the process.
        signal(SIGPIPE, SIG_IGN)
        var code: Int32
        do {
            // A renamed command (tally plan lint) is answered with its new name (RenamedCommand.swift).
            try RenamedCommand.reject(Array(CommandLine.arguments.dropFirst()))
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            code = ToolExitCode.success
        } catch {
            // Help, usage errors and exit codes, as ArgumentParser words them: to standard output for a
            // success (help), to standard error otherwise.
            code = exitCode(for: error).rawValue
            var message = fullMessage(for: error)
            if !message.isEmpty && !message.hasSuffix("\n") { message += "\n" }
            let written =
                code == ToolExitCode.success
                ? ToolOutput.write(message, to: STDOUT_FILENO, named: "standard output")
                : ToolOutput.write(message, to: STDERR_FILENO, named: "standard error")
            if !written { code = ToolExitCode.cannotCreateOutput }
        }
        // Nothing should be left in the C library's buffers; if something is and cannot be written, say so.
        if fflush(nil) != 0 && code == ToolExitCode.success { code = ToolExitCode.cannotCreateOutput }
        #if canImport(Darwin)
        Darwin.exit(code)
        #elseif canImport(Glibc)
        Glibc.exit(code)
        #else
        Musl.exit(code)
        #endif
    }
}
#endif
