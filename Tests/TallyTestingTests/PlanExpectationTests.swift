import Foundation
import Tally
import TallyPlan
import TallyTestSupport
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

    static let personalPlan = try! TrackingPlan(
        text: """
            version: 1
            events:
              - name: signed_up
                description: The user signed up.
                properties:
                  email: { type: string, personal: { kind: email, rule: hash }, required: true }
                  comment: { type: string, personal: { kind: free_text, rule: redact } }
                  referrer: { type: string, personal: { kind: user_id, rule: never_send } }
            """, file: "plan.yaml")

    /// A spy stands in for the client, so it sees what the app handed over, in the clear: judged as the
    /// client following the plan would deliver it, a correct spy test passes.
    @Test func aSpyTestOfAPersonalEventIsJudgedAfterThePlansRules() {
        let spy = AnalyticsSpy()
        spy.track(
            "signed_up", ["email": "ada@example.com", "comment": "call me at +44 20 7946 0958", "referrer": "u7"])
        #expect(spy.expectValid(against: Self.personalPlan))
        #expect(spy.expectValid(against: PlanValidator(plan: Self.personalPlan)))
    }

    /// What a destination received was delivered: the same values there broke the plan's rules.
    @Test func aDestinationsEventsAreJudgedAsDelivered() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory])
        analytics.track("signed_up", ["email": "ada@example.com", "referrer": "u7"])
        await analytics.flush()
        expectOneIssue(
            containing: [
                "but 2 violations were found:",
                "personalDataPresent at /properties/email: personal data sent against its rule (personal: email, rule: hash)",
                "personalDataPresent at /properties/referrer: personal data sent against its rule (personal: user_id, rule: never_send)",
            ], atLine: #line + 2
        ) {
            memory.expectValid(against: Self.personalPlan)
        }
    }

    /// Records read back keep the stage each was recorded at: a spy's record in the clear passes, the same
    /// values in a destination's record fail.
    @Test func recordsReadBackAreJudgedAtTheirOwnStage() throws {
        let folder = try TemporaryFolder()
        let event = Event("signed_up", ["email": "ada@example.com"])
        let envelope = Envelope(
            event: event, messageId: MessageID(prefix: 1, sequence: 1), timestamp: .init(), anonymousId: "a")
        let lines =
            Record(envelope: envelope, source: "spy", stage: .tracked).line
            + Record(envelope: envelope, source: "app").line
        let url = folder.url.appendingPathComponent("run.jsonl")
        try Data(lines).write(to: url)
        let reader = try RecordingReader(contentsOf: url)
        expectOneIssue(
            containing: [
                "but 1 violation was found:",
                "[1] track signed_up",
                "personalDataPresent at /properties/email",
            ], atLine: #line + 2
        ) {
            reader.expectValid(against: Self.personalPlan)
        }
    }
}
