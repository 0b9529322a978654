import Dispatch
import Foundation
import Tally
import TallyTestSupport
import TallyTesting
import Testing

@Suite struct SDKBridgeTests {
    @Test func aCallSetsTheDelegateStartsTheSDKAndReturnsItsAnswer() async throws {
        let loader = FormLoader()
        let call = Task { try await loader.load("nps") }

        #expect(await loader.sdk.requests.next() == "nps")
        #expect(loader.sdk.delegate is FormDelegate)
        #expect(loader.bridge.isBusy)
        await onAnotherThread { loader.sdk.deliverForm("nps") }

        #expect(try await call.value == FeedbackForm(id: "nps"))
        #expect(loader.sdk.delegate == nil)
        #expect(loader.cleanups.current == 1)
        #expect(!loader.bridge.isBusy)
        #expect(loader.bridge.ignoredCallbacks == 0)
    }

    @Test func aFailurePassesThroughUnchanged() async throws {
        let bridge = SDKBridge<Int>()
        let cleanups = Locked(0)
        await #expect(throws: Offline(attempt: 3)) {
            try await bridge.call { completion in
                DispatchQueue.global().async { completion.fail(Offline(attempt: 3)) }
            } cleanup: {
                cleanups.withLock { $0 += 1 }
            }
        }
        #expect(cleanups.current == 1)
        #expect(!bridge.isBusy)
    }

    @Test func anErrorOnlyTheSDKCanMakeReachesTheCallerAsItself() async throws {
        let loader = FormLoader()
        let call = Task { try await loader.load("nps") }
        _ = await loader.sdk.requests.next()
        await onAnotherThread { loader.sdk.deliverFailure("form nps is disabled") }

        let error = await #expect(throws: ThirdPartyError.self) { try await call.value }
        #expect(error?.description == "form nps is disabled")
        #expect(loader.sdk.delegate == nil)
        #expect(loader.cleanups.current == 1)
    }

    @Test func callbacksFromManyThreadsAtOnce_theFirstWinsAndTheOthersAreCounted() async throws {
        let bridge = SDKBridge<Int>()
        let completions = Mailbox<SDKBridge<Int>.Completion>()
        let cleanups = Locked(0)
        let call = Task {
            try await bridge.call {
                completions.send($0)
            } cleanup: {
                cleanups.withLock { $0 += 1 }
            }
        }
        let completion = await completions.next()

        let winners = Locked<[Int]>([])
        await onNewThreads(8) { thread in
            let won = thread.isMultiple(of: 2) ? completion.succeed(thread) : completion.fail(Offline(attempt: thread))
            if won { winners.withLock { $0.append(thread) } }
        }

        let winner = try #require(winners.current.count == 1 ? winners.current.first : nil)
        let result = await call.result
        if winner.isMultiple(of: 2) {
            #expect(try result.get() == winner)
        } else {
            #expect(throws: Offline(attempt: winner)) { try result.get() }
        }
        #expect(bridge.ignoredCallbacks == 7)
        #expect(cleanups.current == 1)
    }

    @Test func laterCallbacksAreIgnoredAndCounted() async throws {
        let bridge = SDKBridge<String>()
        let completions = Mailbox<SDKBridge<String>.Completion>()
        let call = Task { try await bridge.call { completions.send($0) } }
        let completion = await completions.next()

        #expect(completion.succeed("first"))
        #expect(!completion.fail(Offline()))
        #expect(!completion.succeed("third"))
        #expect(!completion.resume(with: Result<String, Offline>.success("fourth")))

        #expect(try await call.value == "first")
        #expect(bridge.ignoredCallbacks == 3)
        #expect(!completion.succeed("after the call returned"))
        #expect(bridge.ignoredCallbacks == 4)
    }

    @Test func anAnswerDuringStartEndsTheCall() async throws {
        let bridge = SDKBridge<String>()
        let log = EventLog()
        let value = try await bridge.call { completion in
            log.record("start")
            completion.succeed("cached")
            log.record("start returns")
        } cleanup: {
            log.record("cleanup")
        }
        #expect(value == "cached")
        #expect(log.entries == ["start", "start returns", "cleanup"])
    }

    @Test func aThrowingStartEndsTheCallWithItsErrorAndStillCleansUp() async throws {
        let sdk = ThirdParty()
        let bridge = SDKBridge<FeedbackForm>()
        let completions = Mailbox<SDKBridge<FeedbackForm>.Completion>()
        let cleanups = Locked(0)

        await #expect(throws: Offline(attempt: 2)) {
            try await bridge.call { completion in
                completions.send(completion)
                sdk.delegate = FormDelegate(completion)
                throw Offline(attempt: 2)
            } cleanup: {
                sdk.delegate = nil
                cleanups.withLock { $0 += 1 }
            }
        }
        #expect(sdk.delegate == nil)
        #expect(cleanups.current == 1)
        #expect(!bridge.isBusy)

        let late = await completions.next()
        #expect(!late.succeed(FeedbackForm(id: "late")))
        #expect(bridge.ignoredCallbacks == 1)
    }

    @Test func anAnswerBeforeStartThrowsWins() async throws {
        let bridge = SDKBridge<Int>()
        let value = try await bridge.call { completion in
            completion.succeed(42)
            throw Offline()
        }
        #expect(value == 42)
        #expect(bridge.ignoredCallbacks == 1)  // a throwing start counts like a late `fail`
    }

    @Test func resultCallbacksAndVoidCalls() async throws {
        let bridge = SDKBridge<Int>()
        #expect(try await bridge.call { $0.resume(with: Result<Int, Offline>.success(7)) } == 7)
        await #expect(throws: Offline(attempt: 9)) {
            try await bridge.call { $0.resume(with: Result<Int, Offline>.failure(Offline(attempt: 9))) }
        }

        let voidBridge = SDKBridge<Void>()
        try await voidBridge.call { completion in
            DispatchQueue.global().async { completion.succeed() }
        }
        #expect(!voidBridge.isBusy)
    }

    @Test func callsOneAfterAnotherEachGetTheirOwnAnswerAndCleanup() async throws {
        let loader = FormLoader()
        for id in ["a", "b", "c"] {
            let call = Task { try await loader.load(id) }
            #expect(await loader.sdk.requests.next() == id)
            loader.sdk.deliverForm(id)
            #expect(try await call.value == FeedbackForm(id: id))
        }
        #expect(loader.cleanups.current == 3)
        #expect(loader.bridge.ignoredCallbacks == 0)
        #expect(loader.bridge.busyPolicy == .reject)
    }

    @Test func theBridgeErrorsExplainThemselves() {
        #expect(BridgeError.busy.description.contains("whenBusy: .queue"))
        #expect(BridgeError.timedOut(after: 1.5).description.contains("1.5 seconds"))
        #expect(BridgeError.busy.errorDescription == BridgeError.busy.description)
    }
}

/// An SDK wrapper isolated to an actor: `start` and `cleanup` touch its state synchronously, which compiles
/// only because the bridge runs them on the caller's actor.
actor IsolatedFormOwner {
    private(set) var log: [String] = []

    func load(_ bridge: SDKBridge<Int>) async throws -> Int {
        try await bridge.call { completion in
            log.append("start")
            DispatchQueue.global().async { completion.succeed(7) }
        } cleanup: {
            log.append("cleanup")
        }
    }
}

@MainActor final class MainActorFormOwner {
    var log: [String] = []

    func load(_ bridge: SDKBridge<Int>) async throws -> Int {
        try await bridge.call { completion in
            log.append("start")
            DispatchQueue.global().async { completion.succeed(8) }
        } cleanup: {
            log.append("cleanup")
        }
    }
}

@Suite struct SDKBridgeIsolationTests {
    @Test func startAndCleanupRunOnTheCallersActor() async throws {
        let owner = IsolatedFormOwner()
        #expect(try await owner.load(SDKBridge()) == 7)
        #expect(await owner.log == ["start", "cleanup"])
    }

    @MainActor
    @Test func aMainActorCallerStartsTheSDKOnTheMainActor() async throws {
        let owner = MainActorFormOwner()
        #expect(try await owner.load(SDKBridge()) == 8)
        #expect(owner.log == ["start", "cleanup"])
    }
}
