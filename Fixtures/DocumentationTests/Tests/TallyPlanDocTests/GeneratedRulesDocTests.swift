// Tracking plans: "The plan's rules", one line configures a client from the rules the plugin generated into
// App beside its factories.

import Foundation
import Tally
import TallyPlan
import Testing

@testable import App

func ruledClient(destinations: [any Destination], sha256: @escaping @Sendable (String) -> String) -> AnalyticsClient {
    let analytics = AnalyticsClient(
        destinations: destinations,
        configuration: .init(rules: PlannedEvents.rules, hash: sha256))
    return analytics
}

@Test func theGeneratedRulesAreThePlans() throws {
    let plan = try TrackingPlan(contentsOf: URL(fileURLWithPath: "Sources/App/tracking-plan.yaml"))
    #expect(PlannedEvents.rules == plan.rules)
    #expect(PlannedEvents.rules.personalProperties.map(\.key) == ["email"])
}
