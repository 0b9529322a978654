import Tally

/// What the consent example's screens track, written as app code is: against `AnalyticsTracking`, with the
/// event factories `tally gen` wrote from the plan. The app gives it its client; a unit test gives it an
/// `AnalyticsSpy` and checks what was handed over.
public struct ConsentScreens: Sendable {
    /// Where the events go: the app's client, or a spy.
    public let analytics: any AnalyticsTracking
    /// The regression planted in the screens, nil in production.
    public let regression: Regression?

    /// The device's advertising identifier. On iOS it comes from AdSupport's
    /// `ASIdentifierManager.shared().advertisingIdentifier`, all zeros until the user allows tracking; the
    /// example imports no Apple framework and uses this stand-in.
    public static let advertisingIdentifier = "6D92078A-8246-4BA4-AE5B-76104861E7DC"

    /// Screens that track into `analytics`.
    public init(analytics: any AnalyticsTracking, regression: Regression? = nil) {
        self.analytics = analytics
        self.regression = regression
    }

    /// The app came to the foreground and shows its consent dialog.
    public func opened() {
        var opened = Event.appOpened()
        if regression == .eventReclassified { opened = opened.needing(.necessary) }
        if regression == .advertisingIdentifierOnAnalytics {
            opened.properties["idfa"] = .string(Self.advertisingIdentifier)
        }
        analytics.track(opened)
        analytics.track(.consentPromptShown())
    }

    /// App Tracking Transparency answered with `status`.
    public func trackingAnswered(_ status: ConsentStatus) {
        let answer: PlannedEvents.TrackingAnswered.Status =
            switch status {
            case .granted: .granted
            case .denied: .denied
            case .notAsked: .notAsked
            }
        analytics.track(.trackingAnswered(status: answer))
    }

    /// The GDPR dialog answered (or the answer changed in settings).
    public func consentAnswered(analytics allowed: Bool) {
        analytics.track(.consentAnswered(analytics: allowed))
    }

    /// The user subscribed to the newsletter with `email`.
    public func subscribed(email: String) {
        var subscribed = Event.newsletterSubscribed(email: email)
        if regression == .personalDataUnderAnotherKey { subscribed.properties["contact"] = .string(email) }
        analytics.track(subscribed)
    }

    /// The user sent feedback.
    public func feedbackSent(_ comment: String, rating: Int) {
        analytics.track(.feedbackSent(comment: comment, rating: rating))
    }

    /// The user opened an ad of `campaign`: the ad network attributes it by the advertising identifier,
    /// which the event carries (it is an advertising event: it waits for the user's tracking answer).
    public func adClicked(campaign: String) {
        analytics.track(.adClicked(campaign: campaign, idfa: Self.advertisingIdentifier))
    }

    /// The spring promotion's banner appeared.
    public func promoBannerShown() {
        analytics.track(.promoBannerShown())
    }
}
