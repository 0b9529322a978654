import Foundation
import TallyCollector
import TallyTesting
import Testing

// TallyCollector.md, the landing page. Compiled, not run: the app under test is left to the reader.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
func landingPage() async throws {
    let collector = try await Collector.start()  // 127.0.0.1, a free port, in memory
    let events = CollectorReader(url: collector.url)  // one test's session
    // … the app under test sends to collector.url, tagged with events.session …
    await events.waitForEvent(.named("login_tapped"))
    events.expectTracked(.named("login_tapped"))  // waiting accounts for nothing
    events.expectNothingElse()
    await collector.stop()
}
