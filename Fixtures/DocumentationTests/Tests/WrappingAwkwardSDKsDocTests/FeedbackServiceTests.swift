// Wrapping awkward SDKs: "Testing the wrapper".

import Tally
import TallyTesting
import Testing
import ThirdPartySDK
import UIKitStandIn

@MainActor final class FakeThirdParty {
    var delegate: (any ThirdPartyDelegate)?
    let loads: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    init() { (loads, continuation) = AsyncStream.makeStream() }
    func loadFeedbackForm(_ id: String) { continuation.yield(id) }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@MainActor
@Test func aSecondLoadWhileOneIsInFlightThrowsBusy() async throws {
    let sdk = FakeThirdParty()
    let service = FeedbackService.thirdParty(
        loadFeedback: sdk.loadFeedbackForm, setDelegate: { sdk.delegate = $0 }
    )
    var loads = sdk.loads.makeAsyncIterator()
    let first = Task { try await service.load("first") }
    #expect(await loads.next() == "first")

    await #expect(throws: BridgeError.busy) { try await service.load("second") }

    let form = UIViewController()
    sdk.delegate?.formDidload(form)
    #expect(try await first.value === form)
    #expect(sdk.delegate == nil)
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@MainActor
@Test func aLoadTimesOutAndReleasesTheDelegate() async throws {
    let sdk = FakeThirdParty()
    let clock = ManualClock()
    let service = FeedbackService.thirdParty(
        loadFeedback: sdk.loadFeedbackForm, setDelegate: { sdk.delegate = $0 }, clock: clock
    )
    var loads = sdk.loads.makeAsyncIterator()
    let load = Task { try await service.load("nps") }
    #expect(await loads.next() == "nps")
    try await clock.waitForSleepers(count: 1)

    clock.advance(by: .seconds(15))
    await #expect(throws: BridgeError.timedOut(after: 15)) { try await load.value }
    #expect(sdk.delegate == nil)
}
