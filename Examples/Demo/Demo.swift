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
            client's statistics, including the problems its rules reported.

            Then one section per seed scenario under Examples/, each driven through the example's real code \
            and its simulated vendor SDK:
              Notes         the adapter pattern: GoogleAnalyticsService -> GoogleSDK (seed 000)
              FeedbackForm  a static-delegate SDK on the SDKBridge, and the outcomes it tracks (seed 001)
              Login         LoginViewModel with console analytics (seed 002)
              Menu          MenuItemDetail.ViewModel -> EventLogger -> HippoAnalyticsClient (seed 003)
              PartnerMap    marker taps through the MapViewProvidable facade over a map SDK (seed 004)

            With --collector, every scenario's client also sends its events to a running collector \
            (`tally collect`), one session per scenario (pipeline, notes, feedback-form, login, menu, \
            partner-map): open the collector's address in a browser to watch them arrive, and filter by \
            session.

            Examples:
              swift run --package-path Examples demo
              swift run --package-path Examples demo --quiet      # without the console lines
              swift run --traits CLI,Collector tally collect --plan Examples/tracking-plan.yaml &
              swift run --package-path Examples demo --collector http://127.0.0.1:8787
            """
    )

    @Flag(name: .shortAndLong, help: "Print only the summaries, not the console destinations' lines.")
    var quiet = false

    @Option(
        help: "A running collector (tally collect) to send every scenario's events to, such as http://127.0.0.1:8787.")
    var collector: String?

    func validate() throws {
        guard let collector else { return }
        guard let url = URL(string: collector), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("--collector must be an http URL such as http://127.0.0.1:8787, not \(collector)")
        }
    }

    func run() async throws {
        let output = DemoOutput(quiet: quiet)
        let collectorURL = collector.flatMap(URL.init(string:))
        if let collectorURL, let problem = await CollectorCheck.problem(at: collectorURL) {
            FileHandle.standardError.write(Data("error: \(problem)\n".utf8))
            throw ExitCode(69)
        }
        for scenario in Self.scenarios {
            print("== \(scenario.title) ==")
            let extra =
                collectorURL.map { [RecordingDestination.collector($0, session: scenario.session, source: "demo")] }
                ?? []
            for line in await scenario.run(output, extra) { print(line) }
            print("")
        }
        if let collectorURL {
            print(
                "Every scenario's events went to \(collectorURL.absoluteString) (one session per scenario): open it in a browser."
            )
        }
    }

    /// One section of the demo.
    struct Scenario: Sendable {
        let title: String
        /// The collector session its events are tagged with.
        let session: String
        let run: @Sendable (DemoOutput, [any Destination]) async -> [String]
    }

    /// The pipeline scenario, then every example scenario in seed order.
    static let scenarios: [Scenario] = [
        Scenario(title: "Pipeline: processors and three destinations", session: "pipeline") {
            await runLoginScenario(output: $0, alsoSendingTo: $1)
        },
        Scenario(title: "Notes (seed 000, Examples/Notes): the Google SDK behind an adapter", session: "notes") {
            await NotesDemo.run(alsoSendingTo: $1)
        },
        Scenario(
            title: "FeedbackForm (seed 001, Examples/FeedbackForm): an awkward SDK on the SDKBridge",
            session: "feedback-form"
        ) { _, extra in
            guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return ["needs macOS 13 or later"] }
            return await FeedbackFormDemo.run(alsoSendingTo: extra)
        },
        Scenario(title: "Login (seed 002, Examples/Login): console analytics", session: "login") { output, extra in
            await LoginDemo.run(console: output.console, alsoSendingTo: extra)
        },
        Scenario(title: "Menu (seed 003, Examples/Menu): Hippo Analytics behind EventLogger", session: "menu") {
            await MenuDemo.run(alsoSendingTo: $1)
        },
        Scenario(
            title: "PartnerMap (seed 004, Examples/PartnerMap): marker taps through a map facade",
            session: "partner-map"
        ) {
            await PartnerMapDemo.run(alsoSendingTo: $1)
        },
    ]

    /// Runs the scenario and returns the summary lines. Console lines go to `output` as they are delivered.
    static func runLoginScenario(output: DemoOutput, alsoSendingTo extra: [any Destination] = []) async -> [String] {
        let firebase = SimulatedFirebaseSDK()
        let memory = KeptEvents()
        let analytics = AnalyticsClient(
            processors: [.superProperties(["app_version": "1.0.0"]), .redact(keys: ["email"])],
            destinations: [ConsoleDestination(write: output.console), FirebaseDestination(adapter: firebase), memory]
                + extra
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
        let statistics = analytics.statistics
        lines.append("")
        lines.append("-- Statistics --")
        lines.append("tracked: \(statistics.tracked), dropped: \(statistics.totalDropped)")
        for name in analytics.destinationNames {
            let counts = statistics.destinations[name] ?? DestinationStatistics()
            lines.append("  \(name): delivered \(counts.delivered)")
        }
        for problem in statistics.recentProblems { lines.append("problem: \(problem)") }
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

    func receive(_ envelope: Envelope, context: DestinationContext) throws {
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
        lock.withLock {
            recorded.append("setUserProperty(\(value.map { "\"\($0)\"" } ?? "nil"), forName: \"\(name)\")")
        }
    }
}
