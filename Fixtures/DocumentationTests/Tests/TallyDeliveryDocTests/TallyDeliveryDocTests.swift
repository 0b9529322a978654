import Foundation
import Tally
import TallyDelivery
import Testing

// TallyDelivery.md and "How delivery works", as written. The configurations point at real servers, so they
// are built and compared here but never started: no test reaches the network.

/// TallyDelivery.md's overview, compiled: it would post to Segment, so no test calls it.
func landingPageExample(applicationSupport: URL) {
    let delivery = SegmentAPIDestination(
        configuration: .init(
            endpoint: URL(string: "https://api.segment.io/v1/batch")!, writeKey: "YOUR_WRITE_KEY",
            database: applicationSupport.appendingPathComponent("analytics-queue.sqlite")))
    let analytics = AnalyticsClient(destinations: [delivery])
    analytics.track("menu_item_ordered", ["item_name": "Pizza"])
}

@Test func theArticleConfiguresSegmentRudderStackAndTheCollector() {
    let queueFile = FileManager.default.temporaryDirectory.appendingPathComponent("queue.sqlite")

    let segment =
        SegmentAPIDestination.Configuration(
            // EU workspaces: https://eu1.api.segmentapis.com/v1/batch
            endpoint: URL(string: "https://api.segment.io/v1/batch")!,
            writeKey: "SEGMENT_WRITE_KEY", database: queueFile)

    let rudderStack =
        SegmentAPIDestination.Configuration(
            endpoint: URL(string: "https://YOUR_DATA_PLANE.dataplane.rudderstack.com/v1/batch")!,
            writeKey: "RUDDERSTACK_WRITE_KEY", database: queueFile)

    let collector =
        SegmentAPIDestination.Configuration(
            endpoint: URL(string: "http://127.0.0.1:8787/v1/batch")!, writeKey: "local", database: queueFile)

    #expect(segment.endpoint.host == "api.segment.io")
    #expect(rudderStack.writeKey == "RUDDERSTACK_WRITE_KEY")
    #expect(collector.endpoint.path == "/v1/batch")
}
