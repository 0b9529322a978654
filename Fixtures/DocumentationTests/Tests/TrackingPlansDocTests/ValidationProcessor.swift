// Tracking plans: "Personal data", redaction before validation.

import Tally
import TallyPlan

func redactingClient(plan: TrackingPlan, destinations: [any Destination]) -> AnalyticsClient {
    let analytics = AnalyticsClient(
        processors: [.redact(keys: ["email"]), .validate(against: plan, mode: .drop)],
        destinations: destinations
    )
    return analytics
}
