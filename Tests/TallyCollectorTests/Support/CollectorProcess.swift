#if Collector
import Foundation
import Testing

/// `tally collect` as a separate process: started from the built binary, its first line read, stopped by
/// its process id.
final class CollectorProcess: @unchecked Sendable {
    // `process` and the pipes are set up in init and only read afterwards.
    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()

    /// The built `tally`, next to the test bundle, or in `.build/debug`.
    static let binary: URL? = {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["TALLY_BINARY"] {
            candidates.append(URL(fileURLWithPath: path))
        }
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("tally"))
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("tally"))
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/tally"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Whether the suites that start the binary run: when it is built, and always with `CI=true`, where a
    /// missing binary fails them instead of skipping them silently.
    static var suitesRun: Bool {
        binary != nil || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    init(_ arguments: [String]) throws {
        guard let binary = Self.binary else { throw CollectorReaderTestError("the tally executable is not built") }
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
