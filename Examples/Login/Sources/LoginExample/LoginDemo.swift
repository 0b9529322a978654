import Foundation
import Tally

/// The Login scenario for `tally demo`: the screen appears, the user taps Login and then Sign Up; the
/// console destination prints each event as the article's `ConsoleAnalytics` does.
public enum LoginDemo {
    /// Runs the scenario and returns the report, one line each. Console lines go to `console` as they are
    /// delivered.
    public static func run(console: @escaping @Sendable (String) -> Void) async -> [String] {
        let tracked = InMemoryDestination(name: "tracked")
        let printed = ConsoleLines(forwardingTo: console)
        let app: LoginApp
        do {
            // An empty environment: the demo never records, whatever the shell says.
            app = try LoginApp(console: printed.append, environment: [:], arguments: [], destinations: [tracked])
        } catch {
            return ["could not start the login app: \(error)"]
        }
        for command in [LoginCommand.appear, .tapLogin, .tapSignUp] { await app.perform(command) }
        await app.shutdown()

        var lines = ["tracked (\(tracked.count) events, by LoginViewModel):"]
        lines += tracked.events.map { "  \($0)" }
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
