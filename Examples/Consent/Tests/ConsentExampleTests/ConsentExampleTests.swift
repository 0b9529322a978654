import ConsentExample
import Foundation
import Tally
import TallyPlan
import TallyTesting
import Testing

/// The consent example's promises, tested through the app's real `AnalyticsClient` with an
/// `InMemoryDestination` in each vendor's place: nothing of a purpose reaches a vendor before the user
/// agrees to it, a refusal drops what waited (counted), personal properties follow the plan, each vendor
/// receives only its purposes, and the plan lints clean. `ConsentRegressionTests` runs the same checks on the
/// app with each regression of issue 25 planted, where they must fail.
@Suite(.exhaustive)
struct ConsentExampleTests {
    let product = InMemoryDestination(name: ConsentApp.productVendor)
    let ads = InMemoryDestination(name: ConsentApp.adsVendor)

    @Test func nothingOfAPurposeReachesAVendorBeforeConsent() async throws {
        let app = try ConsentApp(product: product, ads: ads)
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
        product.expectNotTracked(.sentWithoutConsent(for: app.plan.consentRequired))
        ads.expectNotTracked(.sentWithoutConsent(for: app.plan.consentRequired))
        ads.expectEvents([.adClicked])
        product.expectEvents([
            .promptShown, .trackingAnswered(.notAsked), .trackingAnswered(.granted), .consentAnswered(true),
            .appOpened, .subscribed,
        ])
    }

    @Test func whatWaitedIsDroppedAndCountedWhenTheUserSaysNo() async throws {
        let app = try ConsentApp(product: product, ads: ads)
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
        product.expectEvents([.promptShown, .trackingAnswered(.denied), .consentAnswered(false)])
    }

    @Test func personalPropertiesFollowThePlan() async throws {
        let app = try ConsentApp(product: product, ads: ads)
        app.consentDialogAnswered(analytics: true)
        app.subscribe(email: ConsentApp.exampleEmail)
        app.sendFeedback(ConsentApp.exampleFeedback, rating: 5)
        await app.flush()

        product.expectNotTracked(.holdingPersonalData())
        product.expectValid(against: PlanValidator(plan: app.plan))
        product.expectEvents([.consentAnswered(true), .subscribed, .feedbackSent])
    }

    @Test func theAdsVendorNeverReceivesAnalytics() async throws {
        let app = try ConsentApp(product: product, ads: ads)
        await app.runScriptedSession()

        ads.expectNotTracked(.purpose(.analytics))
        product.expectNotTracked(.purpose(.advertising))
        let statistics = app.analytics.statistics
        #expect(statistics.destinations[ConsentApp.adsVendor]?.dropped[.purposeNotAllowed] == 7)
        #expect(statistics.destinations[ConsentApp.productVendor]?.dropped[.purposeNotAllowed] == 1)
        ads.expectEvents([.adClicked])
        product.expectEvents(Event.scriptedSessionAtProduct)
    }

    @Test func theSessionIsValidAgainstThePlan() async throws {
        let app = try ConsentApp(product: product, ads: ads)
        await app.runScriptedSession()

        let plan = PlanValidator(plan: app.plan)
        product.expectValid(against: plan)
        ads.expectValid(against: plan)
        // What `tally validate` checks on the recorded session: each gated purpose went out granted.
        product.expectNotTracked(.sentWithoutConsent(for: app.plan.consentRequired))
        ads.expectNotTracked(.sentWithoutConsent(for: app.plan.consentRequired))
        // The necessary events are not gated, and say so; the rest waited for the grant.
        #expect(
            product.envelopes.map(\.consent)
                == [.notRequired, .notRequired, .notRequired, .granted, .granted, .granted, .granted])
        product.expectEvents(Event.scriptedSessionAtProduct)
        ads.expectEvents([.adClicked])
    }

    /// What `tally lint --plan Examples/Consent/tracking-plan.yaml` checks, through TallyPlan's API: the
    /// file's own rules, and its privacy marks (an expired event, a personal property with no rule, a
    /// purpose no vendor may receive).
    @Test func thePlanTheAppRunsOnLintsClean() throws {
        let app = try ConsentApp(product: product, ads: ads)
        #expect(app.plan.consentRequired == [.analytics, .advertising])
        #expect(app.plan.privacyDiagnostics().map(\.description) == [])
        let loaded = PlanLoader.load(contentsOf: ConsentApp.planURL(for: app.regression))
        #expect(loaded.diagnostics.map(\.description) == [])
    }

    /// `Examples/Consent/PrivacyInfo.xcprivacy` declares every data type, purpose, linkage and tracking
    /// flag the plan implies (`PrivacyManifest(plan:)`, what `tally privacy-manifest` prints).
    @Test func thePrivacyManifestCoversThePlan() throws {
        let manifest = PrivacyManifest(plan: try TrackingPlan(contentsOf: ConsentApp.planURL()))
        let file = ConsentApp.planURL().deletingLastPathComponent().appendingPathComponent("PrivacyInfo.xcprivacy")
        #expect(try manifest.gaps(in: Data(contentsOf: file)) == [])
        #expect(
            manifest.entries.map(\.dataType) == [
                "NSPrivacyCollectedDataTypeEmailAddress", "NSPrivacyCollectedDataTypeProductInteraction",
            ])
        #expect(manifest.trackingDomains == ["track.ads.example"])
        #expect(manifest.nonTrackingDomains == ["api.product.example": [ConsentApp.productVendor]])
    }

    @Test func theAnswersAreKeptAcrossLaunches() async throws {
        let store = InMemoryConsentStore()
        let firstProduct = InMemoryDestination(name: ConsentApp.productVendor)
        let first = try ConsentApp(
            product: firstProduct, ads: InMemoryDestination(name: ConsentApp.adsVendor), consentStore: store)
        first.consentDialogAnswered(analytics: true)
        first.trackingAnswered(2)
        await first.shutdown()
        firstProduct.expectEvents([.consentAnswered(true), .trackingAnswered(.denied)])

        let app = try ConsentApp(product: product, ads: ads, consentStore: store)
        app.open()
        app.adClicked(campaign: "spring")
        await app.flush()
        #expect(app.analytics.statistics.heldForConsent == 0)
        #expect(app.analytics.statistics.dropped[.consentDenied] == 1)
        ads.expectNoEvents()
        product.expectEvents([.appOpened, .promptShown])
    }
}

extension Event {
    static let appOpened = Event("app_opened")
    static let promptShown = Event("consent_prompt_shown").needing(.necessary)
    static let adClicked = Event("ad_clicked", ["campaign": "spring"]).needing(.advertising)
    static let subscribed = Event("newsletter_subscribed", ["email": .string(ConsentApp.hash(ConsentApp.exampleEmail))])
    static let feedbackSent = Event("feedback_sent", ["comment": "[redacted]", "rating": 5])
    static let promoBannerShown = Event("promo_banner_shown")

    static func trackingAnswered(_ status: ConsentStatus) -> Event {
        Event("tracking_answered", ["status": .string(status.rawValue)]).needing(.necessary)
    }

    static func consentAnswered(_ analytics: Bool) -> Event {
        Event("consent_answered", ["analytics": .bool(analytics)]).needing(.necessary)
    }

    /// What the product vendor receives from `ConsentApp.runScriptedSession()`, in order: the necessary
    /// events at once, the analytics events when the dialog allows them, then the rest.
    static let scriptedSessionAtProduct: [Event] = [
        .promptShown, .trackingAnswered(.granted), .consentAnswered(true), .appOpened, .subscribed,
        .feedbackSent, .promoBannerShown,
    ]
}
