import Foundation
import Tally
import TallyDelivery
import TallyTesting
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

/// The status codes a test's transport answers with, one per request (200 once they run out).
/// `@unchecked Sendable`: `codes` is only touched with `lock` held.
final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var codes: [Int]
    init(_ codes: [Int]) { self.codes = codes }
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        return codes.isEmpty ? 200 : codes.removeFirst()
    }
}

// "How delivery works", Testing delivery: a retry driven by TallyTesting's ManualClock.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@Test func aFailedBatchIsRetriedAfterItsBackoff() async throws {
    let answers = Answers([503, 200])
    let clock = ManualClock()
    var configuration = SegmentAPIDestination.Configuration(
        endpoint: URL(string: "https://api.segment.io/v1/batch")!, writeKey: "test",
        transport: HTTPTransport { _ in HTTPTransport.Response(statusCode: answers.next()) })
    configuration.clock = clock
    let destination = SegmentAPIDestination(configuration: configuration)
    let analytics = AnalyticsClient(destinations: [destination])

    analytics.track("menu_item_ordered", ["item_name": "Pizza"])
    let start = clock.now
    await analytics.flush()  // returns at the 503: the retry waits for the clock
    #expect(destination.statistics.queuedEvents == 1)

    // The first back-off is half a second, ± 10 %.
    let retry = try await clock.waitForSleeper {
        (.milliseconds(450) ... .milliseconds(550)).contains(start.duration(to: $0))
    }
    clock.advance(to: retry)
    await analytics.shutdown()
    #expect(destination.statistics.delivered == 1)
}
