import Foundation
import Tally
import TallyCollector
import TallyTesting
import Testing

// TallyTesting's "Testing your analytics", its collector section. Compiled, not run: the app is a stand-in.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func uiTestWithACollectorURL(_ collectorURL: URL) async {
    let app = XCUIApplication()
    let events = CollectorReader(url: collectorURL)  // a fresh session
    app.launchEnvironment["TALLY_COLLECTOR"] = collectorURL.absoluteString
    app.launchEnvironment["TALLY_SESSION"] = events.session
    app.launch()

    app.buttons["Log in"].tap()
    await events.waitForEvent(.named("login_tapped"))  // answered when the insert commits
    events.expectTracked(.named("login_tapped", containing: ["action": "tap"]))
    events.expectNothingElse()
}

@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
@Test func embeddedCollectorOnAFreePort() async throws {
    let collector = try await Collector.start()
    let events = CollectorReader(url: collector.url)
    try await events.refresh()
    events.expectNoEvents()
    await collector.stop()
}
