import Foundation
import Tally
import TallyDelivery
import TallyTesting
import Testing

// The examples of TallyDelivery's doc comments, as written (.ci/check-doc-code). What an example leaves
// implicit (`url`, `key`, `applicationSupport`, `destination`) is a parameter here. None reaches the network.

/// HTTPTransport.
@Test func httpTransportStandIns() async throws {
    // A test transport: the server is down.
    let down = HTTPTransport { _ in throw URLError(.cannotConnectToHost) }
    // One that accepts everything.
    let accepting = HTTPTransport { _ in HTTPTransport.Response(statusCode: 200) }
    _ = (down, accepting)
}

/// RetryPolicy.
@Test func retryPolicyMaximumDelay() {
    let url = URL(string: "http://127.0.0.1:8787/v1/batch")!
    let key = "test"
    var configuration = SegmentAPIDestination.Configuration(endpoint: url, writeKey: key)
    configuration.retry.maximumDelay = 30
    #expect(configuration.retry.maximumDelay == 30)
}

/// SegmentAPIDestination.Configuration: compiled, never started (it would post to Segment).
func segmentConfigurationExample(applicationSupport: URL) {
    var configuration = SegmentAPIDestination.Configuration(
        endpoint: URL(string: "https://api.segment.io/v1/batch")!, writeKey: "YOUR_WRITE_KEY",
        database: applicationSupport.appendingPathComponent("tally-queue.sqlite"))
    configuration.flushAt = 50
    let destination = SegmentAPIDestination(configuration: configuration)
    _ = destination
}

/// SegmentAPIDestination.Configuration.clock.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@Test func segmentConfigurationManualClock() {
    let url = URL(string: "http://127.0.0.1:8787/v1/batch")!
    let clock = ManualClock()
    var configuration = SegmentAPIDestination.Configuration(endpoint: url, writeKey: "test")
    configuration.clock = clock
}

/// SegmentAPIDestination: compiled, never started (it would post to Segment).
func segmentAPIDestinationExample(applicationSupport: URL) {
    let segment = SegmentAPIDestination(
        configuration: .init(
            endpoint: URL(string: "https://api.segment.io/v1/batch")!, writeKey: "YOUR_WRITE_KEY",
            database: applicationSupport.appendingPathComponent("analytics-queue.sqlite")))
    let analytics = AnalyticsClient(destinations: [segment])
    analytics.track("menu_item_ordered", ["item_name": "Pizza"])
}

/// SegmentAPIDestination.statistics.
func segmentStatisticsExample(destination: SegmentAPIDestination) {
    destination.flush()
    if destination.statistics.queuedEvents > 0 {
        // Not delivered yet: the server failed or the destination is waiting to retry. The events stay
        // queued, and the destination sends them on its own.
    }
}
