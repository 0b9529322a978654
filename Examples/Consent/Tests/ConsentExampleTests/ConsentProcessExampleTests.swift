// A separate process is a macOS and Linux idea: iOS, tvOS and watchOS have no `Process`.
#if os(macOS) || os(Linux)

import ConsentExample
import Foundation
import Tally
import TallyPlan
import TallyTesting
import Testing

/// The consent example as a separate process: the test runs `consent-example`, which plays the app's
/// scripted session and records what each vendor received, then checks the recordings for the same
/// promises as `ConsentExampleTests`.
///
/// The app records into a fresh temporary folder, never into a run's `TALLY_RECORD_DIR`: its events belong
/// to `Examples/Consent/tracking-plan.yaml`, not to the seed scenarios' plan that CI's coverage gate reads.
@Suite(.exhaustive)
struct ConsentProcessExampleTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(1))) func theRecordedSessionKeepsThePrivacyPromises() async throws {
        let folder = try TemporaryFolder()
        #expect(try await ConsentExampleProcess.run(recordingIn: folder.url) == 0)
        let product = RecordingReader(url: try folder.recording(of: ConsentApp.productVendor))
        let ads = RecordingReader(url: try folder.recording(of: ConsentApp.adsVendor))
        try product.refresh()
        try ads.refresh()

        // Nothing of analytics before the user allowed it: every record ahead of the dialog's answer is
        // strictly necessary.
        let received = product.recordedEvents
        let answer = try #require(received.firstIndex { $0.name == "consent_answered" })
        #expect(received[..<answer].filter { $0.purpose != .necessary }.map(\.name) == [])
        // The e-mail address arrived hashed, the feedback text redacted, and nothing else looks personal.
        product.expectNotTracked(.holdingPersonalData())
        // Each vendor received only its purposes.
        ads.expectNotTracked(.purpose(.analytics))
        product.expectNotTracked(.purpose(.advertising))

        let plan = PlanValidator(plan: ConsentExampleTests.plan)
        product.expectValid(against: plan)
        ads.expectValid(against: plan)
        product.expectEvents(Event.scriptedSessionAtProduct)
        ads.expectEvents([.springAdClicked])
    }
}

/// Runs the built `consent-example` to its end.
enum ConsentExampleProcess {
    /// The built `consent-example`, next to the test bundle (the test target depends on it).
    static let binary: URL? = {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("consent-example"))
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("consent-example"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Runs the app with `TALLY_RECORD_DIR` set to `folder` (its output goes to `folder/output.txt`) and
    /// returns its exit status once it exited; the test's time limit bounds the wait.
    static func run(recordingIn folder: URL, sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws
        -> Int32
    {
        let binary = try #require(
            binary, "consent-example is not built next to the test bundle", sourceLocation: sourceLocation)
        let output = folder.appendingPathComponent("output.txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = binary
        var environment = ProcessInfo.processInfo.environment
        environment[RecordingDestination.folderVariable] = folder.path
        environment[RecordingDestination.fileVariable] = nil
        process.environment = environment
        process.standardOutput = handle
        process.standardInput = FileHandle.nullDevice
        return try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }
}

/// A fresh folder for one test, removed (with what it holds) when the test is done.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("consent-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The one recording `consent-example` wrote for `vendor`.
    func recording(of vendor: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> URL {
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
            .filter { $0.hasPrefix("consent-example-\(vendor)-") && $0.hasSuffix(".jsonl") }
        try #require(names.count == 1, "one recording of \(vendor), not \(names)", sourceLocation: sourceLocation)
        return url.appendingPathComponent(names[0])
    }
}

#endif
