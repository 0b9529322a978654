// Generating spies with @Spy: "Static requirements and initializers", "Waiting for calls".

import TallySpy
import TallyTesting
import Testing

@Test func staticCallsRecordIntoTheInstalledSpy() {
    let sdk = FeedbackSDKSpy()
    sdk.withStaticCalls {
        FeedbackLoader(sdk: FeedbackSDKSpy.self).load("some-id")
    }
    sdk.expectCalled(.loadForm("some-id"))
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@Test func waitingForCallsMadeOnAnotherThread() async {
    let sdk = AnalyticsSDKSpy()
    let uploader = Uploader(sdk: sdk)
    let clock = ManualClock()
    uploader.start()
    await sdk.waitForCalls(3, of: .logEvent)  // 5 seconds by default
    await sdk.waitForCalls(1, of: .flush, timeout: .seconds(2), clock: clock)
    sdk.expectCount(3, of: .logEvent)
}
