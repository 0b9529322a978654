// Starts processes: `Process` exists on macOS and Linux only (iOS, tvOS and watchOS have none).
#if os(macOS) || os(Linux)

#if Delivery
import Foundation
import Tally
import TallyTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Python batch server of Fixtures/batch_server.py, on 127.0.0.1, started and stopped by process id.
final class BatchServer: Sendable {
    /// One batch the server accepted.
    struct Batch: Sendable {
        var messageIds: [String]
        var properties: [PropertyValue]
        var retry: Int
        var authorization: String
    }

    let port: Int
    let log: URL
    private let process: Process

    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/batch_server.py")

    /// Starts the server, logging to `log`, on `port` (0 for a free one), and waits until it listens.
    init(log: URL, port: Int = 0, randomFaults: Double = 0) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", Self.script.path, log.path, "--port", String(port)]
        if randomFaults > 0 { arguments += ["--random-faults", String(randomFaults)] }
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // The first line is `port N`, written once the socket listens.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("port "), let listening = Int(text.dropFirst(5)) else {
            process.terminate()
            throw ServerError(message: "the batch server did not start: \(text)")
        }
        self.process = process
        self.port = listening
        self.log = log
    }

    struct ServerError: Error { var message: String }

    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)/v1/batch")! }

    /// Queues faults for the next batch requests (see the script).
    func fail(_ faults: [String]) async throws {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/control")!)
        request.httpMethod = "POST"
        request.httpBody = Data(PropertyValue.object(["faults": .array(faults.map { .string($0) })]).jsonString.utf8)
        _ = try await URLSession.shared.data(for: request)
    }

    /// The batches accepted so far, and how many were corrupt.
    func received() throws -> (batches: [Batch], corrupt: Int) {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        var batches: [Batch] = []
        var corrupt = 0
        for line in text.split(separator: "\n") {
            let value = try PropertyValue(json: String(line))
            if value["corrupt"] != nil {
                corrupt += 1
                continue
            }
            batches.append(
                Batch(
                    messageIds: value["messageIds"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                    properties: value["properties"]?.arrayValue ?? [],
                    retry: value["retry"]?.intValue ?? -1,
                    authorization: value["authorization"]?.stringValue ?? ""))
        }
        return (batches, corrupt)
    }

    /// Stops the server (by its process id) and waits for it to exit.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}
#endif

#endif
