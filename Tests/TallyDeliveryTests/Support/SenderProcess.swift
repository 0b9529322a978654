// Starts processes: `Process` exists on macOS and Linux only (iOS, tvOS and watchOS have none).
#if os(macOS) || os(Linux)

#if Delivery
import Foundation
import Tally
import TallyTestSupport
import Testing

/// The `tally-delivery-sender` fixture running as a separate process, read line by line.
final class SenderProcess: Sendable {
    /// The built fixture, where ``BuiltProducts`` finds it (the test target depends on it).
    static func requireBinary() throws -> URL {
        try BuiltProducts.require(
            "tally-delivery-sender", build: "swift build --traits Delivery --product tally-delivery-sender")
    }

    private let process: Process
    private let pipe = Pipe()
    private let lines = LineQueue()

    init(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let binary = try Self.requireBinary()
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = pipe
        try process.run()
        self.process = process
        // Blocking reads on a thread of its own until end of file. (A `readabilityHandler` missed the end of
        // file of a killed sender about once in a few hundred runs on Linux, and the test then waited forever.)
        let lines = self.lines
        let output = pipe.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let data = output.availableData
                if data.isEmpty { break }
                lines.consume(data)
            }
            lines.close()
        }
        // A guard, not a clock: a sender that hangs is killed so that the test fails instead of waiting forever.
        let watched = process
        let timedOut = self.timedOut
        DispatchQueue.global().asyncAfter(deadline: .now() + 120) {
            guard watched.isRunning else { return }
            timedOut.withLock { $0 = true }
            kill(watched.processIdentifier, SIGKILL)
        }
    }

    /// Whether the guard had to kill the sender after two minutes.
    let timedOut = Locked(false)

    /// The next line the sender printed, or nil once it exited.
    func nextLine() async -> String? { await lines.next() }

    /// Kills the sender with SIGKILL, by its process id, and waits for it to be gone.
    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits for the sender to exit and returns its status.
    func exitStatus() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Bytes in, whole lines out, awaited one at a time.
final class LineQueue: Sendable {
    private struct State {
        var buffer = Data()
        var lines: [String] = []
        var closed = false
        var waiter: CheckedContinuation<String?, Never>?
    }

    private let state = Locked(State())

    func consume(_ data: Data) {
        let (waiter, line): (CheckedContinuation<String?, Never>?, String?) = state.withLock { state in
            state.buffer.append(data)
            while let newline = state.buffer.firstIndex(of: UInt8(ascii: "\n")) {
                state.lines.append(String(decoding: state.buffer[state.buffer.startIndex..<newline], as: UTF8.self))
                state.buffer.removeSubrange(state.buffer.startIndex...newline)
            }
            guard let waiter = state.waiter, !state.lines.isEmpty else { return (nil, nil) }
            state.waiter = nil
            return (waiter, state.lines.removeFirst())
        }
        waiter?.resume(returning: line)
    }

    func close() {
        let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
            state.closed = true
            defer { state.waiter = nil }
            return state.lines.isEmpty ? state.waiter : nil
        }
        waiter?.resume(returning: nil)
    }

    func next() async -> String? {
        await withCheckedContinuation { continuation in
            let ready: String?? = state.withLock { state in
                if !state.lines.isEmpty { return .some(state.lines.removeFirst()) }
                if state.closed { return .some(nil) }
                state.waiter = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
#endif

#endif
