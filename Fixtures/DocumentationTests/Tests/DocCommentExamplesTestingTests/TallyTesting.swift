import Foundation
import Tally
import TallyPlan
import TallySpy
import TallyTesting
import Testing
import XCTest

// The examples of TallyTesting's doc comments, as written (.ci/check-doc-code). What an example leaves
// implicit (the spies and models it tests, an `app`, a `bridge`) is a parameter here, or in Support.swift.
// Examples that declare a type another example declares too are in a namespace of their own.

// CallExpecting.
func callExpectingOverview(hippo: HippoAnalyticsClientSpy, users: UserServiceSpy) {
    hippo.calls.expectCalls(inOrder: ["setDelegate(_:)", .call("loadFeedbackForm(_:)", with: "some-id")])
    users.expectCalled(.fetch(id: 1))
    users.expectNothingElse()
}

func callExpectingWhere(users: UserServiceSpy, tracker: TrackerSpy) {
    users.expectCalled(.fetch) { $0.arguments[0].value?.intValue ?? 0 > 100 }
    tracker.expectCalled(.track) { call in
        call.arguments[0].value?.stringValue?.hasPrefix("checkout_") == true
    }
}

func callExpectingNotCalled(users: UserServiceSpy) {
    users.expectNotCalled(.delete)
}

func callExpectingCount(users: UserServiceSpy) {
    users.expectCount(2, of: .fetch)
    users.expectCount(3)
}

func callExpectingInOrder(sdk: FeedbackSDKSpy, hippo: HippoAnalyticsClientSpy) {
    sdk.expectCalls(inOrder: [.setDelegate, .loadForm("some-id")])
    hippo.calls.expectCalls(inOrder: ["setDelegate(_:)", .call("loadFeedbackForm(_:)", with: "some-id")])
}

// CallRecorder.Argument.
@Test func argumentsCompareWithLiterals() throws {
    let hippo = HippoAnalyticsClientSpy()
    EventLogger(hippoAnalyticsClient: hippo).log(name: "test", properties: ["key": "value"])
    let call = try #require(hippo.calls.all.first)
    #expect(call.arguments == ["test", ["key": "value"]])
    #expect(call.arguments[1].value?.objectValue?["key"] == "value")
}

func argumentForms() {
    let object = CallRecorder.Argument(["key": "value"] as [String: Any]?)  // .value(["key": "value"])
    let null = CallRecorder.Argument(nil)  // .value(.null)
    let item = CallRecorder.Argument(MenuItem(name: "Pizza"))  // .dump("MenuItem(name: \"Pizza\")")
    _ = (object, null, item)
}

func argumentByIdentity(screenModel: MapScreenModel) {
    let model = CallRecorder.Argument.byIdentity(screenModel)  // .instance(type: "MapScreenModel", id: ...)
    let home = CallRecorder.Argument.byIdentity("Home")  // .value("Home")
    _ = (model, home)
}

// CallRecorder.Call.
@Test func aCallDescribesItself() throws {
    let hippo = HippoAnalyticsClientSpy()
    EventLogger(hippoAnalyticsClient: hippo).log(name: "test", properties: ["key": "value"])
    let call = try #require(hippo.calls.all.first)
    #expect(call.method == "logEvent(named:properties:)")
    #expect(call.arguments == ["test", ["key": "value"]])
    print(call)  // logEvent(named: "test", properties: ["key": "value"])
}

func callOrder(sdk: HandWrittenFeedbackSDKSpy) throws {
    let setDelegate = try #require(sdk.calls.all(to: "setDelegate(_:)").first)
    let load = try #require(sdk.calls.all(to: "loadFeedbackForm(_:)").first)
    #expect(setDelegate.order < load.order)
}

@Test func aCallRecordsWhatWasWrittenBack() throws {
    let spy = FormatterSpy()
    spy.stub(.normalize) { (value: SpyInout<String>) in value.value = value.value.lowercased() }
    var text = "Hello"
    spy.normalize(&text)
    // func normalize(_ value: inout String), called with "Hello", its stub lowercasing it
    let call = try #require(spy.calls(to: .normalize).first)
    #expect(call.arguments == ["Hello"])
    #expect(call.written == [0: "hello"])
    print(call)  // normalize("Hello" -> "hello")
}

// CallRecorder.current.
enum ThirdPartySpy: ThirdPartyFeedbackSDK {
    static func loadFeedbackForm(_ id: String) {
        CallRecorder.current.record(arguments: id)
    }
}

@Test func loadPassesTheFormID() throws {
    let sdk = CallRecorder()
    try CallRecorder.withCurrent(sdk) {
        try FeedbackLoader(sdk: ThirdPartySpy.self).load("some-id")
    }
    sdk.expectCalled("loadFeedbackForm(_:)", with: "some-id")
}

@Test func withCurrentCallsDirectly() {
    let sdk = CallRecorder()
    CallRecorder.withCurrent(sdk) {
        ThirdPartySpy.loadFeedbackForm("some-id")
    }
    sdk.expectCalled("loadFeedbackForm(_:)")
}

@Test func withCurrentAsync() async throws {
    let loader = AsyncFeedbackLoader(sdk: ThirdPartySpy.self)
    let sdk = CallRecorder()
    try await CallRecorder.withCurrent(sdk) {
        try await loader.load("some-id")
    }
    sdk.expectCalled("loadFeedbackForm(_:)", with: "some-id")
}

// CallRecorder's expectations.
func recorderExpectCalled(hippo: HippoAnalyticsClientSpy) {
    hippo.calls.expectCalled("logEvent(named:properties:)")
}

func recorderExpectNotCalled(viewModel: OrderViewModel, hippo: HippoAnalyticsClientSpy) {
    viewModel.addOrRemoveFromOrder()
    hippo.calls.expectNotCalled("logEvent(named:properties:)")
}

func recorderExpectCount(hippo: HippoAnalyticsClientSpy) {
    hippo.calls.expectCount(2, of: "logEvent(named:properties:)")
    hippo.calls.expectCount(3)
}

func recorderExpectCallsInOrder(sdk: HandWrittenFeedbackSDKSpy) {
    sdk.calls.expectCalls(inOrder: [
        "setDelegate(_:)",
        .call("loadFeedbackForm(_:)", with: "some-id"),
    ])
}

func recorderExpectNothingElse(hippo: HippoAnalyticsClientSpy) {
    hippo.calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "value"])
    hippo.calls.expectNothingElse()
}

func expectedCalls() {
    let expected: [CallRecorder.ExpectedCall] = [
        .call("logEvent(named:properties:)", with: "test", ["key": "value"]),
        .call("logEvent(named:properties:)", with: "test", nil),
    ]
    _ = expected
}

// CallRecorder's stubs, on hand-written spies.
enum HandWrittenStubs {
    protocol UserService {
        func fetch(id: Int) -> User?
    }

    static func stubReturning() {
        final class UserServiceSpy: UserService, Sendable {
            let calls = CallRecorder()
            func fetch(id: Int) -> User? { calls.record(default: nil, arguments: id) }
        }

        let users = UserServiceSpy()
        users.calls.stub("fetch(id:)", returning: User(id: 1, name: "Ada"))
    }

    static func stubUsing(users: UserServiceSpy) {
        users.calls.stub("fetch(id:)") { call in
            call.arguments == [1] ? User(id: 1, name: "Ada") : nil
        }
    }

    final class UserServiceSpy: UserService, Sendable {
        let calls = CallRecorder()
        func fetch(id: Int) -> User? { calls.record(default: nil, arguments: id) }
        func count() -> Int { calls.record(default: 0) }
    }

    /// The example's `spy` is one of this class, which the function cannot name: one with a recorder stands in.
    static func stubThrowing(spy: HandWrittenFeedbackSDKSpy) {
        final class FeedbackServiceSpy: FeedbackService, Sendable {
            let calls = CallRecorder()
            func load(_ id: String) throws -> Form { try calls.recordThrowing(default: .empty, arguments: id) }
        }

        spy.calls.stub("load(_:)", throwing: MultipleFormLoadError())
    }

    final class CompletionFormSpy: @unchecked Sendable {
        let calls = CallRecorder()
        var completion: ((Result<Form, any Error>) -> Void)?

        func load(_ id: String, completion: @escaping (Result<Form, any Error>) -> Void) throws {
            try calls.recordThrowing(arguments: id)
            self.completion = completion
        }
    }
}

// CallRecorder.
final class HippoAnalyticsClientSpy: HippoAnalyticsClientInterface, Sendable {
    let calls = CallRecorder()

    func logEvent(named name: String, properties: [String: Any]?) {
        calls.record(arguments: name, properties)
    }
}

@Test func logsEventsWithTheirProperties() {
    let hippo = HippoAnalyticsClientSpy()
    EventLogger(hippoAnalyticsClient: hippo).log(name: "test", properties: ["key": "value"])

    hippo.calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "value"])
    hippo.calls.expectNothingElse()
}

@Test func notExhaustive() {
    let sdk = GoogleSDKSpy()
    sdk.calls.isExhaustive = false
}

@Test func argumentsOfAllCalls() {
    let hippo = HippoAnalyticsClientSpy()
    hippo.logEvent(named: "menu_item_detail_visited", properties: nil)
    hippo.logEvent(named: "menu_item_ordered", properties: nil)
    let names = hippo.calls.all(to: "logEvent(named:properties:)").map { $0.arguments[0] }
    #expect(names == ["menu_item_detail_visited", "menu_item_ordered"])
}

// CollectorReader.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func collectorReaderWaiting(app: App, events: CollectorReader) async {
    app.buttons["Log in"].tap()
    await events.waitForEvent(.named("login_tapped"))
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func collectorReaderWaitingForCount(events: CollectorReader) async {
    await events.waitForCount(3, of: .kind(.track), timeout: .seconds(10))
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func collectorReaderOverview(app: App) async {
    let events = CollectorReader(url: URL(string: "http://127.0.0.1:8787")!)
    app.launchEnvironment[CollectorProtocol.collectorVariable] = events.url.absoluteString  // TALLY_COLLECTOR
    app.launchEnvironment[CollectorProtocol.sessionVariable] = events.session  // TALLY_SESSION
    app.launch()
    app.buttons["Log in"].tap()
    await events.waitForEvent(.named("login_tapped"))
    events.expectTracked(.named("login_tapped", containing: ["action": "tap"]))
    events.expectNothingElse()
}

// DestinationConformance.
@Test func myDestinationConforms() async {
    let backend = FakeBackend()
    await DestinationConformance(
        makeDestination: { MyBackendDestination(client: backend) },
        receivedCount: { _ in backend.receivedEvents.count },
        reset: { _ in backend.clear() }
    ).run()
}

// withExhaustiveCheck.
final class LoginViewModelTests: XCTestCase {
    override func invokeTest() {
        withExhaustiveCheck { super.invokeTest() }
    }

    func testLoginTracksTheTap() {
        let spy = AnalyticsSpy()
        LoginViewModel(analytics: spy).login()
        spy.expectTracked(.loginTapped)  // a second login_tapped would fail the test
    }
}

final class LoginReachesTheDestinationTests: XCTestCase {
    func testLoginReachesTheDestination() async {
        await withExhaustiveCheck {
            let memory = InMemoryDestination()
            let analytics = AnalyticsClient(destinations: [memory])
            LoginViewModel(analytics: analytics).login()
            await analytics.flush()
            memory.expectTracked(.loginTapped)
        }
    }
}

@Test(.exhaustive) func theConsoleShowsEachEvent() async {
    let memory = InMemoryDestination()
    memory.isExhaustive = false
    // ...
}

// ExhaustiveTrait, in a namespace: its suite has the name of the XCTest case above.
enum SwiftTestingForm {
    @Suite(.exhaustive)
    struct LoginViewModelTests {
        @Test func loginTracksTheTap() {
            let spy = AnalyticsSpy()
            LoginViewModel(analytics: spy).login()
            spy.expectTracked(.loginTapped)
            // No expectNothingElse(): a second login_tapped, or any other event, fails the test here,
            // at the line that created the spy.
        }

        @Test(.exhaustive(false)) func aSmokeTestThatChecksOneEventOfMany() { /* ... */  }
    }
}

@Suite(.exhaustive) struct CheckoutTests { /* ... */  }

@Test(.exhaustive(false)) func aSmokeTest() { /* ... */  }

// expectDelivered(_:to:source:).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func expectDeliveredExample(collectorURL: URL, recordings: URL) async throws {
    let events = CollectorReader(url: collectorURL)
    // … the UI test drives the app, whose SDK posts to the collector with `tally_session` = events.session …
    let tracked = try RecordingFile(folder: recordings).records.map(\.envelope)
    try await expectDelivered(tracked, to: events, source: "posthog")
}

// EventMatcher.
func matchers(spy: AnalyticsSpy) {
    spy.expectTracked(.named("menu_item_ordered"))
    spy.expectTracked(.named("menu_item_ordered", containing: ["item_name": "Pizza"]))
    spy.expectCount(2, of: .kind(.screen))
    spy.expectTracked(.where("a large order") { ($0.properties["quantity"]?.intValue ?? 0) > 10 })
}

func purposeMatcher(analytics: AnalyticsClient, memory: InMemoryDestination) async {
    analytics.track(Event("ad_clicked").needing(.advertising))
    await analytics.flush()
    memory.expectNotTracked(.purpose(.advertising))  // the user has not answered yet
}

func sentWithoutConsentMatcher(memory: InMemoryDestination) {
    memory.expectNotTracked(.sentWithoutConsent)
}

// EventRecorder's expectations.
func expectTrackedExample(model: MenuItemDetailModel, spy: AnalyticsSpy) {
    model.onAppear()
    spy.expectTracked(.menuItemDetailVisited(itemName: "Pizza"))
}

func expectTrackedMatcherExample(spy: AnalyticsSpy) {
    spy.expectTracked(.named("menu_item_ordered", containing: ["item_name": "Pizza"]))
}

func expectNotTrackedExample(model: MenuItemDetailModel, spy: AnalyticsSpy) {
    model.removeFromOrder()
    spy.expectNotTracked(.named("menu_item_ordered"))
}

func expectEventsExample(spy: AnalyticsSpy) {
    spy.expectEvents([.screen("Login"), Event("login_tapped", ["action": "tap"])])
}

func expectCountExample(recording: RecordingReader) {
    recording.expectCount(3)  // verify(count: 3)
    recording.expectCount(1, of: .kind(.screen))  // verify(type:)
    recording.expectCount(1, of: .named("Login"))  // verify(id:)
    recording.expectCount(2, of: .containing(["action": "tap"]))  // verify(data:)
    recording.expectCount(1, of: .named("login", containing: ["action": "tap"]))  // verify(idAndData:)
}

func expectAllExample(spy: AnalyticsSpy) {
    spy.expectAll(.where("snake_case names") { $0.name.allSatisfy { $0.isLowercase || $0 == "_" } })
}

@Test func expectNothingElseExample() {
    let spy = AnalyticsSpy()
    let model = MenuItemDetailModel(item: .pizza, analytics: spy)
    model.onAppear()
    spy.expectTracked(.menuItemDetailVisited(itemName: "Pizza"))
    spy.expectNothingElse()  // fails if onAppear also tracked something else, or twice
}

// EventRecorder's scoped expectations.
func eventsDuringExample(spy: AnalyticsSpy, model: LoginViewModel) {
    let events = spy.events(during: { model.login() })
    _ = events
}

func expectWhenExample(spy: AnalyticsSpy, model: LoginViewModel) {
    spy.expect(when: { model.login() }) { spy in
        spy.expectTracked(Event("login_tapped", ["action": "tap"]))
        spy.expectNothingElse()
    }
}

func expectNotTrackedWhenExample(spy: AnalyticsSpy, model: MenuItemDetailModel) {
    spy.expectNotTracked(.named("menu_item_ordered"), when: { model.removeFromOrder() })
}

/// EventRecorder.expectTracked(_:when:), async: the example's model is a @MainActor class.
enum MainActorLogin {
    @MainActor
    final class LoginViewModel {
        let analytics: any AnalyticsTracking
        init(analytics: any AnalyticsTracking) { self.analytics = analytics }
        func login() { analytics.track(.loginTapped) }
    }

    struct Tests {
        @Test func loginTracksTheTap() async {
            let spy = AnalyticsSpy()
            let model = await LoginViewModel(analytics: spy)  // a @MainActor class
            await spy.expectTracked(.loginTapped, when: { await model.login() })
        }
    }
}

// EventRecorder.expectValid(against:).
func expectValidExample(planURL: URL, model: CheckoutModel, spy: AnalyticsSpy) throws {
    let plan = try TrackingPlan(contentsOf: planURL)
    model.checkout()
    spy.expectValid(against: plan)
}

// EventRecorder's waiting.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func waitForEventExample(analytics: AnalyticsClient, memory: InMemoryDestination) async {
    analytics.track("checkout_started")  // delivered on another thread
    await memory.waitForEvent(.named("checkout_started"))
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func waitForCountExample(recording: RecordingReader) async {
    await recording.waitForCount(3, timeout: .seconds(10))  // the app has tracked 3 events
}

// InMemoryDestination.
@Test func inMemoryDestination() async {
    let memory = InMemoryDestination()
    let analytics = AnalyticsClient(destinations: [memory])
    analytics.track("menu_item_ordered", ["item_name": "Pizza"])
    await analytics.flush()
    #expect(memory.events == [Event("menu_item_ordered", ["item_name": "Pizza"])])
}

// ManualClock.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@Test func bridgeTimesOut() async throws {
    let bridge = SDKBridge<Void>()
    let clock = ManualClock()
    let call = Task { try await bridge.call(timeout: .seconds(5), clock: clock) { _ in } }
    try await clock.waitForSleepers(count: 1)  // the bridge's timer is now asleep
    clock.advance(by: .seconds(5))
    await #expect(throws: BridgeError.timedOut(after: 5)) { try await call.value }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func waitForSleeperExample(clock: ManualClock) async throws {
    let start = clock.now
    let retry = try await clock.waitForSleeper { start.duration(to: $0) >= .seconds(1) }
    clock.advance(to: retry)
}

// RecordingReader.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func recordingReaderExample(folder: URL) async throws {
    let file = folder.appendingPathComponent("app.jsonl")
    let app = try launchApp(environment: ["TALLY_RECORD": file.path])
    let recording = RecordingReader(url: file)
    try app.send("tap login")
    await recording.waitForCount(2)
    recording.expectCount(1, of: .named("login_tapped", containing: ["action": "tap"]))
}
