// TallyPlan.md: validating events in tests, in the client, and tracking the generated factories.

import Foundation
import Tally
import TallyPlan
import TallyTesting
import Testing

@testable import App

@Test func orderingTracksAPlannedEvent() throws {
    let plan = try TrackingPlan(contentsOf: URL(fileURLWithPath: "tracking-plan.yaml"))
    let validator = PlanValidator(plan: plan)
    let spy = AnalyticsSpy()
    OrderModel(analytics: spy).order(.pizza)
    #expect(validator.validate(spy.events) == [])
}

func validatingClient(plan: TrackingPlan, firebase: FirebaseSpy, log: @escaping @Sendable (Problem) -> Void)
    -> AnalyticsClient
{
    let analytics = AnalyticsClient(
        processors: [.redact(keys: ["email"]), .validate(against: plan, mode: .report, reporter: log)],
        destinations: [FirebaseDestination(adapter: firebase)]
    )
    return analytics
}

func trackGenerated(analytics: AnalyticsClient) {
    analytics.track(.menuItemOrdered(itemName: "Pizza", quantity: 1, size: .large))
}
