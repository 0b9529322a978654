import Foundation
import Tally

/// The Login scenario for the examples' demo (`swift run --package-path Examples demo`): the screen appears, the user taps Login and then Sign Up; the
/// console destination prints each event as the article's `ConsoleAnalytics` does.
public enum LoginDemo {
    /// Runs the scenario and returns the report, one line each. Console lines go to `console` as they are
    /// delivered; `extra` destinations (the demo's `--collector`) receive every event too.
    public static func run(
        console: @escaping @Sendable (String) -> Void, alsoSendingTo extra: [any Destination] = []
    ) async -> [String] {
        let trackedLines = DemoLines()
        let tracked = ConsoleDestination(name: "tracked", prefix: "", write: trackedLines.append)
        let printed = ConsoleLines(forwardingTo: console)
        let app: LoginApp
        do {
            // An empty environment: the demo never records, whatever the shell says.
            app = try LoginApp(
                console: printed.append, environment: [:], arguments: [], destinations: [tracked] + extra)
        } catch {
            return ["could not start the login app: \(error)"]
        }
        for command in [LoginCommand.appear, .tapLogin, .tapSignUp] { await app.perform(command) }
        await app.shutdown()

        var lines = ["tracked (\(trackedLines.lines.count) events, by LoginViewModel):"]
        lines += trackedLines.lines.map { "  \($0)" }
        lines.append("console received (\(printed.lines.count) lines, from ConsoleDestination):")
        lines += printed.lines.map { "  \($0)" }
        return lines
    }
}

/// Console lines kept for the report and forwarded as they arrive.
final class ConsoleLines: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []
    private let forward: @Sendable (String) -> Void

    init(forwardingTo forward: @escaping @Sendable (String) -> Void) { self.forward = forward }

    @Sendable func append(_ line: String) {
        lock.withLock { collected.append(line) }
        forward(line)
    }

    var lines: [String] { lock.withLock { collected } }
}

/// Lines collected from any thread, for the demo's report.
///
/// `@unchecked Sendable`: `collected` is only touched while `lock` is held.
final class DemoLines: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []

    @Sendable func append(_ line: String) { lock.withLock { collected.append(line) } }
    var lines: [String] { lock.withLock { collected } }
}
