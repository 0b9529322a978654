import Foundation

/// Runs the fixture's `shop-app` executable, the "app", against a collector, as a UI test launches an app.
/// Shared by WorkflowTests and WorkflowFailingTests.
package enum ShopApp {
    /// Why the app could not be found, started, or exited with a failure.
    package struct Failed: Error, CustomStringConvertible {
        package let description: String
    }

    /// The built `shop-app`: next to the test bundle (macOS) or the test executable (Linux).
    package static var executable: URL {
        get throws {
            var folders = Bundle.allBundles.filter { $0.bundleURL.pathExtension == "xctest" }
                .map { $0.bundleURL.deletingLastPathComponent() }
            folders.append(Bundle.main.bundleURL)
            folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
            for folder in folders {
                let candidate = folder.appendingPathComponent("shop-app")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
            throw Failed(description: "shop-app is not built next to the tests (looked in \(folders.map(\.path)))")
        }
    }

    /// Runs the app with the collector's variables, waiting at most `timeout` seconds for it to exit.
    package static func run(_ arguments: [String], collector: URL, session: String, timeout: Double = 60) async throws {
        #if os(macOS) || os(Linux)
        let process = Process()
        process.executableURL = try executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TALLY_COLLECTOR"] = collector.absoluteString
        environment["TALLY_SESSION"] = session
        process.environment = environment
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
                return
            }
            // Bounded: an app that hangs is killed, and its status fails the test.
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                if process.isRunning { process.terminate() }
            }
        }
        if status != 0 { throw Failed(description: "shop-app \(arguments) exited with \(status)") }
        #else
        throw Failed(description: "launching an app process needs macOS or Linux")
        #endif
    }
}
