import Foundation
import Tally
import TallyPlan

#if canImport(CryptoKit)
import CryptoKit
#endif

/// A small app that asks for consent before it sends analytics, as issue 25 describes: an App Tracking
/// Transparency answer for advertising, a GDPR dialog for product analytics, and two vendors allowed
/// different purposes.
///
/// Everything privacy-related comes from the app's tracking plan (`Examples/Consent/tracking-plan.yaml`):
/// - the purposes that need the user's answer (`consent: { required: [analytics, advertising] }`), given to
///   the client as `Configuration.consentRequired`, so every event it delivers records whether the user
///   granted its purpose or the client did not gate it (`Envelope.consent`);
/// - each event's purpose, which the client holds until the user answers, releases on a grant and drops on
///   a denial;
/// - the purposes each vendor may receive (`destinations:`), given to the client as
///   `Configuration.purposesByDestination`: the product-analytics vendor ``productVendor`` gets `analytics`
///   and `necessary`, the ad network ``adsVendor`` only `advertising`;
/// - the personal properties, hashed (the newsletter e-mail) or redacted (the feedback text) by
///   `plan.personalDataProcessor(hash:)` before any destination sees an event.
///
/// ```swift
/// let app = try ConsentApp(product: productSDK, ads: adNetwork)
/// app.open()                                   // app_opened waits for the dialog's answer
/// app.trackingAnswered(3)                      // ATTrackingManager.AuthorizationStatus.authorized.rawValue
/// app.consentDialogAnswered(analytics: true)   // the waiting analytics events go to the product vendor
/// ```
public final class ConsentApp: Sendable {
    /// The name the product-analytics vendor's destination must have: it may receive `analytics` and
    /// `necessary` events.
    public static let productVendor = "product"
    /// The name the ad network's destination must have: it may receive `advertising` events only.
    public static let adsVendor = "ads"

    /// The app's analytics client.
    public let analytics: AnalyticsClient
    /// The tracking plan the client was configured from.
    public let plan: TrackingPlan
    /// The regression planted in this app, nil in production.
    public let regression: Regression?

    /// The example's tracking plan, `Examples/Consent/tracking-plan.yaml`; the planted copy with an expired
    /// event, `Examples/Consent/planted/expired-plan.yaml`, for ``Regression/expiredEventSent``. An app
    /// would ship its plan as a resource; the example reads it where it lies in the repository.
    public static func planURL(for regression: Regression? = nil) -> URL {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return regression == .expiredEventSent
            ? folder.appendingPathComponent("planted/expired-plan.yaml")
            : folder.appendingPathComponent("tracking-plan.yaml")
    }

    /// Creates the app with its two vendors.
    ///
    /// - Parameters:
    ///   - product: the product-analytics vendor; its name must be ``productVendor``.
    ///   - ads: the ad network; its name must be ``adsVendor``.
    ///   - consentStore: where the answers are kept across launches.
    ///   - regression: a planted regression; nil (the default) in production.
    /// - Throws: the plan's load error, with file, line and column.
    public init(
        product: any Destination, ads: any Destination, consentStore: any ConsentStore = InMemoryConsentStore(),
        regression: Regression? = nil
    ) throws {
        precondition(product.name == Self.productVendor && ads.name == Self.adsVendor, "the vendors' names")
        let plan = try TrackingPlan(contentsOf: Self.planURL(for: regression))
        var configuration = AnalyticsClient.Configuration()
        configuration.consentRequired =
            regression == .sentBeforeConsent ? plan.consentRequired.subtracting([.analytics]) : plan.consentRequired
        configuration.consentStore = consentStore
        configuration.purposesByDestination = plan.destinations
        if regression == .vendorGivenPurpose {
            configuration.purposesByDestination[Self.adsVendor, default: []].insert(.analytics)
        }
        let processors: [any Processor] =
            regression == .personalUnredacted ? [] : [plan.personalDataProcessor(hash: Self.hash)]
        analytics = AnalyticsClient(processors: processors, destinations: [product, ads], configuration: configuration)
        self.plan = plan
        self.regression = regression
    }

    /// The app came to the foreground, and shows its consent dialog.
    public func open() {
        analytics.track(Event("app_opened"))
        analytics.track(Event("consent_prompt_shown").needing(.necessary))
    }

    /// App Tracking Transparency answered: `rawValue` is `ATTrackingManager.AuthorizationStatus`'s raw value
    /// (0 not determined, 1 restricted, 2 denied, 3 authorized). It answers for the advertising purpose.
    public func trackingAnswered(_ rawValue: UInt) {
        let status = ConsentStatus(trackingAuthorizationStatus: rawValue)
        analytics.track(Event("tracking_answered", ["status": .string(status.rawValue)]).needing(.necessary))
        analytics.setConsent(status, for: .advertising)
    }

    /// The GDPR dialog answered: product analytics allowed or not.
    public func consentDialogAnswered(analytics allowed: Bool) {
        analytics.track(Event("consent_answered", ["analytics": .bool(allowed)]).needing(.necessary))
        analytics.setConsent(allowed ? .granted : .denied, for: .analytics)
    }

    /// The user subscribed to the newsletter with `email`.
    public func subscribe(email: String) {
        analytics.track(Event("newsletter_subscribed", ["email": .string(email)]))
    }

    /// The user sent feedback.
    public func sendFeedback(_ comment: String, rating: Int) {
        analytics.track(Event("feedback_sent", ["comment": .string(comment), "rating": .int(rating)]))
    }

    /// The user opened an ad of `campaign`.
    public func adClicked(campaign: String) {
        analytics.track(Event("ad_clicked", ["campaign": .string(campaign)]).needing(.advertising))
    }

    /// The spring promotion's banner appeared (an event with an expiry day in the plan).
    public func promoBannerShown() {
        analytics.track(Event("promo_banner_shown"))
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
