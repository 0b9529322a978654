import ConsentExample
import Foundation
import Tally
import TallyPlan
import TallyTesting
import Testing

/// The four regressions of issue 25, each planted in the consent example (``Regression``), and the check of
/// `ConsentExampleTests` that catches it. Every test here MUST FAIL, exactly at the line after each
/// must-fail marker comment (`must fail on the next line: <message>`), with that message.
///
/// The suite runs only when `TALLY_CONSENT_REGRESSIONS=1`, which `.ci/check-consent-example` sets: a plain
/// `swift test --package-path Examples` (CI's examples step, which must pass) skips it. The script builds
/// and runs this target, and fails unless each marked line failed with its message and nothing else did.
/// It is not exhaustive: only the marked checks may fail.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["TALLY_CONSENT_REGRESSIONS"] == "1",
        "planted regressions: run by .ci/check-consent-example, where they must fail"))
struct ConsentRegressionTests {
    let product = InMemoryDestination(name: ConsentApp.productVendor)
    let ads = InMemoryDestination(name: ConsentApp.adsVendor)

    /// An event sent before consent: the client no longer requires consent for analytics.
    @Test func anEventSentBeforeConsent() async throws {
        let app = try ConsentApp(product: product, ads: ads, regression: .sentBeforeConsent)
        app.open()
        app.subscribe(email: ConsentApp.exampleEmail)
        await app.flush()

        // must fail on the next line: Expected any event for analytics not to have been tracked, but 2 matching events were.
        product.expectNotTracked(.purpose(.analytics))
        // must fail on the next line: Expected any event for advertising, analytics sent without the user's grant not to have been tracked, but 2 matching events were.
        product.expectNotTracked(.sentWithoutConsent(for: app.plan.consentRequired))
    }

    /// A personal property unredacted: the client no longer applies the plan's personal-data rules.
    @Test func aPersonalPropertyUnredacted() async throws {
        let app = try ConsentApp(product: product, ads: ads, regression: .personalUnredacted)
        app.consentDialogAnswered(analytics: true)
        app.subscribe(email: ConsentApp.exampleEmail)
        app.sendFeedback(ConsentApp.exampleFeedback, rating: 5)
        await app.flush()

        // must fail on the next line: Expected any event holding personal data not to have been tracked, but 2 matching events were.
        product.expectNotTracked(.holdingPersonalData())
        // must fail on the next line: personal data sent against its rule (personal: email, rule: hash)
        product.expectValid(against: PlanValidator(plan: app.plan))
    }

    /// A vendor given a purpose it may not receive: the ads vendor is allowed analytics too.
    @Test func aVendorGivenAPurposeItMayNotReceive() async throws {
        let app = try ConsentApp(product: product, ads: ads, regression: .vendorGivenPurpose)
        await app.runScriptedSession()

        // must fail on the next line: Expected any event for analytics not to have been tracked, but 4 matching events were.
        ads.expectNotTracked(.purpose(.analytics))
    }

    /// An expired event still sent: the app runs on a plan where `promo_banner_shown` is past its day.
    /// `tally lint` catches it in CI (the script checks that too); here TallyPlan's lint API does.
    @Test func anExpiredEventStillSent() throws {
        let app = try ConsentApp(product: product, ads: ads, regression: .expiredEventSent)
        // must fail on the next line: expired-plan.yaml:56:5: error: Event \'promo_banner_shown\' expired on 2024-01-31
        #expect(app.plan.privacyDiagnostics().map(\.description) == [])
    }
}
