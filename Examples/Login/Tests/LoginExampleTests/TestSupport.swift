import Foundation

/// Console lines captured from the client's delivery thread.
final class ConsoleCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var captured: [String] = []

    @Sendable func append(_ line: String) { lock.withLock { captured.append(line) } }
    var lines: [String] { lock.withLock { captured } }
}

/// A fresh folder for one test, removed (with only what it holds) when the test is done.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("login-example-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}
