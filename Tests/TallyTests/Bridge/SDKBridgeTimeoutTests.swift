import TallyTesting
import Testing

@testable import Tally

@Suite struct SDKBridgeTimeoutTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aCallTimesOutWhenTheClockReachesTheTimeout() async throws {
        let clock = ManualClock()
        let loader = FormLoader()
        let call = Task { try await loader.load("nps", timeout: .seconds(5), clock: clock) }
        _ = await loader.sdk.requests.next()
        try await clock.waitForSleepers(count: 1)
        let delegate = try #require(loader.sdk.delegate)

        clock.advance(by: .milliseconds(4_999))
        #expect(clock.sleeperCount == 1)
        #expect(loader.bridge.isBusy)
        #expect(loader.cleanups.current == 0)

        clock.advance(by: .milliseconds(1))
        await #expect(throws: BridgeError.timedOut(after: 5)) { try await call.value }
        #expect(loader.sdk.delegate == nil)
        #expect(loader.cleanups.current == 1)
        #expect(!loader.bridge.isBusy)

        // The form arrives after all: ignored and counted.
        delegate.formDidLoad(FeedbackForm(id: "nps"))
        #expect(loader.bridge.ignoredCallbacks == 1)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func anAnswerInTimeStopsTheTimer() async throws {
        let clock = ManualClock()
        let loader = FormLoader()
        let call = Task { try await loader.load("nps", timeout: .seconds(5), clock: clock) }
        _ = await loader.sdk.requests.next()
        try await clock.waitForSleepers(count: 1)

        clock.advance(by: .seconds(4))
        loader.sdk.deliverForm("nps")
        #expect(try await call.value == FeedbackForm(id: "nps"))
        #expect(clock.sleeperCount == 0)  // the call cancelled its timer

        clock.advance(by: .seconds(10))
        #expect(loader.cleanups.current == 1)
        #expect(loader.bridge.ignoredCallbacks == 0)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aWaitingCallerTimesOutInTheQueueWithoutTouchingTheSDK() async throws {
        let clock = ManualClock()
        let loader = FormLoader(whenBusy: .queue)
        let first = Task { try await loader.load("first") }
        _ = await loader.sdk.requests.next()
        let firstDelegate = try #require(loader.sdk.delegate)

        let waiting = Task { try await loader.load("waiting", timeout: .seconds(2), clock: clock) }
        await loader.bridge.waitUntilWaitingCallers(1)
        try await clock.waitForSleepers(count: 1)

        clock.advance(by: .seconds(2))
        await #expect(throws: BridgeError.timedOut(after: 2)) { try await waiting.value }
        #expect(loader.bridge.waitingCallers == 0)
        #expect(loader.sdk.delegate === firstDelegate)
        #expect(loader.cleanups.current == 0)

        loader.sdk.deliverForm("first")
        #expect(try await first.value == FeedbackForm(id: "first"))
        #expect(loader.cleanups.current == 1)
        #expect(!loader.bridge.isBusy)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aZeroTimeoutTimesOutAtOnce() async throws {
        let bridge = SDKBridge<Int>()
        let log = EventLog()
        await #expect(throws: BridgeError.timedOut(after: 0)) {
            try await bridge.call(timeout: .zero, clock: ManualClock()) { _ in
                log.record("start")
            } cleanup: {
                log.record("cleanup")
            }
        }
        // The timer may fire before or after `start`; either way cleanup ran if and only if start did.
        #expect(log.entries == [] || log.entries == ["start", "cleanup"])
        #expect(!bridge.isBusy)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func theDefaultClockIsTheContinuousClock() async throws {
        let bridge = SDKBridge<String>()
        let value = try await bridge.call(timeout: .seconds(60)) { $0.succeed("in time") }
        #expect(value == "in time")
    }
}
