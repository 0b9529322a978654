import Dispatch
import Tally
import TallyTestSupport
import TallyTesting
import Testing

@Suite struct SDKBridgeCancellationTests {
    @Test func aTaskCancelledBeforeItCallsNeverTouchesTheSDK() async throws {
        let loader = FormLoader()
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await loader.load("nps")
        }
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(loader.cleanups.current == 0)  // `start` never ran, so there is nothing to release
        #expect(loader.sdk.delegate == nil)
        #expect(!loader.bridge.isBusy)

        let next = Task { try await loader.load("next") }
        #expect(await loader.sdk.requests.next() == "next")  // "nps" never reached the SDK
        loader.sdk.deliverForm("next")
        #expect(try await next.value == FeedbackForm(id: "next"))
    }

    @Test func cancellingAfterStartReleasesTheDelegateAndThrowsCancellationError() async throws {
        let loader = FormLoader()
        let call = Task { try await loader.load("nps") }
        _ = await loader.sdk.requests.next()
        let delegate = try #require(loader.sdk.delegate)

        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(loader.sdk.delegate == nil)
        #expect(loader.cleanups.current == 1)
        #expect(!loader.bridge.isBusy)

        // The SDK had read its delegate before the release and answers late: ignored, counted.
        await onAnotherThread { delegate.formDidLoad(FeedbackForm(id: "nps")) }
        #expect(loader.bridge.ignoredCallbacks == 1)

        let next = Task { try await loader.load("next") }
        _ = await loader.sdk.requests.next()
        loader.sdk.deliverForm("next")
        #expect(try await next.value == FeedbackForm(id: "next"))
        #expect(loader.cleanups.current == 2)
    }

    @Test func cancellationDuringStartEndsTheCallAndCleansUpOnce() async throws {
        let bridge = SDKBridge<Int>()
        let log = EventLog()
        let call = Task {
            try await bridge.call { _ in
                log.record("start")
                withUnsafeCurrentTask { $0?.cancel() }
            } cleanup: {
                log.record("cleanup")
            }
        }
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(log.entries == ["start", "cleanup"])
        #expect(bridge.ignoredCallbacks == 0)
        #expect(!bridge.isBusy)
    }

    @Test func anAnswerThatCameFirstWinsOverALaterCancellation() async throws {
        let bridge = SDKBridge<Int>()
        let cleanups = Locked(0)
        let call = Task {
            try await bridge.call { completion in
                completion.succeed(42)
                withUnsafeCurrentTask { $0?.cancel() }
            } cleanup: {
                cleanups.withLock { $0 += 1 }
            }
        }
        #expect(try await call.value == 42)
        #expect(cleanups.current == 1)
        #expect(bridge.ignoredCallbacks == 0)  // cancellation is not an SDK callback
    }

    @Test func cancellationRacingTheAnswerEndsEachCallExactlyOnce() async throws {
        let bridge = SDKBridge<Int>()
        let completions = Mailbox<SDKBridge<Int>.Completion>()
        let cleanups = Locked(0)
        var answered = 0
        var cancelled = 0
        for round in 0..<200 {
            let call = Task {
                try await bridge.call {
                    completions.send($0)
                } cleanup: {
                    cleanups.withLock { $0 += 1 }
                }
            }
            let completion = await completions.next()
            let answerWon = Locked(false)
            await onNewThreads(2) { thread in
                if thread == 0 {
                    call.cancel()
                } else if completion.succeed(round) {
                    answerWon.withLock { $0 = true }
                }
            }
            switch await call.result {
            case .success(let value):
                #expect(answerWon.current)
                #expect(value == round)
                answered += 1
            case .failure(let error):
                #expect(!answerWon.current)
                #expect(error is CancellationError)
                cancelled += 1
            }
        }
        #expect(answered + cancelled == 200)
        #expect(cleanups.current == 200)
        #expect(bridge.ignoredCallbacks == cancelled)  // each answer that lost to cancellation
        #expect(!bridge.isBusy)
    }
}
