import Tally
import TallyPlan
import TallyTesting
import Testing

// The plan is YAML: reading it needs the `Plans` trait, so a plain `swift test` skips this suite.
@Suite(
    .enabled(
        if: PlanLoader.canReadPlans,
        "needs the package trait Plans (Yams): swift test --traits Plans (CI enables every trait)"))
struct PlanExpectationTests {
    static let plan = try! TrackingPlan(
        text: """
            version: 1
            events:
              - name: menu_item_ordered
                description: An item was added to the order.
                properties:
                  item_name: { type: string, minLength: 1 }
                  quantity: { type: integer, minimum: 1 }
                required: [item_name]
            """, file: "plan.yaml")

    @Test func passesWhenEveryEventConforms() {
        let spy = AnalyticsSpy()
        spy.track("menu_item_ordered", ["item_name": "Pizza", "quantity": 2])
        #expect(spy.expectValid(against: Self.plan))
    }

    @Test func failsOnceListingEveryViolation() {
        let spy = AnalyticsSpy()
        spy.track("menu_item_ordered", ["item_name": "Pizza"])
        spy.track("menu_item_ordered", ["quantity": 0])
        spy.track("surprise")
        expectOneIssue(
            containing: [
                "Expected every event to be valid against the tracking plan, but 3 violations were found:",
                #"[1] track menu_item_ordered {"quantity":0}"#,
                "missingRequired at /properties/item_name",
                "outOfRange at /properties/quantity",
                "[2] track surprise",
                "unknownEvent at the event",
            ], atLine: #line + 2
        ) {
            spy.expectValid(against: Self.plan)
        }
    }

    @Test func worksOnTheClientsInMemoryDestinationToo() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory])
        analytics.track("menu_item_ordered", ["item_name": "Pasta"])
        await analytics.flush()
        #expect(memory.expectValid(against: PlanValidator(plan: Self.plan)))
    }
}
