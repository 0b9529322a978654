#if CLI
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import Tally
import TallyPlan

extension ToolOutput {
    /// Writes the captured output to standard output and standard error, then ends the command with its
    /// exit code.
    ///
    /// Foundation's `FileHandle.write(_:)` stops the process when a write fails (a full disk, a closed pipe;
    /// on Darwin with an Objective-C exception), and a write to a closed pipe raises SIGPIPE, which kills it
    /// silently. `tally` ignores SIGPIPE (see `TallyCommand.main()`) and writes with the core's
    /// `StandardStreams`, plain `write` calls, so a failed write is an error it reports.
    ///
    /// - Throws: `ExitCode` 73 when standard output or standard error cannot take the output (full,
    ///   closed), after saying so on standard error if it can; otherwise the command's own exit code when
    ///   it is not 0.
    func finish() throws {
        guard Self.write(standardOutput, to: STDOUT_FILENO, named: "standard output"),
            Self.write(standardError, to: STDERR_FILENO, named: "standard error")
        else { throw ExitCode(ToolExitCode.cannotCreateOutput) }
        if exitCode != ToolExitCode.success { throw ExitCode(exitCode) }
    }

    /// Writes `text` whole to `descriptor`.
    ///
    /// - Returns: false when the write failed; the reason has then been written to standard error (unless
    ///   that is the stream that failed).
    static func write(_ text: String, to descriptor: Int32, named name: String) -> Bool {
        guard let failure = StandardStreams.write(text, to: descriptor) else { return true }
        if descriptor != STDERR_FILENO {
            StandardStreams.writeToStandardError(
                "tally: error: cannot write to \(name): \(StandardStreams.describe(failure))\n")
        }
        return false
    }
}
#endif
