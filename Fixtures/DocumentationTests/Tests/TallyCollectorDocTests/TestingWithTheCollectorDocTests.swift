import Foundation
import Tally
import TallyCollector
import TallyTesting
import Testing

// "Testing with the collector".

/// The app's destinations, with the collector's when the UI test set TALLY_COLLECTOR. Compiled, not run.
func appDestinations() throws -> [any Destination] {
    var destinations: [any Destination] = []
    if let collector = try RecordingDestination.collectorFromEnvironment() { destinations.append(collector) }
    return destinations
}

/// A UI test's body against a running collector. Compiled, not run: XCUIApplication is a stand-in here.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func uiTestAgainstARunningCollector() async {
    let events = CollectorReader(url: URL(string: "http://127.0.0.1:8787")!)
    let app = XCUIApplication()
    app.launchEnvironment["TALLY_COLLECTOR"] = events.url.absoluteString
    app.launchEnvironment["TALLY_SESSION"] = events.session
    app.launch()

    app.buttons["Log in"].tap()
    await events.waitForEvent(.named("login_tapped"), timeout: .seconds(10))
    events.expectTracked(.named("login_tapped", containing: ["action": "tap"]))
    events.expectNothingElse()
}

@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
@Test func checkoutSendsOrderCompleted() async throws {
    let collector = try await Collector.start()
    let events = CollectorReader(url: collector.url)
    try await runCheckoutAgainst(collector.url, session: events.session)
    await events.waitForEvent(.named("Order Completed"))
    events.expectTracked(.named("Order Completed"))
    events.expectNothingElse()
    await collector.stop()
}

// "Exhaustive mode": the collector stops at the end of the body, and the reader takes its last read as it
// stops. Run: it failed with "Cannot reach the collector" before stop() let readers read.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
@Test(.exhaustive) func checkoutSendsOnlyOrderCompleted() async throws {
    let collector = try await Collector.start()
    let events = CollectorReader(url: collector.url)
    try await runCheckoutAgainst(collector.url, session: events.session)
    await events.waitForEvent(.named("Order Completed"))
    events.expectTracked(.named("Order Completed"))
    await collector.stop()
}

// "Stopping a `tally collect` process": the process stops after the async check took its last read. Under
// `@Test(.exhaustive)` with the same `defer`, the check read after the process had stopped.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
@Test func checkoutSendsOnlyOrderCompletedToTallyCollect() async throws {
    let collector = try await TallyCollectProcess.start()  // your helper: runs `tally collect --port 0`
    defer { collector.terminate() }  // runs after the check's last read below
    try await withExhaustiveCheck {
        let events = CollectorReader(url: collector.url)
        try await runCheckoutAgainst(collector.url, session: events.session)
        await events.waitForEvent(.named("Order Completed"))
        events.expectTracked(.named("Order Completed"))
    }
}
