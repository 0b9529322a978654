// Getting started: "When delivery does not finish".

import Dispatch
import Tally
import TallyTesting
import Testing

/// The article's first example: a shutdown with a deadline, and what the app does when it is missed.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func shutDown(_ analytics: AnalyticsClient) async {
    let result = await analytics.shutdown(timeout: .seconds(2))
    switch result.status {
    case .completed: break
    case .timedOut, .cancelled:
        // "timed out; still held: vendor 120 events"
        logger.warning("analytics did not finish: \(result)")
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@Test func shuttingDownWithADeadlineCompletesWhenNothingIsStuck() async {
    await shutDown(AnalyticsClient(destinations: [InMemoryDestination()]))
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@Test func aStuckVendorIsReportedAtTheDeadline() async throws {
    let stuckVendor = StuckVendor()
    defer { stuckVendor.release() }
    let clock = ManualClock()
    var configuration = AnalyticsClient.Configuration()
    configuration.clock = clock
    let analytics = AnalyticsClient(destinations: [stuckVendor], configuration: configuration)
    analytics.track("e")
    async let result = analytics.flush(timeout: .seconds(5))
    try await clock.waitForSleepers(count: 1)
    clock.advance(by: .seconds(5))
    #expect(await result.unfinished == ["stuck_vendor": 1])
}

/// A vendor destination stuck in its SDK until the test releases it.
final class StuckVendor: Destination {
    private let gate = DispatchSemaphore(value: 0)
    var name: String { "stuck_vendor" }

    func receive(_ envelope: Envelope, context: DestinationContext) throws {
        gate.wait()
        gate.signal()
    }

    func release() { gate.signal() }
}
