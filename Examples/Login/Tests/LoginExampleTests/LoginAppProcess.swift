// A separate process is a macOS and Linux idea: iOS, tvOS and watchOS have no `Process` (a UI test there
// launches the app with XCUIApplication instead).
#if os(macOS) || os(Linux)

import Foundation
import Testing

/// The `login-example` app running as a separate process, driven through its standard input: the
/// stand-in for the article's `XCUIApplication`.
///
/// `send(_:)` writes a command and waits for the app's `ok` line, which it prints after the command's
/// events reached every destination: when `send` returns, the recording holds them. No sleeping, no
/// polling: the wait ends when the line arrives.
final class LoginAppProcess {
    /// The built `login-example`, next to the test bundle (SwiftPM builds it because the test target
    /// depends on it), or where `LOGIN_EXAMPLE_BINARY` says.
    static let binary: URL? = {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["LOGIN_EXAMPLE_BINARY"] {
            candidates.append(URL(fileURLWithPath: path))
        }
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("login-example"))
        }
        // On macOS the test bundle is a directory inside the products directory.
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("login-example"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    private let process = Process()
    private let input = Pipe()
    private let outputPipe = Pipe()
    private let output = LineReader()

    /// Launches the app with `environment` added to this process's environment.
    ///
    /// - Throws: when the binary is missing (a test failure, not a skip: the test target depends on the
    ///   executable, so a missing binary is a broken build) or cannot be started.
    init(environment: [String: String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let binary = try #require(
            Self.binary, "login-example is not built next to the test bundle", sourceLocation: sourceLocation)
        let pipe = outputPipe
        let reader = output
        pipe.fileHandleForReading.readabilityHandler = { handle in reader.consume(handle.availableData) }
        process.executableURL = binary
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = input
        process.standardOutput = pipe
        try process.run()
    }

    deinit {
        outputPipe.fileHandleForReading.readabilityHandler = nil
        if process.isRunning { process.terminate() }
    }

    /// Waits for the app's first line, `ready, destinations: …`, and returns it.
    func ready() async -> String? {
        await output.nextLine()
    }

    /// What the app answered to a command.
    struct Reply: Equatable {
        /// The lines it printed before its answer: its console analytics.
        var printed: [String]
        /// Whether it performed the command (`ok …`) rather than refusing it (`error …`).
        var accepted: Bool
    }

    /// Sends `command` and waits for the app's answer: `ok <command>` once the command's events reached
    /// every destination, or `error <command>` for a command it does not know. Returns nil if the app
    /// exited first.
    @discardableResult
    func send(_ command: String) async throws -> Reply? {
        try input.fileHandleForWriting.write(contentsOf: Data((command + "\n").utf8))
        var printed: [String] = []
        while let line = await output.nextLine() {
            if line.hasPrefix("ok ") { return Reply(printed: printed, accepted: true) }
            if line.hasPrefix("error ") { return Reply(printed: printed, accepted: false) }
            printed.append(line)
        }
        return nil
    }

    /// Sends `quit`, reads the app's output up to its last line (`bye`) and returns its exit status.
    ///
    /// It waits for `bye` rather than for the end of the output: a process launched by a test running in
    /// parallel may have inherited this pipe's write end, and the output then ends only when that process
    /// does.
    func quit() async throws -> Int32 {
        try input.fileHandleForWriting.write(contentsOf: Data("quit\n".utf8))
        while let line = await output.nextLine(), line != "bye" {}
        process.waitUntilExit()  // It printed its last line: it is exiting.
        return process.terminationStatus
    }
}

/// Splits a pipe's data into lines and hands them, one at a time, to one waiting reader.
final class LineReader: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()
    private var lines: [String] = []
    private var ended = false
    private var waiter: CheckedContinuation<String?, Never>?

    /// Called with each chunk read; an empty chunk is the end of the output.
    func consume(_ data: Data) {
        let (waiter, line): (CheckedContinuation<String?, Never>?, String?) = lock.withLock {
            if data.isEmpty {
                ended = true
            } else {
                buffer.append(data)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
            }
            guard let waiter = self.waiter, !lines.isEmpty || ended else { return (nil, nil) }
            self.waiter = nil
            return (waiter, lines.isEmpty ? nil : lines.removeFirst())
        }
        waiter?.resume(returning: line)
    }

    /// The next line, or nil once the output has ended.
    func nextLine() async -> String? {
        await withCheckedContinuation { continuation in
            let ready: (Bool, String?) = lock.withLock {
                if !lines.isEmpty { return (true, lines.removeFirst()) }
                if ended { return (true, nil) }
                precondition(waiter == nil, "LineReader has one reader")
                waiter = continuation
                return (false, nil)
            }
            if ready.0 { continuation.resume(returning: ready.1) }
        }
    }
}

#endif
