// Tracking plans: "Personal data", the plan's rules applied before validation.

import Foundation
import Tally
import TallyPlan

func redactingClient(
    plan: TrackingPlan, destinations: [any Destination], sha256: @escaping @Sendable (String) -> String
) -> AnalyticsClient {
    let analytics = AnalyticsClient(
        processors: [plan.personalDataProcessor(hash: sha256), .validate(against: plan, mode: .drop)],
        destinations: destinations
    )
    return analytics
}

// Tracking plans: "The privacy manifest", the same from Swift.
func manifestGaps(plan: TrackingPlan, appManifest: URL) throws -> (gaps: [String], merged: String) {
    let manifest = PrivacyManifest(plan: plan)
    let gaps = try manifest.gaps(in: Data(contentsOf: appManifest))  // one line per gap
    let (text, added) = try manifest.merged(into: Data(contentsOf: appManifest))
    _ = added
    return (gaps, text)
}

// Tracking plans: "Privacy and consent", the client gating the purposes the plan gates.
func gatingClient(plan: TrackingPlan, destinations: [any Destination]) -> AnalyticsClient {
    var configuration = AnalyticsClient.Configuration()
    configuration.consentRequired = plan.consentRequired
    return AnalyticsClient(destinations: destinations, configuration: configuration)
}
