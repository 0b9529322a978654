import Foundation
import Shop
import ShopAppLauncher
import Tally
import TallyCollector
import TallyTesting
import Testing

/// Must fail: the app sends an event that no expectation accounts for, and exhaustive mode reports it at the
/// line that created the reader, after the test stopped its collector.
@Suite struct CollectorFailingTests {
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test(.exhaustive) func anUnexpectedEventFailsTheTest() async throws {
        let collector = try await Collector.start()
        // must fail on the next line: checkout_completed
        let events = CollectorReader(url: collector.url)
        try await ShopApp.run(["view:p1", "checkout:19.5"], collector: collector.url, session: events.session)
        await events.waitForCount(2, timeout: .seconds(30))
        events.expectTracked(.productViewed(id: "p1"))
        await collector.stop()
    }
}
