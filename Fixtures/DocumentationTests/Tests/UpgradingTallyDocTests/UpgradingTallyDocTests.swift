import Foundation
import PlannedApp
import Tally
import TallyDelivery
import TallyPlan
import TallyTesting
import Testing

// "Upgrading Tally": the code after each change, as written. What a step leaves implicit (an `event`, a
// `spy`, a `plan`, a recording `file`) is a parameter here, or in Support.swift.

// Client API.
func theClientIsAnalyticsClient() {
    let analytics = AnalyticsClient(
        destinations: [ConsoleDestination()], configuration: AnalyticsClient.Configuration())
    _ = analytics
}

func countersAreStatistics(analytics: AnalyticsClient) {
    let statistics: Statistics = analytics.statistics
    print(statistics.tracked, statistics.delivered)
}

struct PrintDestination: Destination {
    func receive(_ envelope: Envelope, context: DestinationContext) throws {
        print(envelope.event)
    }
}

struct Uppercase: Processor {
    func process(_ envelope: inout Envelope, context: ProcessingContext) -> ProcessingDecision {
        envelope.event.name = envelope.event.name.uppercased()
        return .keep  // .drop where the old one returned nil
    }
}

func nameLimitsAreInBytes() {
    var configuration = AnalyticsClient.Configuration()
    configuration.inputLimits.maximumNameBytes = 64
    _ = configuration
}

func propertiesAreLayered(event: Event) {
    let properties: [String: PropertyValue] = event.properties.dictionary
    _ = properties
}

func idsAreFields(event: Event) {
    if event.kind == .identify { print("user", event.userId ?? "") }
}

func httpDestinationIsSegmentAPIDestination(url: URL, key: String, file: URL) {
    let delivery = SegmentAPIDestination(configuration: .init(endpoint: url, writeKey: key, database: file))
    print(TallyLibrary.version)
    _ = delivery
}

// GoogleAnalyticsDestination, written in the app.
protocol GoogleAnalyticsAdapter {
    func trackEvent(with name: String, properties: [String: Any])
}
extension GoogleSDK: GoogleAnalyticsAdapter {}

struct GoogleAnalyticsDestination: Destination {
    let name = "google"
    private let sdk: VendorClient<any GoogleAnalyticsAdapter>

    init(adapter: any GoogleAnalyticsAdapter) { sdk = VendorClient(adapter) }

    func receive(_ envelope: Envelope, context: DestinationContext) throws {
        let event = envelope.event
        switch event.kind {
        case .track:
            sdk.client.trackEvent(with: event.name, properties: event.properties.foundationValue)
        case .screen:
            var properties = event.properties
            properties["screen_name"] = .string(event.name)
            sdk.client.trackEvent(with: "screen_view", properties: properties.foundationValue)
        case .identify, .group, .alias:
            throw Problem(
                .vendorLimit, "The Google SDK has no call for \(event.kind.rawValue) events", outcome: .dropped)
        }
    }
}

@Test func theAppsGoogleDestinationMapsScreens() async {
    let google = GoogleSDK()
    let analytics = AnalyticsClient(destinations: [GoogleAnalyticsDestination(adapter: google)])
    analytics.screen("Login")
    await analytics.flush()
    #expect(google.names == ["screen_view"])
}

// Test kit.
func inMemoryDestinationIsInTallyTesting() {
    let memory = InMemoryDestination()
    _ = memory
}

func recordingIsRecordingReader(file: URL) {
    let recording = RecordingReader(url: file)
    func expectLogin(on recorder: some EventRecorder) { recorder.expectTracked(.named("login_tapped")) }
    expectLogin(on: recording)
}

func oneVerbValidate(spy: AnalyticsSpy, plan: TrackingPlan, event: Event) {
    spy.expectValid(against: plan)
    #expect(PlanValidator(plan: plan).isValid(event))
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func collectorReaderReadsAsynchronously(events: CollectorReader) async {
    await events.waitForEvent(.named("login_tapped"))
    events.expectTracked(.named("login_tapped"))
}

func anExpectationAccountsForOneEvent(spy: AnalyticsSpy) {
    spy.expectCount(1, of: .named("login_tapped"))
}

/// Needs a `tally collect` process, which this package does not build: compiled, not run.
@Suite(.disabled("needs the tally command line's collector")) struct CollectProcessTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func checkout() async throws {
        let collector = try await TallyCollectProcess.start()
        defer { collector.terminate() }  // after the check's last read
        await withExhaustiveCheck {
            let events = CollectorReader(url: collector.url)
            await events.waitForEvent(.named("Order Completed"))
            events.expectTracked(.named("Order Completed"))
        }
    }
}

func readingRecordingFiles(folder: URL, url: URL) throws {
    let records = try RecordingFile(folder: folder).records
    var events: [Event] = []
    _ = try RecordingFile.readEvents(at: url) { events += $0 }
    _ = records
}

// Plans.
func uncheckedKeywords(planURL: URL) throws {
    let plan = try TrackingPlan(contentsOf: planURL, allowingUncheckedKeywords: true)
    _ = plan
}

func generatedRules(destinations: [any Destination], sha256: @escaping @Sendable (String) -> String) {
    let analytics = AnalyticsClient(
        destinations: destinations, configuration: .init(rules: PlannedEvents.rules, hash: sha256))
    _ = analytics
}
