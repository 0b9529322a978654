@preconcurrency import FirebaseAnalytics
import Foundation
@preconcurrency import Mixpanel
@preconcurrency import Segment
import Tally
import TallyTesting
import Testing
@preconcurrency import ThirdPartySDK
import UIKitStandIn

// The examples of Tally's doc comments, as written (.ci/check-doc-code). What an example leaves implicit (an
// `analytics` client, a `bridge`, an `sdk`, a vendor's instance, a `key`) is a parameter here, or in
// Support.swift. The vendor SDKs are VendorSDKs' stand-ins. The adapters' second examples, which declare the
// same conformances, are in DocCommentExamplesTallyAdaptersTests.

// BridgeBusyPolicy.
func busyPolicies() {
    let forms = SDKBridge<FeedbackForm>()  // .reject
    let tokens = SDKBridge<String>(whenBusy: .queue)  // callers take turns
    _ = (forms, tokens)
}

// BridgeError.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@MainActor
func bridgeErrors(bridge: SDKBridge<UIViewController>, id: String) async throws {
    do {
        let form = try await bridge.call(timeout: .seconds(10)) { completion in
            ThirdParty.delegate = FormDelegate(completion)
            ThirdParty.loadFeedbackForm(id)
        } cleanup: {
            ThirdParty.delegate = nil
        }
        present(form)
    } catch BridgeError.busy {
        // A form is already loading: ignore the second tap.
    } catch BridgeError.timedOut {
        showRetry()
    }
}

// SDKBridge.Completion.
@MainActor
func completions(bridge: SDKBridge<UIViewController>, sdk: ResultFormSDK, id: String) async throws {
    let form = try await bridge.call { completion in
        ThirdParty.delegate = FormDelegate(completion)  // delegate SDKs: one delegate per call
        ThirdParty.loadFeedbackForm(id)
    } cleanup: {
        ThirdParty.delegate = nil
    }

    let loaded = try await bridge.call { completion in
        sdk.load(id, completion: { completion.resume(with: $0) })  // Result callbacks
    }
    _ = (form, loaded)
}

// SDKBridge.
final class FormDelegate: ThirdPartyDelegate {
    let completion: SDKBridge<UIViewController>.Completion
    init(_ completion: SDKBridge<UIViewController>.Completion) { self.completion = completion }

    func formDidload(_ viewController: UIViewController) { completion.succeed(viewController) }
    func formDidFailLoading(error: ThirdPartyError) { completion.fail(error) }
}

let forms = SDKBridge<UIViewController>()  // a second load throws BridgeError.busy

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // the timeout's Clock and Duration
@MainActor
func loadForm(_ id: String) async throws -> UIViewController {
    try await forms.call(timeout: .seconds(15)) { completion in
        ThirdParty.delegate = FormDelegate(completion)
        ThirdParty.loadFeedbackForm(id)
    } cleanup: {
        ThirdParty.delegate = nil
    }
}

// SDKBridge.call(_:), with a callback SDK.
func fetchTokenExample(bridge: SDKBridge<String>, sdk: TokenSDK) async throws {
    let token = try await bridge.call { completion in
        sdk.fetchToken { token, error in
            if let token { completion.succeed(token) } else { completion.fail(error ?? SDKFailure()) }
        }
    }
    _ = token
}

// SDKBridge.call(timeout:clock:_:cleanup:).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@Test func bridgeTimesOutOnAManualClock() async throws {
    let bridge = SDKBridge<Void>()
    let clock = ManualClock()  // from TallyTesting
    let task = Task { try await bridge.call(timeout: .seconds(5), clock: clock) { _ in } }
    try await clock.waitForSleepers(count: 1)
    clock.advance(by: .seconds(5))
    await #expect(throws: BridgeError.timedOut(after: 5)) { try await task.value }
}

// AnalyticsClient.Configuration.
func purposesByDestination() {
    var configuration = AnalyticsClient.Configuration()
    configuration.purposesByDestination = ["firebase": [.analytics], "appsflyer": [.advertising]]
}

// AnalyticsClient.Configuration.rules, and PlanRules.
func rulesExample(product: any Destination, ads: any Destination, sha256: @escaping @Sendable (String) -> String) {
    let analytics = AnalyticsClient(
        destinations: [product, ads], configuration: .init(rules: PlannedEvents.rules, hash: sha256))
    _ = analytics
}

func planRulesExample(product: any Destination, ads: any Destination, sha256: @escaping @Sendable (String) -> String) {
    let analytics = AnalyticsClient(
        destinations: [product, ads],
        configuration: .init(rules: PlannedEvents.rules, hash: sha256))
    _ = analytics
}

// AnalyticsClient.
@Test func clientOverview() async {
    let firebase = FirebaseSpy()
    let analytics = AnalyticsClient(
        processors: [.superProperties(["app_version": "2.3.0"]), .redact(keys: ["email"])],
        destinations: [FirebaseDestination(adapter: firebase), ConsoleDestination()]
    )
    analytics.track(.menuItemOrdered(itemName: "Pizza"))
    await analytics.flush()
    #expect(firebase.events == ["menu_item_ordered"])
}

func setConsentExample(analytics: AnalyticsClient, att: TrackingAuthorizationStatus) {
    analytics.setConsent(.granted, for: .analytics)
    analytics.setConsent(ConsentStatus(trackingAuthorizationStatus: att.rawValue), for: .advertising)
}

func flushExample(analytics: AnalyticsClient) async {
    analytics.track("checkout_completed")
    let result = await analytics.flush()
    if !result.isComplete { print(result) }  // "timed out; still held: vendor 120 events"
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func flushTimeoutExample(analytics: AnalyticsClient) async {
    let result = await analytics.flush(timeout: .seconds(2))
    _ = result
}

// FlushResult.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func shutdownExample(analytics: AnalyticsClient, logger: Logger) async {
    let result = await analytics.shutdown(timeout: .seconds(2))
    if !result.isComplete {
        logger.warning("analytics: \(result)")  // "timed out; still held: vendor 120 events"
    }
}

// ConsentPurpose.
func needingExample(analytics: AnalyticsClient) {
    analytics.track(Event("ad_clicked", ["campaign": "spring"]).needing(.advertising))
}

func attExample(analytics: AnalyticsClient) async {
    let answer = await ATTrackingManager.requestTrackingAuthorization()
    analytics.setConsent(ConsentStatus(trackingAuthorizationStatus: answer.rawValue), for: .advertising)
}

// DeliveredConsent.
func deliveredConsentExample(memory: InMemoryDestination) {
    let ungated = memory.envelopes.filter { $0.consent == .notRequired }
    _ = ungated
}

// Destination.
struct PrintDestination: Destination {
    var name: String { "print" }
    func receive(_ envelope: Envelope, context: DestinationContext) throws {
        print(envelope.event)
    }
}

func reportDroppedExample(context: DestinationContext) {
    context.reportDropped(
        3, reason: .queueFull,
        problem: Problem(.bufferFull, "The queue is full; its 3 oldest events were dropped", outcome: .dropped))
}

// FirebaseAnalyticsAdapter.
final class FirebaseSpy: FirebaseAnalyticsAdapter {
    private(set) var events: [String] = []
    func logEvent(_ name: String, parameters: [String: Any]?) { events.append(name) }
    func setUserID(_ userID: String?) {}
    func setUserProperty(_ value: String?, forName name: String) {}
}
let destination = FirebaseDestination(adapter: FirebaseSpy())

// FirebaseDestination.
extension FirebaseAnalytics.Analytics: @retroactive FirebaseAnalyticsStaticAPI {}

func firebaseStaticExample() {
    let analytics = AnalyticsClient(destinations: [FirebaseDestination(sdk: FirebaseAnalytics.Analytics.self)])
    analytics.track("menu item-ordered", ["item_name": "Pizza"])
    // Analytics.logEvent("menu_item_ordered", parameters: ["item_name": "Pizza"]), and one problem
}

func firebaseResetExample(analytics: AnalyticsClient) async {
    analytics.reset()
    await analytics.flush()
    FirebaseAnalytics.Analytics.resetAnalyticsData()
}

// FirebaseLimits.
func firebaseLimitsExample() {
    let destination = FirebaseDestination(
        sdk: FirebaseAnalytics.Analytics.self, limits: FirebaseLimits(maximumParameterValueLength: 500))
    _ = destination
}

// MixpanelDestination and MixpanelLimits.
func mixpanelExample() {
    let analytics = AnalyticsClient(destinations: [MixpanelDestination(adapter: Mixpanel.mainInstance())])
    analytics.track("menu_item_ordered", ["item_name": "Pizza"])
    // mixpanel.track(event: "menu_item_ordered", properties: ["item_name": "Pizza"])
}

func mixpanelLimitsExample() {
    let destination = MixpanelDestination(
        adapter: Mixpanel.mainInstance(), limits: MixpanelLimits(maximumPropertyCount: 100))
    _ = destination
}

// SegmentAdapter.
extension Segment.Analytics: @retroactive SegmentAdapter {}

let segment = Tally.SegmentDestination(adapter: Segment.Analytics(configuration: Configuration(writeKey: key)))

// SegmentDestination.
func segmentDestinationExample(segment: Segment.Analytics) {
    let analytics = AnalyticsClient(destinations: [SegmentDestination(adapter: segment)])
    analytics.track("menu_item_ordered", ["item_name": "Pizza"])
    // segment.track(name: "menu_item_ordered", properties: ["item_name": "Pizza"])
}

// SegmentErrorReporter.
func segmentErrorsExample(key: String) {
    let errors = SegmentErrorReporter()
    let segment = Analytics(
        configuration: Configuration(writeKey: key)
            .errorHandler { @Sendable error in errors.report(error) })
    let destination = Tally.SegmentDestination(adapter: segment, errors: errors)
    _ = destination
}

// SegmentLimits.
func segmentLimitsExample(segment: Segment.Analytics) {
    let destination = SegmentDestination(adapter: segment, limits: SegmentLimits(sdkOverheadBytes: 4_096))
    _ = destination
}

// BigNumber.
@Test func bigNumbers() throws {
    let value = try PropertyValue(json: "18446744073709551617")
    // .bigNumber(18446744073709551617)
    print(value.jsonString)  // 18446744073709551617
}

@Test func bigNumberInitializer() {
    let past64 = BigNumber("18446744073709551617")  // an integer past UInt64
    let huge = BigNumber("1e400")  // beyond the largest double
    let small = BigNumber("12")  // nil: use .int(12)
    let fraction = BigNumber("0.1")  // nil: use .double(0.1)
    #expect(past64 != nil && huge != nil && small == nil && fraction == nil)
}

// Event.Properties.
@Test func eventProperties() {
    var event = Event("menu_item_ordered", ["item_name": "Pizza"])
    event.properties["quantity"] = 2
    let name = event.properties["item_name"]  // .string("Pizza")
    let merged = event.properties == ["item_name": "Pizza", "quantity": 2]  // true
    for (key, value) in event.properties { print(key, value) }
    #expect(name == "Pizza" && merged)
}

// Event.
extension Event {
    static func menuItemOrdered(itemName: String) -> Event {
        Event("menu_item_ordered", ["item_name": .string(itemName)])
    }
}

func eventFactoryExample(analytics: AnalyticsClient) {
    analytics.track(.menuItemOrdered(itemName: "Pizza"))
}

func eventInitExample() {
    let event = Event("menu_item_ordered", ["item_name": "Pizza"])
    _ = event
}

func reportNameExample(envelope: Envelope, context: DestinationContext) {
    context.report(
        Problem(.vendorLimit, "Too many traits", outcome: .sanitized, eventName: envelope.event.reportName))
}

// PropertyValue's Codable conformance.
@Test func decodingAValue() throws {
    let value = try JSONDecoder().decode(PropertyValue.self, from: Data(#"{"tags":["a","b"]}"#.utf8))
    _ = value
}

@Test func encodingAValue() throws {
    let data = try JSONEncoder().encode(PropertyValue.array(["a", 1]))  // ["a",1]
    #expect(String(decoding: data, as: UTF8.self) == #"["a",1]"#)
}

// PropertyValue(any:) and PropertyValue(json:).
@Test func valuesFromFoundationAndJSON() throws {
    let value = PropertyValue(any: ["item_name": "Pizza", "price": 9.5] as [String: Any])
    // .object(["item_name": "Pizza", "price": 9.5])
    #expect(value == .object(["item_name": "Pizza", "price": 9.5]))
}

@Test func valueFromJSON() throws {
    let value = try PropertyValue(json: #"{"item_name":"Pizza","price":9.5,"quantity":2}"#)
    // .object(["item_name": "Pizza", "price": 9.5, "quantity": 2])
    #expect(value == .object(["item_name": "Pizza", "price": 9.5, "quantity": 2]))
}

// PropertyValue.
func literals() {
    let properties: [String: PropertyValue] = [
        "item_name": "Pizza",
        "price": 9.5,
        "quantity": 2,
        "toppings": ["basil", "mozzarella"],
    ]
    _ = properties
}

// PersonalDataProcessor.
func personalDataExample(destinations: [any Destination]) {
    let personal = PersonalDataProcessor(
        [
            PersonalProperty(event: "signed_up", key: "email", kind: .email, rule: .hash),
            PersonalProperty(key: "search_text", kind: .freeText, rule: .neverSend),
        ],
        hash: { value in SHA256.hash(data: Data(value.utf8)).map { String(format: "%02x", $0) }.joined() })
    let analytics = AnalyticsClient(processors: [personal], destinations: destinations)
    _ = analytics
}

// The processors.
func contextExample(destinations: [any Destination]) {
    let analytics = AnalyticsClient(processors: [.context(["app_version": "2.3.0"])], destinations: destinations)
    _ = analytics
}

func filterExamples() {
    let processors: [any Processor] = [
        .filter(kinds: [.track, .screen]),  // no identify, group or alias
        .filter(excludingNames: ["debug_ping"]),  // everything but these
        .filter(named: "no_test_users") { $0.userId?.hasPrefix("test-") != true },
    ]
    _ = processors
}

struct Uppercase: Processor {
    func process(_ envelope: inout Envelope, context: ProcessingContext) -> ProcessingDecision {
        envelope.event.name = envelope.event.name.uppercased()
        return .keep
    }
}

func processExample(envelope: Envelope) {
    let output = SuperPropertiesProcessor(["app": "menu"]).process(envelope)
    #expect(output?.event.properties["app"] == "menu")
}

func redactExamples() throws {
    let processors: [any Processor] = try [
        .redact(keys: ["email", "phone"]),
        .redact(pattern: #"[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}"#),  // e-mail addresses anywhere
    ]
    _ = processors
}

func routeExamples() {
    let processors: [any Processor] = [
        .route(names: ["purchase_completed"], to: ["firebase"]),  // purchases go to Firebase only
        .route(kinds: [.identify], to: ["mixpanel", "segment"]),
    ]
    _ = processors
}

func sampleExamples() {
    let processors: [any Processor] = [
        .sample(rate: 0.1, seed: 42),  // one user in ten
        .sample(rate: 0.5, seed: 7, by: .event),  // every other event, roughly
    ]
    _ = processors
}

func superPropertiesExample(destinations: [any Destination]) {
    let analytics = AnalyticsClient(
        processors: [.superProperties(["app_version": "2.3.0", "plan": "pro"])], destinations: destinations)
    _ = analytics
}

// CollectorProtocol.
func collectorProtocolExample(app: App, events: CollectorReader) {
    app.launchEnvironment[CollectorProtocol.collectorVariable] = events.url.absoluteString
    app.launchEnvironment[CollectorProtocol.sessionVariable] = events.session
}

// CollectorRecordingSink.
func collectorSinkExample() {
    let sink = CollectorRecordingSink(url: URL(string: "http://127.0.0.1:8787")!, session: "checkout-test")
    let analytics = AnalyticsClient(destinations: [RecordingDestination(sink: sink)])
    _ = analytics
}

func collectorDestinationExample(url: URL) {
    let analytics = AnalyticsClient(destinations: [.console, RecordingDestination.collector(url)])
    _ = analytics
}

// DeliveryComparison.
func deliveryComparisonExample(recordings: URL, arrivals: [DeliveryComparison.Arrival]) throws {
    let tracked = try RecordingFile(folder: recordings).records.map(\.envelope)
    let comparison = DeliveryComparison(tracked: tracked, arrived: arrivals)
    #expect(comparison.isComplete, "\(comparison)")
}

// RecordingDestination.
func recordingDestinationExample() throws {
    var destinations: [any Destination] = [FirebaseDestination(sdk: FirebaseAnalytics.Analytics.self)]
    if let recording = try RecordingDestination.fromEnvironment() { destinations.append(recording) }
    let analytics = AnalyticsClient(destinations: destinations)
    _ = analytics
}

// RecordingFile.
func readEventsExample(url: URL) throws {
    var names: [String: Int] = [:]
    let summary = try RecordingFile.readEvents(at: url) { events in
        for event in events { names[event.name, default: 0] += 1 }
    }
    if let line = summary.unfinishedLine { print("line \(line) is cut off") }
}

func recordingFileExample(url: URL) throws {
    let file = try RecordingFile(contentsOf: url)
    for problem in file.problems { print(problem) }  // app.jsonl:12: Not valid JSON: …
    let names = file.records.map(\.event.name)
    _ = names
}

func recordingFileBytesExample(app: App) {
    let file = RecordingFile(bytes: Array(app.debugView.value.utf8))
    _ = file
}

func recordingFileOutputExample(standardError: Data) {
    let file = RecordingFile(output: String(decoding: standardError, as: UTF8.self))
    _ = file
}

// CallbackRecordingSink.
@MainActor
func callbackSinkExample(debugView: DebugView) {
    let sink = CallbackRecordingSink { log in
        DispatchQueue.main.async { debugView.accessibilityValue = log }
    }
    _ = sink
}
