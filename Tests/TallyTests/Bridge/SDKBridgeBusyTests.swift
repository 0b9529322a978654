import Dispatch
import Testing

@testable import Tally

@Suite struct SDKBridgeBusyTests {
    @Test func aSecondCallerIsRejectedWithoutDisturbingTheFirst() async throws {
        let loader = FormLoader()  // default policy: .reject
        let first = Task { try await loader.load("first") }
        _ = await loader.sdk.requests.next()
        let firstDelegate = try #require(loader.sdk.delegate)

        await #expect(throws: BridgeError.busy) { try await loader.load("second") }
        #expect(loader.sdk.delegate === firstDelegate)  // the rejected call neither set nor cleared it
        #expect(loader.cleanups.current == 0)

        loader.sdk.deliverForm("first")
        #expect(try await first.value == FeedbackForm(id: "first"))
        #expect(loader.cleanups.current == 1)
        #expect(loader.bridge.waitingCallers == 0)

        let third = Task { try await loader.load("third") }
        #expect(await loader.sdk.requests.next() == "third")  // "second" never reached the SDK
        loader.sdk.deliverForm("third")
        #expect(try await third.value == FeedbackForm(id: "third"))
    }

    @Test func queuedCallersRunOneAtATimeInArrivalOrder() async throws {
        let bridge = SDKBridge<String>(whenBusy: .queue)
        let log = EventLog()
        let completions = Mailbox<SDKBridge<String>.Completion>()

        @Sendable func load(_ name: String) async throws -> String {
            try await bridge.call { completion in
                log.record("start \(name)")
                completions.send(completion)
            } cleanup: {
                log.record("cleanup \(name)")
            }
        }

        let a = Task { try await load("A") }
        let first = await completions.next()
        var queued: [Task<String, any Error>] = []
        for (position, name) in ["B", "C", "D"].enumerated() {
            queued.append(Task { try await load(name) })
            await bridge.waitUntilWaitingCallers(position + 1)
        }
        #expect(bridge.waitingCallers == 3)
        #expect(log.entries == ["start A"])

        first.succeed("answer A")
        #expect(try await a.value == "answer A")
        for (task, name) in zip(queued, ["B", "C", "D"]) {
            let completion = await completions.next()
            completion.succeed("answer \(name)")
            #expect(try await task.value == "answer \(name)")
        }

        #expect(
            log.entries == [
                "start A", "cleanup A", "start B", "cleanup B", "start C", "cleanup C", "start D", "cleanup D",
            ])
        #expect(!bridge.isBusy)
        #expect(bridge.waitingCallers == 0)
    }

    @Test func aCancelledWaiterLeavesTheQueueWithoutTouchingTheSDK() async throws {
        let loader = FormLoader(whenBusy: .queue)
        let first = Task { try await loader.load("first") }
        _ = await loader.sdk.requests.next()
        let firstDelegate = try #require(loader.sdk.delegate)

        let cancelled = Task { try await loader.load("cancelled") }
        await loader.bridge.waitUntilWaitingCallers(1)
        let last = Task { try await loader.load("last") }
        await loader.bridge.waitUntilWaitingCallers(2)

        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(loader.bridge.waitingCallers == 1)
        #expect(loader.sdk.delegate === firstDelegate)
        #expect(loader.cleanups.current == 0)

        loader.sdk.deliverForm("first")
        #expect(try await first.value == FeedbackForm(id: "first"))
        #expect(await loader.sdk.requests.next() == "last")  // "cancelled" never reached the SDK
        loader.sdk.deliverForm("last")
        #expect(try await last.value == FeedbackForm(id: "last"))
        #expect(loader.cleanups.current == 2)
    }

    @Test func aRejectedCallerCanSucceedOnceTheSlotIsFree() async throws {
        let bridge = SDKBridge<Int>()
        let completions = Mailbox<SDKBridge<Int>.Completion>()
        let first = Task { try await bridge.call { completions.send($0) } }
        let completion = await completions.next()

        await #expect(throws: BridgeError.busy) { try await bridge.call { _ in Issue.record("started") } }
        completion.succeed(1)
        _ = try await first.value
        #expect(try await bridge.call { $0.succeed(2) } == 2)
    }
}
