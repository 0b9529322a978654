import NotesExample
import Tally
import TallySpy
import TallyTesting
import Testing

/// The article's point: the event -> SDK transformation belongs to a type the app controls,
/// `GoogleAnalyticsService`, so it is unit-tested against a spy adapter, without the Google SDK. In
/// exhaustive mode a second call to the SDK for one event fails the test.
@Suite(.exhaustive)
struct GoogleAnalyticsServiceExampleTests {
    @Test func aNoteBecomesOneTrackEventCallWithItsProperties() async {
        let sdk = GoogleSDKSpy()
        let service = GoogleAnalyticsService(adapter: sdk)

        service.send(event: .noteCreated(wordCount: 4))
        await service.flush()

        sdk.expectCalled(.trackEvent(with: "note_created", properties: ["word_count": 4]))
    }

    @Test func aScreenBecomesAScreenViewEvent() async {
        let sdk = GoogleSDKSpy()
        let service = GoogleAnalyticsService(adapter: sdk)

        service.send(event: .notesScreen)
        await service.flush()

        sdk.expectCalled(.trackEvent(with: "screen_view", properties: ["screen_name": "Notes"]))
    }

    @Test func eventsReachTheSDKInTheOrderTheyWereSent() async {
        let sdk = GoogleSDKSpy()
        let service = GoogleAnalyticsService(adapter: sdk)

        service.send(event: .notesScreen)
        service.send(event: .noteCreated(wordCount: 1))
        service.send(event: .noteCreated(wordCount: 2))
        await service.flush()

        sdk.expectCalls(inOrder: [
            .trackEvent(with: "screen_view", properties: ["screen_name": "Notes"]),
            .trackEvent(with: "note_created", properties: ["word_count": 1]),
            .trackEvent(with: "note_created", properties: ["word_count": 2]),
        ])
    }

    @Test func whatTheSDKHasNoCallForIsDroppedAndCounted() async {
        let sdk = GoogleSDKSpy()
        let service = GoogleAnalyticsService(adapter: sdk)

        service.send(event: .identify(userId: "user-42"))
        await service.flush()

        sdk.expectCount(0)
        #expect(service.statistics.destinations["google"]?.dropped[.rejected] == 1)
    }
}
