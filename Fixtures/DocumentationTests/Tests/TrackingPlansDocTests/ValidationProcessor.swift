// Tracking plans: "Personal data", a validation processor judging events before the plan's rules apply.

import Foundation
import PlannedApp
import Tally
import TallyPlan

func redactingClient(
    plan: TrackingPlan, destinations: [any Destination], sha256: @escaping @Sendable (String) -> String
) -> AnalyticsClient {
    let analytics = AnalyticsClient(
        processors: [.validate(against: plan, mode: .drop, stage: .tracked)],
        destinations: destinations,
        configuration: .init(rules: PlannedEvents.rules, hash: sha256)
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
