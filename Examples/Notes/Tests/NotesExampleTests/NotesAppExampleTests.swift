import Foundation
import NotesExample
import Tally
import TallyTesting
import Testing

/// The registration of the article's `setupDependencies()`: the container builds the screens with a
/// `GoogleAnalyticsService` around the adapter it was given, and the whole app shares that one service.
@Suite(.exhaustive)
struct NotesAppExampleTests {
    @Test func theRegisteredServiceSendsThroughTheRegisteredAdapter() async {
        let sdk = GoogleSDKSpy()
        let app = NotesApp(makeAdapter: { sdk })

        let list = app.makeNotesList()
        list.onAppear()
        list.createNote(text: "Call Ada")
        await app.flush()

        sdk.calls.expectCalls(inOrder: [
            .call("trackEvent(with:properties:)", with: "screen_view", ["screen_name": "Notes"]),
            .call("trackEvent(with:properties:)", with: "note_created", ["word_count": 2]),
        ])
    }

    @Test func theAppRegistersOneGoogleAnalyticsService() throws {
        let app = NotesApp()

        let first = try #require(app.analyticsService as? GoogleAnalyticsService)
        let second = try #require(app.analyticsService as? GoogleAnalyticsService)

        #expect(first === second)
    }

    @Test func screensBuiltByTheContainerShareTheAdapter() async {
        let adapters = AdapterCount()
        let sdk = GoogleSDKSpy()
        let app = NotesApp(makeAdapter: {
            adapters.increment()
            return sdk
        })

        app.makeNotesList().onAppear()
        app.makeNotesList().onAppear()
        await app.flush()

        #expect(adapters.value == 1)
        sdk.calls.expectCount(2, of: "trackEvent(with:properties:)")
    }
}

/// Counts how often the container made an adapter.
final class AdapterCount: @unchecked Sendable {
    // @unchecked: `count` is only touched while `lock` is held.
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
