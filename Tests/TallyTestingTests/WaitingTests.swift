import Foundation
import Tally
import TallyTesting
import Testing

/// Waiting for events without polling, through the real client.
struct WaitingTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func waitsForAnEventDeliveredOnAnotherThread() async throws {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory])
        analytics.track("checkout_started", ["items": 2])
        let event = await memory.waitForEvent(.named("checkout_started"), timeout: .seconds(30))
        #expect(event == Event("checkout_started", ["items": 2]))
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func waitsForACount() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory])
        let waiting = Task { await memory.waitForCount(100, of: .named("tick"), timeout: .seconds(30)) }
        for index in 0..<100 { analytics.track("tick", ["i": .int(index)]) }
        analytics.track("other")
        #expect(await waiting.value)
        #expect(memory.expectCount(100, of: .named("tick")))
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func returnsAtOnceWhenTheEventIsAlreadyThere() async {
        let spy = AnalyticsSpy()
        spy.track("done")
        #expect(await spy.waitForEvent(.named("done"), clock: ManualClock()) == Event("done"))
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aTimeoutReportsOneIssueAtTheCallersLine() async throws {
        let spy = AnalyticsSpy()
        spy.track("something_else")
        let clock = ManualClock()
        await expectOneIssue(
            containing: [#"Timed out after 2.0 seconds waiting for "payment_succeeded"."#, "[0] track something_else"],
            atLine: #line + 6
        ) {
            let timer = Task {
                try await clock.waitForSleepers(count: 1)
                clock.advance(by: .seconds(2))
            }
            async let waited = spy.waitForEvent(
                .named("payment_succeeded"), timeout: .seconds(2), clock: clock)
            #expect(await waited == nil)
            try? await timer.value
        }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aCancelledWaitReturnsWithoutAnIssue() async {
        let spy = AnalyticsSpy()
        let waiting = Task { await spy.waitForCount(1, clock: ManualClock()) }
        waiting.cancel()
        #expect(await waiting.value == false)
    }
}
