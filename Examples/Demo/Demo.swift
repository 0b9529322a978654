import ArgumentParser
import FeedbackFormExample
import Foundation
import LoginExample
import MenuExample
import NotesExample
import PartnerMapLive
import Tally

/// `swift run --package-path Examples demo`: runs the pipeline scenario and every example scenario through
/// the real code, and shows what was tracked and where it went.
@main
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the pipeline and every example scenario; print what was tracked and where it went.",
        discussion: """
            Pipeline: a login scenario through an AnalyticsClient with two processors (super properties and \
            e-mail redaction) and three destinations: the console, a simulated Firebase SDK behind \
            FirebaseDestination, and a destination that keeps what it receives; then what each destination received and the \
            client's diagnostics, including the problems its rules reported.

            Then one section per seed scenario under Examples/, each driven through the example's real code \
            and its simulated vendor SDK:
              Notes         the adapter pattern: GoogleAnalyticsService -> GoogleSDK (seed 000)
              FeedbackForm  a static-delegate SDK on the SDKBridge, and the outcomes it tracks (seed 001)
              Login         LoginViewModel with console analytics (seed 002)
              Menu          MenuItemDetail.ViewModel -> EventLogger -> HippoAnalyticsClient (seed 003)
              PartnerMap    marker taps through the MapViewProvidable facade over a map SDK (seed 004)

            Examples:
              swift run --package-path Examples demo
              swift run --package-path Examples demo --quiet      # without the console lines
            """
    )

    @Flag(name: .shortAndLong, help: "Print only the summaries, not the console destinations' lines.")
    var quiet = false

    func run() async throws {
        let output = DemoOutput(quiet: quiet)
        for scenario in Self.scenarios {
            print("== \(scenario.title) ==")
            for line in await scenario.run(output) { print(line) }
            print("")
        }
    }

    /// One section of the demo.
    struct Scenario: Sendable {
        let title: String
        let run: @Sendable (DemoOutput) async -> [String]
    }

    /// The pipeline scenario, then every example scenario in seed order.
    static let scenarios: [Scenario] = [
        Scenario(title: "Pipeline: processors and three destinations") { await runLoginScenario(output: $0) },
        Scenario(title: "Notes (seed 000, Examples/Notes): the Google SDK behind an adapter") { _ in
            await NotesDemo.run()
        },
        Scenario(title: "FeedbackForm (seed 001, Examples/FeedbackForm): an awkward SDK on the SDKBridge") { _ in
            guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return ["needs macOS 13 or later"] }
            return await FeedbackFormDemo.run()
        },
        Scenario(title: "Login (seed 002, Examples/Login): console analytics") { output in
            await LoginDemo.run(console: output.console)
        },
        Scenario(title: "Menu (seed 003, Examples/Menu): Hippo Analytics behind EventLogger") { _ in
            await MenuDemo.run()
        },
        Scenario(title: "PartnerMap (seed 004, Examples/PartnerMap): marker taps through a map facade") { _ in
            await PartnerMapDemo.run()
        },
    ]

    /// Runs the scenario and returns the summary lines. Console lines go to `output` as they are delivered.
    static func runLoginScenario(output: DemoOutput) async -> [String] {
        let firebase = SimulatedFirebaseSDK()
        let memory = KeptEvents()
        let analytics = AnalyticsClient(
            processors: [.superProperties(["app_version": "1.0.0"]), .redact(keys: ["email"])],
            destinations: [ConsoleDestination(write: output.console), FirebaseDestination(adapter: firebase), memory]
        )

        analytics.screen("Login")
        analytics.track("login tapped", ["action": "tap", "email": "ada@example.com"])
        analytics.identify(userId: "user-42", traits: ["plan": "pro"])
        analytics.track("menu_item_ordered", ["item_name": "Pizza", "price": 9.5])
        await analytics.shutdown()

        var lines = ["", "-- What each destination received --"]
        lines.append("memory (\(memory.count) events):")
        lines += memory.events.map { "  \($0)" }
        lines.append("firebase (\(firebase.calls.count) SDK calls):")
        lines += firebase.calls.map { "  \($0)" }
        let diagnostics = analytics.diagnostics
        lines.append("")
        lines.append("-- Diagnostics --")
        lines.append("tracked: \(diagnostics.tracked), dropped: \(diagnostics.totalDropped)")
        for name in analytics.destinationNames {
            let counts = diagnostics.destinations[name] ?? DestinationDiagnostics()
            lines.append("  \(name): delivered \(counts.delivered)")
        }
        for problem in diagnostics.recentProblems { lines.append("problem: \(problem)") }
        return lines
    }
}

/// Keeps every event it receives, to show what reached the end of the pipeline.
///
/// `@unchecked Sendable`: `kept` is only touched while `lock` is held.
final class KeptEvents: Destination, @unchecked Sendable {
    let name = "memory"
    private let lock = NSLock()
    private var kept: [Event] = []

    func receive(_ envelope: Envelope, context: DeliveryContext) throws {
        lock.withLock { kept.append(envelope.event) }
    }

    var events: [Event] { lock.withLock { kept } }
    var count: Int { lock.withLock { kept.count } }
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
///
/// `@unchecked Sendable`: `recorded` is only touched while `lock` is held.
final class SimulatedFirebaseSDK: FirebaseAnalyticsAdapter, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []

    var calls: [String] { lock.withLock { recorded } }

    func logEvent(_ name: String, parameters: [String: Any]?) {
        let properties = parameters.flatMap { [String: PropertyValue](any: $0) } ?? [:]
        lock.withLock { recorded.append("logEvent(\"\(name)\", parameters: \(properties.jsonString))") }
    }

    func setUserID(_ userID: String?) {
        lock.withLock { recorded.append("setUserID(\(userID.map { "\"\($0)\"" } ?? "nil"))") }
    }

    func setUserProperty(_ value: String?, forName name: String) {
        lock.withLock { recorded.append("setUserProperty(\(value.map { "\"\($0)\"" } ?? "nil"), forName: \"\(name)\")") }
    }
}
