import FeedbackFormExample
import FeedbackThirdParty
import Tally
import TallyTesting
import Testing

/// The scenario as an analytics example: the screen tracks whether a form loaded, and why not.
/// The struct-of-closures form makes the service a one-line stub.
@Suite(.exhaustive)
struct FeedbackFormModelExampleTests {
    struct Offline: Error {}

    @Test func aLoadedFormIsShownAndTracked() async {
        let spy = AnalyticsSpy()
        let model = FeedbackFormModel(client: FeedbackServiceClient { _ in .nps }, analytics: spy)

        #expect(await model.open("nps") == .shown(.nps))

        spy.expectTracked(Event("feedback_form_loaded", ["form_id": "nps"]))
    }

    @Test func anSDKErrorIsTrackedAsAFailure() async {
        let spy = AnalyticsSpy()
        let model = FeedbackFormModel(client: FeedbackServiceClient { _ in throw Offline() }, analytics: spy)

        guard case .failed(.sdkError, _) = await model.open("nps") else {
            Issue.record("expected an sdk_error failure")
            return
        }
        spy.expectTracked(Event("feedback_form_failed", ["form_id": "nps", "reason": "sdk_error"]))
    }

    @Test func aTimeoutIsTrackedAsATimeout() async {
        let spy = AnalyticsSpy()
        let model = FeedbackFormModel(
            client: FeedbackServiceClient { _ in throw BridgeError.timedOut(after: 15) }, analytics: spy)

        #expect(await model.open("nps") == .failed(.timedOut, message: "The form did not load within 15 seconds."))
        spy.expectTracked(Event("feedback_form_failed", ["form_id": "nps", "reason": "timed_out"]))
    }

    @Test func aSecondTapWhileLoadingTracksNothing() async {
        let spy = AnalyticsSpy()
        let model = FeedbackFormModel(client: FeedbackServiceClient { _ in throw BridgeError.busy }, analytics: spy)

        #expect(await model.open("nps") == .ignoredWhileLoading)
        spy.expectNoEvents()
    }

    @Test func aCancelledLoadTracksNothing() async {
        let spy = AnalyticsSpy()
        let model = FeedbackFormModel(
            client: FeedbackServiceClient { _ in throw CancellationError() }, analytics: spy)

        #expect(await model.open("nps") == .cancelled)
        spy.expectNoEvents()
    }

    /// End to end through the wrapper and the bridge, with a fake SDK that never answers and a manual
    /// clock: the timeout reaches analytics without anyone waiting 15 seconds.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aTimeoutThroughTheRealWrapperIsTracked() async throws {
        let spy = AnalyticsSpy()
        let sdk = FakeThirdParty()
        let clock = ManualClock()
        let model = FeedbackFormModel(service: sdk.service(bridge: SDKBridge(), clock: clock), analytics: spy)

        let opening = Task { await model.open("nps") }
        #expect(await sdk.nextLoad() == "nps")
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(15))

        #expect(await opening.value == .failed(.timedOut, message: "The form did not load within 15 seconds."))
        spy.expectEvents([.feedbackFormFailed(formID: "nps", reason: .timedOut)])
    }

    @Test func everythingTheScreenTracksIsInTheTrackingPlan() async throws {
        let spy = AnalyticsSpy()
        let loaded = FeedbackFormModel(client: FeedbackServiceClient { _ in .nps }, analytics: spy)
        let failing = FeedbackFormModel(client: FeedbackServiceClient { _ in throw Offline() }, analytics: spy)
        let slow = FeedbackFormModel(
            client: FeedbackServiceClient { _ in throw BridgeError.timedOut(after: 15) }, analytics: spy)
        _ = await loaded.open("nps")
        _ = await failing.open("nps")
        _ = await slow.open("nps")

        spy.expectCount(3)
        spy.expectValid(against: try ExamplesPlan.validator())
    }
}
