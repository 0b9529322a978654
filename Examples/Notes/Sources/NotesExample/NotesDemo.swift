import Foundation
import NotesFirebaseSDK
import NotesGoogleSDK
import Tally

/// The Notes scenario for the examples' demo (`swift run --package-path Examples demo`): a notes list wired
/// by the app's container sends a screen, a new note and a search through ``GoogleAnalyticsService`` to the
/// simulated Google SDK and Firebase, and the demo reports what was tracked and what each SDK received.
public enum NotesDemo {
    /// Runs the scenario and returns the report, one line each.
    public static func run() async -> [String] {
        let sdkLog = DemoLines()
        let firebaseLog = DemoLines()
        Analytics.debugLog = firebaseLog.append
        defer { Analytics.debugLog = nil }
        let trackedLines = DemoLines()
        let tracked = ConsoleDestination(name: "tracked", prefix: "", write: trackedLines.append)
        let app = NotesApp(
            makeAdapter: {
                GoogleSDK(
                    apiKey: NotesApp.Configuration.Google.apiKey,
                    clientSecret: NotesApp.Configuration.Google.clientSecret, debugLog: sdkLog.append)
            },
            destinations: [tracked])

        let list = app.makeNotesList()
        list.onAppear()
        list.createNote(text: "Buy milk and bread")
        list.search("milk")
        await app.flush()

        var lines = ["tracked (\(trackedLines.lines.count) events, through the container's GoogleAnalyticsService):"]
        lines += trackedLines.lines.map { "  \($0)" }
        lines.append("GoogleSDK received (\(sdkLog.lines.count) calls, from GoogleAnalyticsDestination):")
        lines += sdkLog.lines.map { "  \($0)" }
        lines.append("Firebase received (\(firebaseLog.lines.count) calls, from FirebaseDestination):")
        lines += firebaseLog.lines.map { "  \($0)" }
        return lines
    }
}

/// Lines collected from any thread, for the demo's report.
final class DemoLines: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []

    @Sendable func append(_ line: String) { lock.withLock { collected.append(line) } }
    var lines: [String] { lock.withLock { collected } }
}
