import Foundation

/// A fresh folder for one test, removed (with only what it holds) when the test is done.
package final class TemporaryFolder: Sendable {
    package let url: URL

    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tally-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    package func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}
