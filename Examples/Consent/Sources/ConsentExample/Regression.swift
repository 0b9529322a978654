import Tally

/// A regression planted in the consent example on purpose, so its checks can prove they catch it (issues 25
/// and 33). Production code passes `nil`; only `ConsentRegressionTests`, `consent-example --regression` and
/// `.ci/check-consent-example` plant one. Mistakes in the plan itself (an expired event, a rule the gates
/// refuse, a stale manifest or generated file) are planted in copies of the plan by the script.
public enum Regression: String, Sendable, CaseIterable {
    /// The client forgets that analytics needs consent (the app drops it from the plan's rules): analytics
    /// events reach the product vendor before the user answers the dialog, delivered as not gated.
    case sentBeforeConsent = "sent-before-consent"
    /// The client forgets the plan's personal-data rules: the e-mail address and the feedback text leave
    /// the app as the user typed them.
    case personalUnredacted = "personal-unredacted"
    /// The ads vendor is allowed analytics as well as advertising: it receives the product's events.
    case vendorGivenPurpose = "vendor-given-purpose"
    /// `app_opened` is tracked as strictly necessary, so that it is "not lost before consent": the plan
    /// says analytics.
    case eventReclassified = "event-reclassified"
    /// Withdrawing analytics in the settings records the answer but never tells the client.
    case withdrawalIgnored = "withdrawal-ignored"
    /// Signing out no longer resets the client: the next events carry the previous user's id.
    case resetOnSignOutRemoved = "reset-on-sign-out-removed"
    /// Switching accounts applies the next user's analytics answer before the previous user is reset, so
    /// what the previous user tracked before answering goes out on the next user's consent.
    case heldEventsReleasedToNextUser = "held-events-released-to-next-user"
    /// App Tracking Transparency's answer misread: any answer but "not determined" counts as allowed, so a
    /// denial still sends the advertising events and their advertising identifier.
    case trackingAnswerMisread = "tracking-answer-misread"
    /// The advertising identifier put on `app_opened` "for attribution": an analytics event.
    case advertisingIdentifierOnAnalytics = "advertising-identifier-on-analytics"
    /// The hash function given to the client returns its input ("to debug the funnel"): the e-mail address
    /// leaves in the clear under a hash rule.
    case hashReturnsItsInput = "hash-returns-its-input"
    /// The newsletter event also carries the address under `contact`, a key the plan does not mark.
    case personalDataUnderAnotherKey = "personal-data-under-another-key"

    /// Plants the regression in the client's configuration, where it lives there.
    func plant(in configuration: inout AnalyticsClient.Configuration) {
        switch self {
        case .sentBeforeConsent: configuration.rules?.consentRequired.remove(.analytics)
        case .personalUnredacted: configuration.rules?.personalProperties = []
        case .vendorGivenPurpose:
            configuration.purposesByDestination[ConsentApp.adsVendor] = [.advertising, .analytics]
        case .hashReturnsItsInput: configuration.personalDataHash = { $0 }
        default: break
        }
    }
}
