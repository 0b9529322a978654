import Foundation
import Tally

#if canImport(CryptoKit)
import CryptoKit
#endif

/// A small app that asks for consent before it sends analytics: an App Tracking Transparency answer for
/// advertising, a GDPR dialog for product analytics, two vendors allowed different purposes, accounts that
/// sign in and out.
///
/// Every privacy rule comes from the app's tracking plan (`Examples/Consent/tracking-plan.yaml`), and none
/// is restated here: `tally gen` writes the plan's events and its runtime rules into
/// `Generated/TrackingPlan+Events.swift` (`PlannedEvents.rules`), and one line makes the client follow them:
/// the purposes that wait for the user's answer, what each vendor may receive, each event's purpose, the
/// e-mail address hashed, the feedback text redacted, the advertising identifier only on advertising events.
/// The app reads no plan file and links nothing but Tally.
///
/// ```swift
/// let app = ConsentApp(product: productSDK, ads: adNetwork)
/// app.open()                                   // app_opened waits for the dialog's answer
/// app.trackingAnswered(3)                      // ATTrackingManager.AuthorizationStatus.authorized.rawValue
/// app.consentDialogAnswered(analytics: true)   // the waiting analytics events go to the product vendor
/// ```
public final class ConsentApp: Sendable {
    /// The name the product-analytics vendor's destination must have (the plan's `destinations:`).
    public static let productVendor = PlannedEvents.Destinations.product
    /// The name the ad network's destination must have (the plan's `destinations:`).
    public static let adsVendor = PlannedEvents.Destinations.ads

    /// The app's analytics client.
    public let analytics: AnalyticsClient
    /// What the app's screens track, through the protocol app code depends on.
    public let screens: ConsentScreens
    /// The regression planted in this app, nil in production.
    public let regression: Regression?

    /// Where the plan lies in the repository, for the example's tests and for `tally` in CI. The app itself
    /// never reads it: its rules are compiled in (`PlannedEvents.rules`).
    public static let planURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("tracking-plan.yaml")

    /// Creates the app with its two vendors.
    ///
    /// - Parameters:
    ///   - product: the product-analytics vendor; its name must be ``productVendor``.
    ///   - ads: the ad network; its name must be ``adsVendor``.
    ///   - consentStore: where the answers are kept across launches.
    ///   - regression: a planted regression; nil (the default) in production.
    public init(
        product: any Destination, ads: any Destination, consentStore: any ConsentStore = InMemoryConsentStore(),
        regression: Regression? = nil
    ) {
        precondition(product.name == Self.productVendor && ads.name == Self.adsVendor, "the vendors' names")
        var configuration = AnalyticsClient.Configuration(rules: PlannedEvents.rules, hash: Self.hash)
        configuration.consentStore = consentStore
        regression?.plant(in: &configuration)
        analytics = AnalyticsClient(destinations: [product, ads], configuration: configuration)
        screens = ConsentScreens(analytics: analytics, regression: regression)
        self.regression = regression
    }

    /// The app came to the foreground, and shows its consent dialog.
    public func open() {
        screens.opened()
    }

    /// App Tracking Transparency answered: `rawValue` is `ATTrackingManager.AuthorizationStatus`'s raw value
    /// (0 not determined, 1 restricted, 2 denied, 3 authorized). It answers for the advertising purpose.
    public func trackingAnswered(_ rawValue: UInt) {
        let status =
            regression == .trackingAnswerMisread
            ? (rawValue == 0 ? .notAsked : .granted) : ConsentStatus(trackingAuthorizationStatus: rawValue)
        screens.trackingAnswered(status)
        analytics.setConsent(status, for: .advertising)
    }

    /// The GDPR dialog answered: product analytics allowed or not.
    public func consentDialogAnswered(analytics allowed: Bool) {
        screens.consentAnswered(analytics: allowed)
        analytics.setConsent(allowed ? .granted : .denied, for: .analytics)
    }

    /// The user withdrew product analytics in the app's settings.
    public func analyticsConsentWithdrawn() {
        screens.consentAnswered(analytics: false)
        guard regression != .withdrawalIgnored else { return }
        analytics.setConsent(.denied, for: .analytics)
    }

    /// The user signed in.
    public func signIn(userId: String) {
        analytics.track(.identifyUser(userId: userId))
    }

    /// The user signed out: the client forgets them (and drops what still waits for their answer), and the
    /// analytics answer, which belongs to the account, is asked again. The App Tracking Transparency answer
    /// belongs to the device and stays.
    public func signOut() {
        if regression != .resetOnSignOutRemoved { analytics.reset() }
        analytics.setConsent(.notAsked, for: .analytics)
    }

    /// Another user signed in on the dialog that asks for their analytics answer.
    public func switchAccount(to userId: String, analyticsAllowed: Bool) {
        if regression == .heldEventsReleasedToNextUser {
            consentDialogAnswered(analytics: analyticsAllowed)
            signOut()
            signIn(userId: userId)
            return
        }
        signOut()
        signIn(userId: userId)
        consentDialogAnswered(analytics: analyticsAllowed)
    }

    /// The user subscribed to the newsletter with `email`.
    public func subscribe(email: String) {
        screens.subscribed(email: email)
    }

    /// The user sent feedback.
    public func sendFeedback(_ comment: String, rating: Int) {
        screens.feedbackSent(comment, rating: rating)
    }

    /// The user opened an ad of `campaign`.
    public func adClicked(campaign: String) {
        screens.adClicked(campaign: campaign)
    }

    /// The spring promotion's banner appeared (an event with an expiry day in the plan).
    public func promoBannerShown() {
        screens.promoBannerShown()
    }

    /// Waits until every event tracked so far reached the vendors (or was held or dropped).
    public func flush() async {
        await analytics.flush()
    }

    /// Flushes and stops the client; events still waiting for an answer are dropped as not given.
    public func shutdown() async {
        await analytics.shutdown()
    }

    /// The example's scripted session, which `consent-example` runs: the app opens, an ad is clicked and
    /// the newsletter subscribed before any answer, App Tracking Transparency is authorized, the dialog
    /// allows analytics, then feedback is sent and the promotion's banner shown.
    public func runScriptedSession() async {
        open()
        adClicked(campaign: "spring")
        subscribe(email: Self.exampleEmail)
        trackingAnswered(3)
        consentDialogAnswered(analytics: true)
        sendFeedback(Self.exampleFeedback, rating: 5)
        promoBannerShown()
        await flush()
    }

    /// The e-mail address the scripted session subscribes with.
    public static let exampleEmail = "ada@example.com"
    /// The feedback the scripted session sends: free text that holds an e-mail address.
    public static let exampleFeedback = "Love it, write to me at ada@example.com"

    /// The hash the plan's `hash` rule uses: SHA-256 in hex where CryptoKit exists (Apple platforms),
    /// else 64-bit FNV-1a in hex, a stand-in that keeps the example running on Linux (not for production:
    /// it is not a cryptographic hash).
    @Sendable public static func hash(_ value: String) -> String {
        #if canImport(CryptoKit)
        return SHA256.hash(data: Data(value.utf8)).map { byte in
            (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
        #else
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in value.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
        #endif
    }
}
