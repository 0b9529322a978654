import ArgumentParser
import Foundation
import Tally

/// `tally demo`: tracks a small scenario through the real client and shows what each destination got.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Track a small scenario through the real client and print what each destination received.",
        discussion: """
            The demo runs a login scenario through an Analytics client with two processors (super properties \
            and e-mail redaction) and three destinations: the console, a simulated Firebase SDK behind \
            FirebaseDestination, and an in-memory destination. It then prints what each destination received \
            and the client's diagnostics, including the problems its rules reported.

            Examples:
              tally demo
              tally demo --quiet      # only the summary
            """
    )

    @Flag(name: .shortAndLong, help: "Print only the summary, not the console destination's lines.")
    var quiet = false

    func run() async throws {
        let output = DemoOutput(quiet: quiet)
        for line in await Self.runLoginScenario(output: output) { print(line) }
    }

    /// Runs the scenario and returns the summary lines. Console lines go to `output` as they are delivered.
    static func runLoginScenario(output: DemoOutput) async -> [String] {
        let firebase = SimulatedFirebaseSDK()
        let memory = InMemoryDestination()
        let analytics = Analytics(
            processors: [.superProperties(["app_version": "1.0.0"]), .redact(keys: ["email"])],
            destinations: [ConsoleDestination(write: output.console), FirebaseDestination(adapter: firebase), memory]
        )

        analytics.screen("Login")
        analytics.track("login tapped", ["action": "tap", "email": "ada@example.com"])
        analytics.identify(userId: "user-42", traits: ["plan": "pro"])
        analytics.track("menu_item_ordered", ["item_name": "Pizza", "price": 9.5])
        await analytics.shutdown()

        var lines = ["", "== What each destination received =="]
        lines.append("memory (\(memory.count) events):")
        lines += memory.events.map { "  \($0)" }
        lines.append("firebase (\(firebase.calls.count) SDK calls):")
        lines += firebase.calls.map { "  \($0)" }
        let diagnostics = analytics.diagnostics
        lines.append("")
        lines.append("== Diagnostics ==")
        lines.append("tracked: \(diagnostics.tracked), dropped: \(diagnostics.totalDropped)")
        for name in analytics.destinationNames {
            let counts = diagnostics.destinations[name] ?? DestinationDiagnostics()
            lines.append("  \(name): delivered \(counts.delivered)")
        }
        for problem in diagnostics.recentProblems { lines.append("problem: \(problem)") }
        return lines
    }
}

/// Where the demo's console destination writes.
struct DemoOutput: Sendable {
    let quiet: Bool
    var console: @Sendable (String) -> Void {
        let quiet = self.quiet
        return { line in if !quiet { print(line) } }
    }
}

/// Stands in for the Firebase SDK: records each call as the line the real SDK would have received.
final class SimulatedFirebaseSDK: FirebaseAnalyticsAdapter, Sendable {
    private let recorded = Locked<[String]>([])

    var calls: [String] { recorded.withLock { $0 } }

    func logEvent(_ name: String, parameters: [String: Any]?) {
        let properties = parameters.flatMap { [String: PropertyValue](any: $0) } ?? [:]
        recorded.withLock { $0.append("logEvent(\"\(name)\", parameters: \(properties.jsonString))") }
    }

    func setUserID(_ userID: String?) {
        recorded.withLock { $0.append("setUserID(\(userID.map { "\"\($0)\"" } ?? "nil"))") }
    }

    func setUserProperty(_ value: String?, forName name: String) {
        recorded.withLock { $0.append("setUserProperty(\(value.map { "\"\($0)\"" } ?? "nil"), forName: \"\(name)\")") }
    }
}
