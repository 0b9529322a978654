// PrivacyAndConsent.md's code, in the order the article shows it.

import Foundation
import Tally
import TallyTesting
import Testing

/// The article's first block, at the start of the app.
func startAnalytics(firebase: any Destination, ads: any Destination) -> AnalyticsClient {
    var configuration = AnalyticsClient.Configuration()
    configuration.consentRequired = [.analytics, .advertising]
    configuration.purposesByDestination = ["firebase": [.analytics, .necessary], "ads": [.advertising]]
    let analytics = AnalyticsClient(destinations: [firebase, ads], configuration: configuration)

    analytics.track("app_opened")  // waits: analytics not answered
    analytics.track(Event("ad_clicked").needing(.advertising))  // waits: advertising not answered
    analytics.track(Event("payment_checked").needing(.necessary))  // flows: nothing to ask
    return analytics
}

/// The user's answers.
func userAnswered(_ analytics: AnalyticsClient) {
    analytics.setConsent(.granted, for: .analytics)  // the waiting analytics events go, in order
    analytics.setConsent(.denied, for: .advertising)  // the waiting advertising events are dropped
}

final class DefaultsConsentStore: ConsentStore {
    private let key = "analytics.consent"

    func load() -> [ConsentPurpose: ConsentStatus] {
        let saved = UserDefaults.standard.dictionary(forKey: key) as? [String: String] ?? [:]
        var answers: [ConsentPurpose: ConsentStatus] = [:]
        for (purpose, status) in saved {
            answers[ConsentPurpose(purpose)] = ConsentStatus(rawValue: status)
        }
        return answers
    }

    func save(_ answers: [ConsentPurpose: ConsentStatus]) {
        let saved = Dictionary(uniqueKeysWithValues: answers.map { ($0.key.rawValue, $0.value.rawValue) })
        UserDefaults.standard.set(saved, forKey: key)
    }
}

struct ConsentScreen {
    let analytics: AnalyticsClient

    func trackingAnswered(_ authorizationStatus: UInt) {
        analytics.setConsent(ConsentStatus(trackingAuthorizationStatus: authorizationStatus), for: .advertising)
    }
}

@Test func nothingReachesAnalyticsBeforeTheUserAgrees() async {
    let memory = InMemoryDestination()
    var configuration = AnalyticsClient.Configuration()
    configuration.consentRequired = [.analytics]
    let analytics = AnalyticsClient(destinations: [memory], configuration: configuration)

    analytics.track("app_opened")
    await analytics.flush()
    #expect(memory.events.isEmpty)
    #expect(analytics.statistics.heldForConsent == 1)

    analytics.setConsent(.granted, for: .analytics)
    await analytics.flush()
    #expect(memory.events.map(\.name) == ["app_opened"])
}

// What the article says of its first blocks, checked.
@Test func theArticlesSetupSendsEachPurposeWhereItMayGo() async {
    let firebase = InMemoryDestination(name: "firebase")
    let ads = InMemoryDestination(name: "ads")
    let analytics = startAnalytics(firebase: firebase, ads: ads)
    userAnswered(analytics)
    await analytics.flush()
    #expect(firebase.events.map(\.name) == ["payment_checked", "app_opened"])
    #expect(ads.events.isEmpty)
    let statistics = analytics.statistics
    #expect(statistics.dropped == [.consentDenied: 1])
    #expect(statistics.destinations["ads"]?.dropped == [.purposeNotAllowed: 2])
    #expect(statistics.accounted(at: "ads") == statistics.tracked)
}

@Test func theStoreKeepsAnswersInUserDefaults() {
    let store = DefaultsConsentStore()
    let previous = UserDefaults.standard.object(forKey: "analytics.consent")
    defer { UserDefaults.standard.set(previous, forKey: "analytics.consent") }
    store.save([.analytics: .granted, .advertising: .denied])
    #expect(store.load() == [.analytics: .granted, .advertising: .denied])
}

@Test func appTrackingTransparencysAnswerReachesTheAdvertisingPurpose() {
    let screen = ConsentScreen(analytics: AnalyticsClient(destinations: []))
    screen.trackingAnswered(3)
    #expect(screen.analytics.consent(for: .advertising) == .granted)
    screen.trackingAnswered(2)
    #expect(screen.analytics.consent(for: .advertising) == .denied)
}

/// "Signing out": where the app signs the user out.
struct AccountSession {
    let analytics: AnalyticsClient

    func userSignedOut() {
        analytics.setConsent(.notAsked, for: .analytics)  // the account's answer: the next user gives their own
        analytics.reset()  // a new anonymous id; what still waits is dropped
        // .advertising stays: App Tracking Transparency answers for the device
    }
}

@Test func signingOutClearsTheAccountsAnswerAndKeepsTheDevices() async {
    let memory = InMemoryDestination()
    var configuration = AnalyticsClient.Configuration()
    configuration.consentRequired = [.analytics, .advertising]
    let analytics = AnalyticsClient(destinations: [memory], configuration: configuration)
    analytics.setConsent(.granted, for: .analytics)
    analytics.setConsent(.granted, for: .advertising)

    AccountSession(analytics: analytics).userSignedOut()
    #expect(analytics.consent(for: .analytics) == .notAsked)
    #expect(analytics.consent(for: .advertising) == .granted)
    analytics.track("app_opened")  // the next user's: waits for their answer
    analytics.track(Event("ad_clicked").needing(.advertising))
    await analytics.flush()
    #expect(memory.events.map(\.name) == ["ad_clicked"])
    #expect(analytics.statistics.heldForConsent == 1)
}

// Why the answer is cleared before the reset: an event tracked between the two waits, and the reset drops it.
@Test func anEventBetweenClearingAndResetGoesWithTheUserItBelongsTo() async {
    let memory = InMemoryDestination()
    var configuration = AnalyticsClient.Configuration()
    configuration.consentRequired = [.analytics]
    let analytics = AnalyticsClient(destinations: [memory], configuration: configuration)
    analytics.setConsent(.granted, for: .analytics)
    analytics.setConsent(.notAsked, for: .analytics)
    analytics.track("tapped_while_signing_out")
    analytics.reset()
    await analytics.flush()
    #expect(memory.events.isEmpty)
    #expect(analytics.statistics.dropped == [.resetWhileHeld: 1])
}

/// The personal-data block, where the app starts its client.
func startAnalytics(firebase: any Destination, sha256: @escaping @Sendable (String) -> String) -> AnalyticsClient {
    let personal = PersonalDataProcessor(
        [
            PersonalProperty(event: "signed_up", key: "email", kind: .email, rule: .hash),
            PersonalProperty(key: "search_text", kind: .freeText, rule: .neverSend),
        ],
        hash: sha256
    )
    let analytics = AnalyticsClient(processors: [personal], destinations: [firebase])
    return analytics
}

/// What the test block leaves implicit: the app's processor.
let personal = PersonalDataProcessor([PersonalProperty(key: "search_text", kind: .freeText, rule: .neverSend)])

@Test func noPersonalDataLeavesTheApp() async {
    let memory = InMemoryDestination()
    let analytics = AnalyticsClient(processors: [personal], destinations: [memory])
    analytics.track(Event("feedback_sent", ["comment": "great app"]))
    await analytics.flush()
    memory.expectNotTracked(.holdingPersonalData())
    memory.expectNotTracked(.purpose(.advertising))
}

@Test func theArticlesProcessorHashesAndDrops() async {
    let firebase = InMemoryDestination(name: "firebase")
    let analytics = startAnalytics(firebase: firebase, sha256: { "sha256(\($0.count))" })
    analytics.track(Event("signed_up", ["email": "ada@example.com", "search_text": "pizza"]))
    await analytics.flush()
    #expect(firebase.events == [Event("signed_up", ["email": "sha256(15)"])])
}

/// The delivered-consent block (also in Testing your analytics): nothing of a gated purpose left without the
/// user's grant, the advertising event still waiting for its answer.
@Test func nothingLeavesWithoutTheUsersGrant() async {
    let memory = InMemoryDestination()
    var configuration = AnalyticsClient.Configuration()
    configuration.consentRequired = [.analytics, .advertising]
    let analytics = AnalyticsClient(destinations: [memory], configuration: configuration)
    analytics.setConsent(.granted, for: .analytics)
    analytics.track(Event("app_opened"))
    analytics.track(Event("ad_clicked").needing(.advertising))
    await analytics.flush()
    #expect(memory.envelopes.map(\.consent) == [.granted])
    memory.expectNotTracked(.sentWithoutConsent(for: [.analytics, .advertising]))
}
