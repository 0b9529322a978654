import Foundation
import Tally
import TallyCollector
import TallyPlan
import TallyTesting
import Testing

// The examples of TallyCollector's doc comments, as written (.ci/check-doc-code). What an example leaves
// implicit (`planURL`, `folder`, the app it launches) is a parameter or a stand-in here.

/// Collector.Configuration.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
func collectorConfigurationExample(planURL: URL) throws {
    var configuration = Collector.Configuration()  // 127.0.0.1, a free port, in memory
    configuration.database = .file("events.sqlite")
    configuration.plan = try PlanLoader.load(contentsOf: planURL).get()
}

/// A UI test's way of starting the app under test, which the example leaves to the app.
private func launchApp(environment: [String: String]) async throws {}

/// Collector: a UI test against a collector of its own.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
func collectorExample() async throws {
    let collector = try await Collector.start()  // 127.0.0.1, a free port, in memory
    let events = CollectorReader(url: collector.url, session: "login-test")
    // The app adds `RecordingDestination.collectorFromEnvironment()`, which reads these two variables.
    try await launchApp(environment: [
        CollectorProtocol.collectorVariable: collector.url.absoluteString,  // TALLY_COLLECTOR
        CollectorProtocol.sessionVariable: events.session,  // TALLY_SESSION
    ])
    await events.waitForEvent(.named("login_tapped"))
    events.expectTracked(.named("login_tapped"))
    await collector.stop()  // in exhaustive mode, the reader takes its last read first
}

/// Collector.start(_:) with a database file.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
func collectorFileExample(folder: URL) async throws {
    var configuration = Collector.Configuration()
    configuration.database = .file(folder.appendingPathComponent("events.sqlite").path)
    let collector = try await Collector.start(configuration)
    print(collector.url)  // http://127.0.0.1:52714
}
