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

extension ToolOutput {
    /// Writes the captured output to standard output and standard error, then ends the command with its
    /// exit code.
    ///
    /// - Throws: `ExitCode` 73 when standard output or standard error cannot take the output (full,
    ///   closed), after saying so on standard error if it can; otherwise the command's own exit code when
    ///   it is not 0.
    func finish() throws {
        guard StandardStreams.write(standardOutput, to: STDOUT_FILENO, named: "standard output"),
            StandardStreams.write(standardError, to: STDERR_FILENO, named: "standard error")
        else { throw ExitCode(ToolExitCode.cannotCreateOutput) }
        if exitCode != ToolExitCode.success { throw ExitCode(exitCode) }
    }
}

/// Writing to this process's standard output and error without dying on them.
///
/// Foundation's `FileHandle.write(_:)` stops the process when a write fails (a full disk, a closed pipe),
/// and a write to a closed pipe raises SIGPIPE, which kills it silently. `tally` ignores SIGPIPE (see
/// `TallyCommand.main()`) and writes with plain `write` calls, so a failed write is an error it reports:
/// exit code 73, with a message on standard error when that still works.
enum StandardStreams {
    /// Writes `text` whole to `descriptor`.
    ///
    /// - Returns: false when the write failed; the reason has then been written to standard error (unless
    ///   that is the stream that failed).
    static func write(_ text: String, to descriptor: Int32, named name: String) -> Bool {
        guard !text.isEmpty else { return true }
        var text = text
        let failure: Int32? = text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = system_write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return written < 0 ? errno : EIO
                }
            }
            return nil
        }
        guard let failure else { return true }
        if descriptor != STDERR_FILENO {
            _ = write("tally: error: cannot write to \(name): \(String(cString: strerror(failure)))\n", to: STDERR_FILENO, named: "standard error")
        }
        return false
    }

    private static func system_write(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
        return Darwin.write(descriptor, buffer, count)
        #elseif canImport(Glibc)
        return Glibc.write(descriptor, buffer, count)
        #else
        return Musl.write(descriptor, buffer, count)
        #endif
    }
}
#endif
