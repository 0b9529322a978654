// Starts processes: `Process` exists on macOS and Linux only (iOS, tvOS and watchOS have none).
#if os(macOS) || os(Linux)

#if Collector
import Foundation
import TallyTestSupport
import Testing

/// `tally collect` as a separate process: started from the built binary, its first line read, stopped by
/// its process id.
final class CollectorProcess: @unchecked Sendable {
    // `process` and the pipes are set up in init and only read afterwards.
    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()

    /// The built `tally` (`TALLY_BINARY`, or where ``BuiltProducts`` finds it); the test target depends on it.
    /// A missing binary fails the test that starts it, saying what to build: it never skips.
    static func requireBinary() throws -> URL {
        try BuiltProducts.require(
            "tally", build: "swift build --traits CLI,Collector --product tally", environmentVariable: "TALLY_BINARY")
    }

    init(_ arguments: [String]) throws {
        let binary = try Self.requireBinary()
        process.executableURL = binary
        process.arguments = ["collect"] + arguments
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// The first line on standard output (nil if the process ended first), read off the cooperative pool.
    func firstLine() async -> String? {
        let handle = output.fileHandleForReading
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var bytes: [UInt8] = []
                while true {
                    let chunk = handle.readData(ofLength: 1)
                    guard let byte = chunk.first else { return continuation.resume(returning: nil) }
                    if byte == UInt8(ascii: "\n") {
                        return continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
                    }
                    bytes.append(byte)
                }
            }
        }
    }

    /// The URL the first line announces (`Listening on http://HOST:PORT`).
    func listeningURL() async throws -> URL {
        guard let line = await firstLine() else {
            throw CollectorReaderTestError("tally collect ended without a line: \(await standardError())")
        }
        #expect(line.hasPrefix("Listening on http://"), "\(line)")
        return try #require(URL(string: String(line.dropFirst("Listening on ".count))))
    }

    /// Sends `signal` to the process (by its id) and waits for it to end.
    ///
    /// - Returns: its exit status, or the signal that ended it.
    @discardableResult
    func stop(with signal: Int32) async -> (status: Int32, reason: Process.TerminationReason) {
        kill(pid, signal)
        return await exit()
    }

    /// Waits for the process to end, off the cooperative pool.
    func exit() async -> (status: Int32, reason: Process.TerminationReason) {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                self.process.waitUntilExit()
                continuation.resume(returning: (self.process.terminationStatus, self.process.terminationReason))
            }
        }
    }

    /// Everything written to standard error, once the process has ended.
    func standardError() async -> String {
        let handle = errors.fileHandleForReading
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: String(decoding: handle.readDataToEndOfFile(), as: UTF8.self))
            }
        }
    }
}
#endif

#endif
