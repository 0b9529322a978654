import ConsentExample
import Foundation
import Tally
import TallyPlan
import TallyTesting
import Testing

/// The regressions of issues 25 and 33 planted in the app's code (``Regression``), each with the check of
/// `ConsentExampleTests` that catches it. Every test here MUST FAIL, exactly at the line after each
/// must-fail marker comment (`must fail on the next line: <message>`), with that message.
///
/// The suite runs only when `TALLY_CONSENT_REGRESSIONS=1`, which `.ci/check-consent-example` sets: a plain
/// `swift test --package-path Examples` (CI's examples step, which must pass) skips it. The script builds
/// and runs this target, and fails unless each marked line failed with its message and nothing else did.
/// It is not exhaustive: only the marked checks may fail. Mistakes in the plan itself are planted by the
/// script in copies of the plan, and caught by `tally lint`, `tally gen --check` and `tally privacy-manifest
/// --check` there; the expired event is also caught here, through the lint API.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["TALLY_CONSENT_REGRESSIONS"] == "1",
        "planted regressions: run by .ci/check-consent-example, where they must fail"))
struct ConsentRegressionTests {
    let product = InMemoryDestination(name: ConsentApp.productVendor)
    let ads = InMemoryDestination(name: ConsentApp.adsVendor)
    static let plan = try! TrackingPlan(contentsOf: ConsentApp.planURL)

    /// An event sent before consent: the client no longer requires consent for analytics.
    @Test func anEventSentBeforeConsent() async {
        let app = ConsentApp(product: product, ads: ads, regression: .sentBeforeConsent)
        app.open()
        app.subscribe(email: ConsentApp.exampleEmail)
        await app.flush()

        // must fail on the next line: Expected any event for analytics not to have been tracked, but 2 matching events were.
        product.expectNotTracked(.purpose(.analytics))
        // must fail on the next line: Expected any event for advertising, analytics sent without the user's grant not to have been tracked, but 2 matching events were.
        product.expectNotTracked(.sentWithoutConsent(for: Self.plan.consentRequired))
    }

    /// A personal property unredacted: the client no longer applies the plan's personal-data rules.
    @Test func aPersonalPropertyUnredacted() async {
        let app = ConsentApp(product: product, ads: ads, regression: .personalUnredacted)
        app.consentDialogAnswered(analytics: true)
        app.subscribe(email: ConsentApp.exampleEmail)
        app.sendFeedback(ConsentApp.exampleFeedback, rating: 5)
        await app.flush()

        // must fail on the next line: Expected any event holding personal data not to have been tracked, but 2 matching events were.
        product.expectNotTracked(.holdingPersonalData())
        // must fail on the next line: personal data sent against its rule (personal: email, rule: hash)
        product.expectValid(against: Self.plan)
    }

    /// A vendor given a purpose it may not receive: the ads vendor is allowed analytics too.
    @Test func aVendorGivenAPurposeItMayNotReceive() async {
        let app = ConsentApp(product: product, ads: ads, regression: .vendorGivenPurpose)
        await app.runScriptedSession()

        // must fail on the next line: Expected any event for analytics not to have been tracked, but 4 matching events were.
        ads.expectNotTracked(.purpose(.analytics))
    }

    /// `app_opened` tracked as strictly necessary: the spy test of the screens sees the purpose the plan does
    /// not give it, and the client, which gates it as analytics anyway, reports it.
    @Test func anEventReclassifiedAsNecessary() async {
        let spy = AnalyticsSpy()
        ConsentScreens(analytics: spy, regression: .eventReclassified).opened()
        // must fail on the next line: recorded with purpose necessary, but the plan's event needs purpose analytics
        spy.expectValid(against: Self.plan)

        let app = ConsentApp(product: product, ads: ads, regression: .eventReclassified)
        app.open()
        await app.flush()
        // must fail on the next line: purpose_not_planned
        #expect(app.analytics.statistics.recentProblems.map(\.code.rawValue) == [])
    }

    /// Withdrawing analytics in the settings never reaches the client: what follows still goes out.
    @Test func aWithdrawalIgnored() async {
        let app = ConsentApp(product: product, ads: ads, regression: .withdrawalIgnored)
        app.consentDialogAnswered(analytics: true)
        app.analyticsConsentWithdrawn()
        await app.flush()
        product.clear()
        app.subscribe(email: ConsentApp.exampleEmail)
        await app.flush()

        // must fail on the next line: Expected any event for analytics not to have been tracked, but 1 matching event was.
        product.expectNotTracked(.purpose(.analytics))
    }

    /// Sign-out no longer resets the client: the next events carry the previous user's id.
    @Test func aSignOutThatKeepsTheUser() async {
        let app = ConsentApp(product: product, ads: ads, regression: .resetOnSignOutRemoved)
        app.signIn(userId: "user-a")
        app.signOut()
        app.open()
        await app.flush()

        // must fail on the next line: user-a
        #expect(product.envelopes.compactMap(\.userId) == [])
    }

    /// Switching accounts applies the next user's answer before the previous user is reset: what the
    /// previous user tracked before answering goes out on the next user's consent.
    @Test func heldEventsReleasedToTheNextUser() async {
        let app = ConsentApp(product: product, ads: ads, regression: .heldEventsReleasedToNextUser)
        app.signIn(userId: "user-a")
        app.open()
        app.switchAccount(to: "user-b", analyticsAllowed: true)
        await app.flush()

        // must fail on the next line: Expected "app_opened" not to have been tracked, but 1 matching event was.
        product.expectNotTracked(.named("app_opened"))
    }

    /// App Tracking Transparency's denial read as an answer that allows: the ad click and its advertising
    /// identifier go out.
    @Test func aTrackingDenialMisread() async {
        let app = ConsentApp(product: product, ads: ads, regression: .trackingAnswerMisread)
        app.adClicked(campaign: "spring")
        app.trackingAnswered(2)  // denied
        await app.flush()

        // must fail on the next line: Expected 0 events matching any event, but 1 was recorded.
        ads.expectNoEvents()
    }

    /// The advertising identifier put on an analytics event: the spy test sees a property the plan does not
    /// give `app_opened`, and the client, which removes it, reports it.
    @Test func anAdvertisingIdentifierOnAnAnalyticsEvent() async {
        let spy = AnalyticsSpy()
        ConsentScreens(analytics: spy, regression: .advertisingIdentifierOnAnalytics).opened()
        // must fail on the next line: unexpectedProperty at /properties/idfa
        spy.expectValid(against: Self.plan)

        let app = ConsentApp(product: product, ads: ads, regression: .advertisingIdentifierOnAnalytics)
        app.consentDialogAnswered(analytics: true)
        app.open()
        await app.flush()
        // must fail on the next line: advertising_identifier_removed
        #expect(app.analytics.statistics.recentProblems.map(\.code.rawValue) == [])
    }

    /// A hash function that returns its input: the address leaves in the clear under a hash rule.
    @Test func aHashThatReturnsItsInput() async {
        let app = ConsentApp(product: product, ads: ads, regression: .hashReturnsItsInput)
        app.consentDialogAnswered(analytics: true)
        app.subscribe(email: ConsentApp.exampleEmail)
        await app.flush()

        // must fail on the next line: personal data sent against its rule (personal: email, rule: hash)
        product.expectValid(against: Self.plan)
    }

    /// The address also sent under a key the plan does not mark.
    @Test func personalDataUnderAnotherKey() async {
        let app = ConsentApp(product: product, ads: ads, regression: .personalDataUnderAnotherKey)
        app.consentDialogAnswered(analytics: true)
        app.subscribe(email: ConsentApp.exampleEmail)
        await app.flush()

        // must fail on the next line: Expected any event holding personal data not to have been tracked, but 1 matching event was.
        product.expectNotTracked(.holdingPersonalData())
    }

    /// An expired event still sent: the plan's `promo_banner_shown` is past its day. `tally lint` catches
    /// it in CI (the script checks that too); here TallyPlan's lint API does.
    @Test func anExpiredEventStillSent() throws {
        let folder = ConsentApp.planURL.deletingLastPathComponent()
        let planted = try TrackingPlan(contentsOf: folder.appendingPathComponent("planted/expired-plan.yaml"))
        // must fail on the next line: expired-plan.yaml:63:5: error: Event \'promo_banner_shown\' expired on 2024-01-31
        #expect(planted.privacyDiagnostics().map(\.description) == [])
    }
}
