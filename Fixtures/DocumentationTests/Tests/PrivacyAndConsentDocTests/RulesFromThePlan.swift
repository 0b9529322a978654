// PrivacyAndConsent.md, "Rules from the tracking plan": a client configured by the rules `tally gen` wrote into
// PlannedApp, and what the article says it does with them, checked.

import Foundation
import PlannedApp
import Tally
import TallyPlan
import TallyTesting
import Testing

/// What the article leaves to the app: its hash function, CryptoKit's SHA-256 on Apple platforms. A stand-in
/// here (FNV-1a), since Linux has no CryptoKit.
@Sendable func sha256(_ text: String) -> String {
    String(text.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }, radix: 16)
}

/// The article's one line, where the app starts its client.
func startAnalyticsFromThePlan(firebase: any Destination, ads: any Destination) -> AnalyticsClient {
    let analytics = AnalyticsClient(
        destinations: [firebase, ads], configuration: .init(rules: PlannedEvents.rules, hash: sha256))
    return analytics
}

@Test(.exhaustive) func theClientFollowsThePlan() async {
    let firebase = InMemoryDestination(name: "firebase")
    let ads = InMemoryDestination(name: "ads")
    let analytics = AnalyticsClient(
        destinations: [firebase, ads], configuration: .init(rules: PlannedEvents.rules, hash: sha256))
    analytics.setConsent(.granted, for: .analytics)

    analytics.track(.signedUp(email: "ada@example.com"))  // granted: sent, the address hashed
    analytics.track(.adClicked(campaign: "spring"))  // waits for the tracking answer
    analytics.track(Event("payment_checked"))  // the plan says necessary: sent as necessary
    await analytics.flush()

    firebase.expectEvents([.signedUp(email: sha256("ada@example.com")), .paymentChecked()])
    ads.expectNoEvents()
}

// What the article says of the rules, checked.

/// PlannedApp's folder, where its plan and its generated file are.
let plannedApp = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/PlannedApp")

@Test func thePlannedAppsGeneratedFileIsWhatTallyGenWrites() throws {
    let loaded = PlanLoader.load(contentsOf: plannedApp.appendingPathComponent("tracking-plan.yaml"))
    let plan = try #require(loaded.plan)
    // tally lint passes: nothing from loading, nothing from the privacy checks.
    #expect(loaded.diagnostics == [])
    #expect(plan.privacyDiagnostics() == [])
    // tally gen --check passes, and the rules it wrote are the plan's (TrackingPlan.rules).
    let committed = try String(
        contentsOf: plannedApp.appendingPathComponent("Generated/TrackingPlan+Events.swift"), encoding: .utf8)
    #expect(committed == SwiftCodeGenerator().generate(plan, planFileName: "tracking-plan.yaml"))
    #expect(PlannedEvents.rules == plan.rules)
}

@Test func theRulesGateTheirPurposesAndKeepEachDestinationToItsOwn() async {
    let firebase = InMemoryDestination(name: "firebase")
    let ads = InMemoryDestination(name: "ads")
    let analytics = startAnalyticsFromThePlan(firebase: firebase, ads: ads)
    analytics.track(.signedUp(email: "ada@example.com"))
    analytics.track(.adClicked(campaign: "spring", idfa: "6D92078A"))
    await analytics.flush()
    #expect(firebase.events.isEmpty && ads.events.isEmpty)
    #expect(analytics.statistics.heldForConsent == 2)

    analytics.setConsent(.granted, for: .analytics)
    analytics.setConsent(.granted, for: .advertising)
    await analytics.flush()
    #expect(firebase.events == [.signedUp(email: sha256("ada@example.com"))])
    #expect(ads.events == [.adClicked(campaign: "spring", idfa: "6D92078A")])
}

@Test func aPlannedEventGetsItsPlansPurposeAndAdvertisingIdsStayOnAdvertising() async {
    let firebase = InMemoryDestination(name: "firebase")
    let ads = InMemoryDestination(name: "ads")
    let analytics = startAnalyticsFromThePlan(firebase: firebase, ads: ads)
    analytics.setConsent(.granted, for: .analytics)
    analytics.setConsent(.granted, for: .advertising)

    analytics.track(Event("signed_up", ["email": "ada@example.com"]).needing(.advertising))
    analytics.track(Event("app_opened", ["idfa": "6D92078A"]))
    await analytics.flush()

    #expect(firebase.events == [.signedUp(email: sha256("ada@example.com")), Event("app_opened")])
    #expect(ads.events.isEmpty)
    #expect(analytics.statistics.recentProblems.map(\.code) == [.purposeNotPlanned, .advertisingIdentifierRemoved])
}

@Test func withoutAHashFunctionAValueToHashIsRedacted() async {
    let firebase = InMemoryDestination(name: "firebase")
    let analytics = AnalyticsClient(
        destinations: [firebase], configuration: .init(rules: PlannedEvents.rules))
    analytics.setConsent(.granted, for: .analytics)
    analytics.track(.signedUp(email: "ada@example.com"))
    await analytics.flush()
    #expect(firebase.events == [.signedUp(email: "[redacted]")])
    #expect(analytics.statistics.recentProblems.map(\.code) == [.personalDataNotHashed])
}
