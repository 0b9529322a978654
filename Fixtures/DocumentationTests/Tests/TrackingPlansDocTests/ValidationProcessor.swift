// Tracking plans: "Personal data", the plan's rules applied before validation.

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
