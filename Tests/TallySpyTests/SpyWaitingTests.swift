#if SpyMacro
import Foundation
import TallySpy
import TallyTesting
import Testing

/// `waitForCalls`: woken by each call, no polling; the timeout runs on an injected clock.
@Suite struct SpyWaitingTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func returnsAtOnceWhenTheCallsAreThere() async {
        let users = UserServiceSpy()
        users.log("a")
        #expect(await users.waitForCalls(1, of: .log, clock: ManualClock()))
        #expect(await users.waitForCalls(0, clock: ManualClock()))
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func wakesWhenTheCallArrives() async throws {
        let users = UserServiceSpy()
        let clock = ManualClock()
        let waiting = Task { await users.waitForCalls(2, of: .log("b"), clock: clock) }
        try await clock.waitForSleepers(count: 1)
        users.log("a")
        users.log("b")
        users.log("b")
        #expect(await waiting.value)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func timesOutOnTheInjectedClockWithAnIssueAtTheCallersLine() async throws {
        let users = UserServiceSpy()
        users.log("a")
        let clock = ManualClock()
        let line = #line + 4
        // The waiting task inherits the known-issue scope: it is created inside it.
        await withKnownIssue {
            let waiting = Task {
                await users.waitForCalls(2, of: .log, timeout: .seconds(5), clock: clock)
            }
            try? await clock.waitForSleepers(count: 1)  // throws only if the test is cancelled
            clock.advance(by: .seconds(5))
            #expect(await waiting.value == false)
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.description.contains(
                    """
                    Timed out after 5.0 seconds waiting for 2 calls matching log(_:) with any arguments; 1 was recorded.

                    Recorded calls (1):
                      [0] log("a")
                    """)
        }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func cancellingTheWaitReturnsFalseWithoutAnIssue() async throws {
        let users = UserServiceSpy()
        let clock = ManualClock()
        let waiting = Task { await users.waitForCalls(1, clock: clock) }
        try await clock.waitForSleepers(count: 1)
        waiting.cancel()
        #expect(await waiting.value == false)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func clearingTheSpyStartsTheCountOver() async throws {
        let users = UserServiceSpy()
        let clock = ManualClock()
        users.log("a")
        let waiting = Task { await users.waitForCalls(2, of: .log, clock: clock) }
        try await clock.waitForSleepers(count: 1)
        users.clear()
        users.log("b")
        users.log("c")
        #expect(await waiting.value)
    }
}
#endif
