import FeedbackFormExample
import FeedbackThirdParty
import Tally
import TallyTesting
import Testing

/// The article's wrapper tests, for both of its forms (the `ThirdPartyFeedbackService` class and the
/// `FeedbackServiceClient` struct of closures), plus what the article leaves out: cancellation, timeouts
/// and concurrent callers. Each test has its own fake SDK and bridge, so they run in parallel.
@Suite(.exhaustive)
struct FeedbackServiceExampleTests {
    /// The article's `testLoadSetsDelegateAndInvokesLoad` and
    /// `testWhenLoadIsSuccessful_itInvokesTheCompletionWithTheLoadedViewController`.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: ServiceForm.allCases)
    func aLoadSetsTheDelegatePassesTheIdAndReturnsTheForm(form: ServiceForm) async throws {
        let sdk = FakeThirdParty()
        let load = form.load(over: sdk, bridge: SDKBridge())

        let call = Task { try await load("some-id") }
        #expect(await sdk.nextLoad() == "some-id")
        #expect(sdk.delegate != nil)

        await sdk.deliver(.nps)

        #expect(try await call.value == .nps)
        #expect(sdk.delegate == nil)
        #expect(sdk.delegateHistory == [true, false])
        #expect(sdk.loadedIDs == ["some-id"])
    }

    /// The article's `testWhenLoadIsInFlight_subsequentLoadsWillThrow`: the second caller gets
    /// `BridgeError.busy` (the article's `MultipleFormLoadError`) and never reaches the SDK.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: ServiceForm.allCases)
    func aLoadInFlightRejectsASecondCaller(form: ServiceForm) async throws {
        let sdk = FakeThirdParty()
        let load = form.load(over: sdk, bridge: SDKBridge())
        let first = Task { try await load("first") }
        #expect(await sdk.nextLoad() == "first")

        await #expect(throws: BridgeError.busy) { try await load("second") }

        await sdk.deliver(.nps)
        #expect(try await first.value == .nps)
        #expect(sdk.loadedIDs == ["first"])
        #expect(sdk.delegate == nil)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: ServiceForm.allCases)
    func cancellingALoadReleasesTheDelegateAndThrowsCancellationError(form: ServiceForm) async throws {
        let sdk = FakeThirdParty()
        let bridge = SDKBridge<FeedbackForm>()
        let load = form.load(over: sdk, bridge: bridge)
        let call = Task { try await load("nps") }
        #expect(await sdk.nextLoad() == "nps")
        let staleDelegate = SendableBox(sdk.delegate)

        call.cancel()

        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(sdk.delegate == nil)
        // The SDK answers late, to the delegate it was given: the answer is ignored and counted.
        await onAnotherThread { staleDelegate.value?.formDidload(.nps) }
        #expect(bridge.ignoredCallbacks == 1)
        // The SDK is free for the next load.
        let next = Task { try await load("onboarding") }
        #expect(await sdk.nextLoad() == "onboarding")
        await sdk.deliver(.nps)
        #expect(try await next.value == .nps)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: ServiceForm.allCases)
    func aLoadTheSDKNeverAnswersTimesOutAndReleasesTheDelegate(form: ServiceForm) async throws {
        let sdk = FakeThirdParty()
        let clock = ManualClock()
        let load = form.load(over: sdk, bridge: SDKBridge(), clock: clock)
        let call = Task { try await load("nps") }
        #expect(await sdk.nextLoad() == "nps")
        try await clock.waitForSleepers(count: 1)  // The timeout is armed.

        clock.advance(by: .seconds(15))

        await #expect(throws: BridgeError.timedOut(after: 15)) { try await call.value }
        #expect(sdk.delegate == nil)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: ServiceForm.allCases)
    func aLoadAnsweredJustBeforeTheTimeoutSucceeds(form: ServiceForm) async throws {
        let sdk = FakeThirdParty()
        let clock = ManualClock()
        let load = form.load(over: sdk, bridge: SDKBridge(), clock: clock)
        let call = Task { try await load("nps") }
        #expect(await sdk.nextLoad() == "nps")
        try await clock.waitForSleepers(count: 1)

        clock.advance(by: .seconds(14))
        await sdk.deliver(.nps)

        #expect(try await call.value == .nps)
    }

    /// Many callers on many threads at once: exactly one load reaches the SDK, every other caller is
    /// rejected without touching it, and the one load gets its form.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: ServiceForm.allCases)
    func concurrentCallersGetOneLoadAndTheRestAreRejected(form: ServiceForm) async throws {
        let sdk = FakeThirdParty()
        let load = form.load(over: sdk, bridge: SDKBridge())
        let callers = 20

        let outcomes = await withTaskGroup(of: Result<FeedbackForm, BridgeError>?.self) { group in
            for caller in 0..<callers {
                group.addTask {
                    do {
                        return .success(try await load("form-\(caller)"))
                    } catch let error as BridgeError {
                        return .failure(error)
                    } catch {
                        return nil
                    }
                }
            }
            // Every caller but the one in flight is rejected before the SDK answers.
            var outcomes: [Result<FeedbackForm, BridgeError>?] = []
            while outcomes.count < callers - 1, let outcome = await group.next() { outcomes.append(outcome) }
            _ = await sdk.nextLoad()
            await sdk.deliver(.nps)
            while let outcome = await group.next() { outcomes.append(outcome) }
            return outcomes
        }

        #expect(outcomes.count == callers)
        #expect(outcomes.filter { $0 == .failure(.busy) }.count == callers - 1)
        #expect(outcomes.last == .success(.nps))
        #expect(sdk.loadedIDs.count == 1)
        #expect(sdk.delegate == nil)
    }

    /// Two wrappers of the one static SDK share its bridge by default, so they never have loads in
    /// flight at once.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func bothFormsOnOneBridgeRejectEachOther() async throws {
        let sdk = FakeThirdParty()
        let bridge = SDKBridge<FeedbackForm>()
        let service = sdk.service(bridge: bridge)
        let client = sdk.client(bridge: bridge)
        let first = Task { try await service.load("nps") }
        #expect(await sdk.nextLoad() == "nps")

        await #expect(throws: BridgeError.busy) { try await client.load("onboarding") }

        await sdk.deliver(.nps)
        #expect(try await first.value == .nps)
    }
}
