/// A regression planted in the consent example on purpose, so its checks can prove they catch it
/// (issue 25). Production code passes `nil`; only `ConsentRegressionTests` and
/// `.ci/check-consent-example` plant one.
public enum Regression: String, Sendable, CaseIterable {
    /// The client forgets that analytics needs consent (it drops it from the plan's `consent.required`):
    /// analytics events reach the product vendor before the user answers the dialog, recorded as not gated
    /// (`Envelope.consent` is `notRequired`).
    case sentBeforeConsent = "sent-before-consent"
    /// The client forgets the plan's personal-data rules: the e-mail address and the feedback text leave
    /// the app as the user typed them.
    case personalUnredacted = "personal-unredacted"
    /// The ads vendor is allowed analytics as well as advertising: it receives the product's events.
    case vendorGivenPurpose = "vendor-given-purpose"
    /// The app runs on `planted/expired-plan.yaml`, where `promo_banner_shown` is past its expiry day, and
    /// still sends the event.
    case expiredEventSent = "expired-event-sent"
}
