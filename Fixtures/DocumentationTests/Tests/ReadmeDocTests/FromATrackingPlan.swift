// README.md, "From a tracking plan": the client configured by the rules `tally gen` wrote into PlannedApp
// (the README's rules block is PlannedApp's Generated/TrackingPlan+Events.swift; PrivacyAndConsentDocTests
// tests what the client does with them).

import FirebaseAnalytics
import PlannedApp
import Tally

/// What the README leaves to the app: the ad network's destination, named `ads` as in the plan, and its hash
/// function.
func startAnalyticsFromThePlan(ads: any Destination, sha256: @escaping @Sendable (String) -> String)
    -> AnalyticsClient
{
    let analytics = AnalyticsClient(
        destinations: [FirebaseDestination(sdk: Analytics.self), ads],
        configuration: .init(rules: PlannedEvents.rules, hash: sha256)
    )
    return analytics
}
