// The app of "Privacy and consent" (PrivacyAndConsent.md), the README's "From a tracking plan" and the plan
// checks of "Testing your analytics": its plan's events and runtime rules (`PlannedEvents.rules`) are in
// Generated/, written by `tally gen --plan tracking-plan.yaml --output Generated/TrackingPlan+Events.swift`
// and kept equal to what it writes by PrivacyAndConsentDocTests, as `tally gen --check` would in CI.

import Tally

/// The sign-up screen's model: it tracks the address as the user typed it; the client's rules hash it.
public struct SignUpModel {
    let analytics: any AnalyticsTracking

    public init(analytics: any AnalyticsTracking) { self.analytics = analytics }

    public func submit(email: String) { analytics.track(.signedUp(email: email)) }
}
