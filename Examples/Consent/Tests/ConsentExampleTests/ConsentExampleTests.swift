import ConsentExample
import Foundation
import Tally
import TallyPlan
import TallyTesting
import Testing

/// The consent example's promises, tested through the app's real `AnalyticsClient` with an
/// `InMemoryDestination` in each vendor's place: nothing of a purpose reaches a vendor before the user
/// agrees to it, a refusal drops what waited (counted), personal properties follow the plan, each vendor
/// receives only its purposes, the advertising identifier waits for App Tracking Transparency, and sign-out
/// forgets the user. `ConsentRegressionTests` runs the same checks on the app with each regression planted,
/// where they must fail.
@Suite(.exhaustive)
struct ConsentExampleTests {
    let product = InMemoryDestination(name: ConsentApp.productVendor)
    let ads = InMemoryDestination(name: ConsentApp.adsVendor)
    /// The plan, read by the tests only: the app follows its compiled rules (`PlannedEvents.rules`).
    static let plan = try! TrackingPlan(contentsOf: ConsentApp.planURL)

    @Test func nothingOfAPurposeReachesAVendorBeforeConsent() async throws {
        let app = ConsentApp(product: product, ads: ads)
        app.open()
        app.adClicked(campaign: "spring")
        app.subscribe(email: ConsentApp.exampleEmail)
        app.trackingAnswered(0)  // not determined: advertising still waits
        await app.flush()

        product.expectNotTracked(.purpose(.analytics))
        ads.expectNotTracked(.purpose(.advertising))
        #expect(app.analytics.statistics.heldForConsent == 3)

        app.trackingAnswered(3)  // authorized
        app.consentDialogAnswered(analytics: true)
        await app.flush()

        #expect(app.analytics.statistics.heldForConsent == 0)
        // Every event of a purpose the plan gates went out with the user's grant, never ungated.
        product.expectNotTracked(.sentWithoutConsent(for: Self.plan.consentRequired))
        ads.expectNotTracked(.sentWithoutConsent(for: Self.plan.consentRequired))
        ads.expectEvents([.springAdClicked])
        product.expectEvents([
            .consentPromptShown(), .trackingAnswered(status: .notAsked), .trackingAnswered(status: .granted),
            .consentAnswered(analytics: true),
            .appOpened(), .subscribed,
        ])
    }

    @Test func whatWaitedIsDroppedAndCountedWhenTheUserSaysNo() async throws {
        let app = ConsentApp(product: product, ads: ads)
        app.open()
        app.adClicked(campaign: "spring")
        app.subscribe(email: ConsentApp.exampleEmail)
        app.trackingAnswered(2)  // denied
        app.consentDialogAnswered(analytics: false)
        app.sendFeedback("meh", rating: 2)  // tracked while denied
        await app.flush()

        let statistics = app.analytics.statistics
        #expect(statistics.dropped[.consentDenied] == 4)
        #expect(statistics.heldForConsent == 0)
        #expect(statistics.accounted(at: ConsentApp.productVendor) == statistics.tracked)
        #expect(statistics.accounted(at: ConsentApp.adsVendor) == statistics.tracked)
        ads.expectNoEvents()
        product.expectEvents([
            .consentPromptShown(), .trackingAnswered(status: .denied), .consentAnswered(analytics: false),
        ])
    }

    @Test func personalPropertiesFollowThePlan() async throws {
        let app = ConsentApp(product: product, ads: ads)
        app.consentDialogAnswered(analytics: true)
        app.subscribe(email: ConsentApp.exampleEmail)
        app.sendFeedback(ConsentApp.exampleFeedback, rating: 5)
        await app.flush()

        product.expectNotTracked(.holdingPersonalData())
        product.expectValid(against: PlanValidator(plan: Self.plan))
        product.expectEvents([.consentAnswered(analytics: true), .subscribed, .feedbackRedacted])
    }

    @Test func theAdsVendorNeverReceivesAnalytics() async throws {
        let app = ConsentApp(product: product, ads: ads)
        await app.runScriptedSession()

        ads.expectNotTracked(.purpose(.analytics))
        product.expectNotTracked(.purpose(.advertising))
        let statistics = app.analytics.statistics
        #expect(statistics.destinations[ConsentApp.adsVendor]?.dropped[.purposeNotAllowed] == 7)
        #expect(statistics.destinations[ConsentApp.productVendor]?.dropped[.purposeNotAllowed] == 1)
        ads.expectEvents([.springAdClicked])
        product.expectEvents(Event.scriptedSessionAtProduct)
    }

    @Test func theSessionIsValidAgainstThePlan() async throws {
        let app = ConsentApp(product: product, ads: ads)
        await app.runScriptedSession()

        let plan = PlanValidator(plan: Self.plan)
        product.expectValid(against: plan)
        ads.expectValid(against: plan)
        // What `tally validate` checks on the recorded session: each gated purpose went out granted.
        product.expectNotTracked(.sentWithoutConsent(for: Self.plan.consentRequired))
        ads.expectNotTracked(.sentWithoutConsent(for: Self.plan.consentRequired))
        // The necessary events are not gated, and say so; the rest waited for the grant.
        #expect(
            product.envelopes.map(\.consent)
                == [.notRequired, .notRequired, .notRequired, .granted, .granted, .granted, .granted])
        product.expectEvents(Event.scriptedSessionAtProduct)
        ads.expectEvents([.springAdClicked])
    }

    /// What `tally lint Examples/Consent/tracking-plan.yaml` checks, through TallyPlan's API: the file's own
    /// rules, and its privacy marks (an expired event, a personal property with no rule, a purpose no vendor
    /// may receive, an advertising identifier off advertising events, consent-free data to the ad network).
    @Test func thePlanLintsClean() throws {
        #expect(Self.plan.consentRequired == [.analytics, .advertising])
        #expect(Self.plan.privacyDiagnostics().map(\.description) == [])
        let loaded = PlanLoader.load(contentsOf: ConsentApp.planURL)
        #expect(loaded.diagnostics.map(\.description) == [])
    }

    /// The rules the app runs on are the plan's, value for value (`tally gen --check` in CI also fails when
    /// the generated file is stale).
    @Test func theAppRunsOnThePlansRules() {
        #expect(PlannedEvents.rules == Self.plan.rules)
    }

    /// `Examples/Consent/PrivacyInfo.xcprivacy` declares every data type, purpose, linkage and tracking
    /// flag the plan implies (`PrivacyManifest(plan:)`, what `tally privacy-manifest` prints).
    @Test func thePrivacyManifestCoversThePlan() throws {
        let manifest = PrivacyManifest(plan: Self.plan)
        let file = ConsentApp.planURL.deletingLastPathComponent().appendingPathComponent("PrivacyInfo.xcprivacy")
        #expect(try manifest.gaps(in: Data(contentsOf: file)) == [])
        #expect(
            manifest.entries.map(\.dataType) == [
                "NSPrivacyCollectedDataTypeDeviceID", "NSPrivacyCollectedDataTypeEmailAddress",
                "NSPrivacyCollectedDataTypeProductInteraction", "NSPrivacyCollectedDataTypeUserID",
            ])
        #expect(manifest.trackingDomains == ["track.ads.example"])
        #expect(manifest.nonTrackingDomains == ["api.product.example": [ConsentApp.productVendor]])
    }

    @Test func theAnswersAreKeptAcrossLaunches() async throws {
        let store = InMemoryConsentStore()
        let firstProduct = InMemoryDestination(name: ConsentApp.productVendor)
        let first = ConsentApp(
            product: firstProduct, ads: InMemoryDestination(name: ConsentApp.adsVendor), consentStore: store)
        first.consentDialogAnswered(analytics: true)
        first.trackingAnswered(2)
        await first.shutdown()
        firstProduct.expectEvents([.consentAnswered(analytics: true), .trackingAnswered(status: .denied)])

        let app = ConsentApp(product: product, ads: ads, consentStore: store)
        app.open()
        app.adClicked(campaign: "spring")
        await app.flush()
        #expect(app.analytics.statistics.heldForConsent == 0)
        #expect(app.analytics.statistics.dropped[.consentDenied] == 1)
        ads.expectNoEvents()
        product.expectEvents([.appOpened(), .consentPromptShown()])
    }
}

/// The flows around the dialogs: a withdrawal in the settings, signing out, switching accounts, App
/// Tracking Transparency and the advertising identifier; and the screens' own unit test with a spy, whose
/// recording every gate must pass.
@Suite(.exhaustive)
struct ConsentFlowTests {
    let product = InMemoryDestination(name: ConsentApp.productVendor)
    let ads = InMemoryDestination(name: ConsentApp.adsVendor)

    /// The screens hand the client what the app says, personal data in the clear (the client applies the
    /// plan's rules): judged as tracked, a spy test of them is valid against the plan.
    @Test func aSpyTestOfTheScreensIsValidAgainstThePlan() {
        let spy = AnalyticsSpy()
        let screens = ConsentScreens(analytics: spy)
        screens.opened()
        screens.subscribed(email: ConsentApp.exampleEmail)
        screens.feedbackSent(ConsentApp.exampleFeedback, rating: 4)
        screens.adClicked(campaign: "spring")
        spy.expectEvents([
            .appOpened(), .consentPromptShown(), .newsletterSubscribed(email: ConsentApp.exampleEmail),
            .feedbackSent(comment: ConsentApp.exampleFeedback, rating: 4), .springAdClicked,
        ])
        spy.expectValid(against: ConsentExampleTests.plan)
    }

    @Test func aWithdrawalStopsWhatFollows() async {
        let app = ConsentApp(product: product, ads: ads)
        app.consentDialogAnswered(analytics: true)
        app.subscribe(email: ConsentApp.exampleEmail)
        app.analyticsConsentWithdrawn()
        app.subscribe(email: ConsentApp.exampleEmail)
        await app.flush()
        #expect(app.analytics.statistics.dropped[.consentDenied] == 1)
        product.expectEvents([.consentAnswered(analytics: true), .subscribed, .consentAnswered(analytics: false)])
    }

    @Test func signingOutForgetsTheUserAndAsksForTheAnalyticsAnswerAgain() async {
        let app = ConsentApp(product: product, ads: ads)
        app.signIn(userId: "user-a")
        app.consentDialogAnswered(analytics: true)
        app.trackingAnswered(3)
        app.signOut()
        app.open()
        app.adClicked(campaign: "spring")
        await app.flush()
        // The analytics answer belonged to user-a: app_opened waits; the tracking answer is the device's.
        #expect(app.analytics.consent(for: .analytics) == .notAsked)
        #expect(app.analytics.statistics.heldForConsent == 1)
        #expect(product.envelopes.compactMap(\.userId) == ["user-a", "user-a", "user-a"])
        // identify is analytics too: it waited for the grant.
        product.expectEvents([
            .consentAnswered(analytics: true), .identifyUserA, .trackingAnswered(status: .granted),
            .consentPromptShown(),
        ])
        ads.expectEvents([.springAdClicked])
        #expect(ads.envelopes.map(\.userId) == [nil])
    }

    @Test func switchingAccountsDropsWhatThePreviousUserLeftWaiting() async {
        let app = ConsentApp(product: product, ads: ads)
        app.signIn(userId: "user-a")
        app.open()  // app_opened waits for user-a's answer, which never comes
        app.switchAccount(to: "user-b", analyticsAllowed: true)
        await app.flush()
        // user-a's identify and app_opened waited for an answer user-a never gave: dropped at the reset.
        #expect(app.analytics.statistics.dropped[.resetWhileHeld] == 2)
        product.expectNotTracked(.named("app_opened"))
        product.expectEvents([
            .consentPromptShown(), .consentAnswered(analytics: true), .identifyUser(userId: "user-b"),
        ])
    }

    @Test func theAdvertisingIdentifierWaitsForTrackingAndADenialKeepsIt() async {
        let app = ConsentApp(product: product, ads: ads)
        app.adClicked(campaign: "spring")
        app.trackingAnswered(1)  // restricted
        app.trackingAnswered(2)  // denied
        await app.flush()
        ads.expectNoEvents()
        #expect(app.analytics.statistics.dropped[.consentDenied] == 1)
        product.expectEvents([.trackingAnswered(status: .denied), .trackingAnswered(status: .denied)])
    }
}

extension Event {
    /// What the product vendor receives of `subscribe(email: ConsentApp.exampleEmail)`: the address hashed.
    static let subscribed = Event.newsletterSubscribed(email: ConsentApp.hash(ConsentApp.exampleEmail))
    /// What the product vendor receives of the example's feedback: the text redacted.
    static let feedbackRedacted = Event.feedbackSent(comment: "[redacted]", rating: 5)
    /// What the ad network receives of a click on the spring campaign, once tracking is allowed.
    static let springAdClicked = Event.adClicked(campaign: "spring", idfa: ConsentScreens.advertisingIdentifier)
    /// The identify event of `signIn(userId: "user-a")`.
    static let identifyUserA = Event.identifyUser(userId: "user-a")

    /// What the product vendor receives from `ConsentApp.runScriptedSession()`, in order: the necessary
    /// events at once, the analytics events when the dialog allows them, then the rest.
    static let scriptedSessionAtProduct: [Event] = [
        .consentPromptShown(), .trackingAnswered(status: .granted), .consentAnswered(analytics: true), .appOpened(),
        .subscribed, .feedbackRedacted, .promoBannerShown(),
    ]
}
