import Foundation
import Shop
import ShopAppLauncher
import Tally
import TallyCollector
import TallyTesting
import Testing

/// The collector as TallyCollector's "Testing with the collector" article starts it, in the test's own
/// process, with another process (the app) sending to it and the test reading in exhaustive mode. The test
/// stops the collector at the end of its body; exhaustive mode still takes its last read.
@Suite struct CollectorTests {
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test(.exhaustive) func theAppSendsEveryEventToTheCollector() async throws {
        let collector = try await Collector.start()
        let events = CollectorReader(url: collector.url)
        try await ShopApp.run(["view:p1", "checkout:19.5"], collector: collector.url, session: events.session)
        await events.waitForCount(2, timeout: .seconds(30))
        events.expectTracked(.productViewed(id: "p1"))
        events.expectTracked(.checkoutCompleted(total: 19.5))
        await collector.stop()
    }
}
