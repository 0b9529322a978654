import Tally
import TallyTesting
import Testing

/// The code of the RecordingCalls article, compiled and run, so the article cannot drift from the API.
enum CallRecordingArticle {
    protocol HippoAnalyticsClientInterface {
        func logEvent(named name: String, properties: [String: Any]?)
    }

    struct EventLogger {
        let hippoAnalyticsClient: any HippoAnalyticsClientInterface
        func log(name: String, properties: [String: Any]) {
            hippoAnalyticsClient.logEvent(named: name, properties: properties)
        }
    }

    final class HippoAnalyticsClientInterfaceSpy: HippoAnalyticsClientInterface, Sendable {
        let calls = CallRecorder()

        func logEvent(named name: String, properties: [String: Any]?) {
            calls.record(arguments: name, properties)
        }
    }

    struct Form: Sendable, Equatable {
        var id: String
        static let empty = Form(id: "")
    }

    struct User: Sendable, Equatable {
        var id: Int
        var name: String
    }

    struct MultipleFormLoadError: Error {}

    protocol FeedbackService {
        func load(_ id: String) throws -> Form
        func user(id: Int) -> User?
        func pendingCount() -> Int
    }

    final class MockFeedbackService: FeedbackService, Sendable {
        let calls = CallRecorder()

        func load(_ id: String) throws -> Form { try calls.recordThrowing(default: .empty, arguments: id) }
        func user(id: Int) -> User? { calls.record(default: nil, arguments: id) }
        func pendingCount() -> Int { calls.record(default: 0) }
    }

    protocol ThirdPartyFeedbackSDK {
        static func loadFeedbackForm(_ id: String)
        static func isFormCached(_ id: String) -> Bool
    }

    enum ThirdPartySpy: ThirdPartyFeedbackSDK {
        static func loadFeedbackForm(_ id: String) { CallRecorder.current.record(arguments: id) }
        static func isFormCached(_ id: String) -> Bool { CallRecorder.current.record(default: false, arguments: id) }
    }

    struct FeedbackLoader<SDK: ThirdPartyFeedbackSDK> {
        func load(_ id: String) {
            if !SDK.isFormCached(id) { SDK.loadFeedbackForm(id) }
        }
    }

    final class FirebaseSpy: FirebaseAnalyticsAdapter, Sendable {
        let calls = CallRecorder()
        func logEvent(_ name: String, parameters: [String: Any]?) { calls.record(arguments: name, parameters) }
        func setUserID(_ userID: String?) { calls.record(arguments: userID) }
        func setUserProperty(_ value: String?, forName name: String) { calls.record(arguments: value, name) }
    }
}

@Suite struct CallRecorderArticleTests {
    private typealias Article = CallRecordingArticle

    @Test func logsEventsWithCorrectParameters() {
        let hippo = Article.HippoAnalyticsClientInterfaceSpy()
        let eventLogger = Article.EventLogger(hippoAnalyticsClient: hippo)

        eventLogger.log(name: "test", properties: ["key": "value"])

        hippo.calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "value"])
        hippo.calls.expectNothingElse()
    }

    @Test func showsTheBadgeWhenFormsArePending() throws {
        let feedback = Article.MockFeedbackService()
        feedback.calls.stub("pendingCount()", returning: 3)
        feedback.calls.stub("user(id:)") { call in call.arguments == [1] ? Article.User(id: 1, name: "Ada") : nil }
        feedback.calls.stub("load(_:)", throwing: Article.MultipleFormLoadError())
        #expect(feedback.pendingCount() == 3)
        #expect(feedback.user(id: 1)?.name == "Ada")
        #expect(feedback.user(id: 2) == nil)
        #expect(throws: Article.MultipleFormLoadError.self) { try feedback.load("a") }
    }

    @Test func loadsTheFormThatIsNotCached() {
        let sdk = CallRecorder()
        sdk.stub("isFormCached(_:)", returning: false)
        CallRecorder.withCurrent(sdk) {
            Article.FeedbackLoader<Article.ThirdPartySpy>().load("some-id")
        }
        sdk.expectCalled("loadFeedbackForm(_:)", with: "some-id")
    }

    /// The documented alternative to a task-local recorder: the destination calls the instance spy from its
    /// own thread, and the calls are recorded all the same.
    @Test func orderedItemsReachFirebase() async {
        let firebase = Article.FirebaseSpy()
        let analytics = AnalyticsClient(destinations: [FirebaseDestination(adapter: firebase)])
        analytics.track("menu item-ordered", ["item_name": "Pizza"])
        await analytics.flush()
        firebase.calls.expectCalled("logEvent(_:parameters:)", with: "menu_item_ordered", ["item_name": "Pizza"])
        firebase.calls.expectNothingElse()
        await analytics.shutdown()
    }
}
