import Foundation
import IssueReporting
import Tally
import TallyPlan
import TallyTesting
import Testing

@Suite("The plan validation processor", .readsPlans)
struct PlanValidationProcessorTests {
    static let plan = try! TrackingPlan(
        text: """
            version: 1
            events:
              - name: order_placed
                description: An order was placed.
                properties:
                  total: { type: number, minimum: 0, required: true }
                  email: { type: string, personal: { kind: email, rule: redact } }
            """)

    static func envelope(_ event: Event) -> Envelope {
        Envelope(
            event: event, messageId: MessageID(prefix: 1, sequence: 1), timestamp: Date(timeIntervalSince1970: 0),
            anonymousId: "anon")
    }

    static let good = Event("order_placed", ["total": 10])
    static let bad = Event("order_placed", ["total": -1, "coupon": "X"])

    @Test func isNamedForDropCounting() {
        #expect(PlanValidationProcessor.validate(against: Self.plan, mode: .drop).name == "plan_validation")
    }

    @Test(arguments: PlanValidationProcessor.Mode.allCases)
    func conformingEventsPassUnchangedInEveryMode(_ mode: PlanValidationProcessor.Mode) {
        let problems = Collected<Problem>()
        let processor = PlanValidationProcessor.validate(against: Self.plan, mode: mode, reporter: problems.append)
        let envelope = Self.envelope(Self.good)
        #expect(processor.process(envelope) == envelope)
        #expect(problems.all.isEmpty)
    }

    @Test func offDeliversWithoutChecking() {
        let problems = Collected<Problem>()
        let processor = PlanValidationProcessor.validate(against: Self.plan, mode: .off, reporter: problems.append)
        #expect(processor.process(Self.envelope(Self.bad)) == Self.envelope(Self.bad))
        #expect(problems.all.isEmpty)
    }

    @Test func reportSendsOneProblemPerViolationAndDelivers() {
        let problems = Collected<Problem>()
        let processor = PlanValidationProcessor.validate(against: Self.plan, mode: .report, reporter: problems.append)
        #expect(processor.process(Self.envelope(Self.bad)) == Self.envelope(Self.bad))
        #expect(
            problems.all == [
                Problem(
                    .planViolation,
                    "unexpectedProperty: the plan does not declare this property (additionalProperties: false)",
                    outcome: .reported, eventName: "order_placed", path: "/properties/coupon"),
                Problem(
                    .planViolation, "outOfRange: -1 breaks minimum: 0", outcome: .reported, eventName: "order_placed",
                    path: "/properties/total"),
            ])
        #expect(problems.all.first?.code.rawValue == "plan_violation")
    }

    @Test func reportThroughARealClientReachesOnProblemAndTheStatistics() async {
        let problems = Collected<Problem>()
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(
            processors: [.validate(against: Self.plan, mode: .report)],
            destinations: [memory],
            configuration: .init(onProblem: problems.append))
        analytics.track(Self.bad)
        analytics.track(Self.good)
        await analytics.flush()
        #expect(memory.count == 2)
        #expect(problems.all.map(\.path) == ["/properties/coupon", "/properties/total"])
        #expect(analytics.statistics.recentProblems.map(\.path) == ["/properties/coupon", "/properties/total"])
        #expect(analytics.statistics.totalDropped == 0)
        await analytics.shutdown()
    }

    @Test func dropRemovesTheEventAndTheClientCountsIt() async {
        let problems = Collected<Problem>()
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(
            processors: [.validate(against: Self.plan, mode: .drop, reporter: problems.append)], destinations: [memory])
        analytics.track(Self.bad)
        analytics.track(Self.good)
        analytics.track(Event("unplanned"))
        await analytics.flush()
        #expect(memory.count == 1)
        #expect(analytics.statistics.dropped == [.filtered(by: "plan_validation"): 2])
        #expect(problems.all.map(\.outcome) == [.dropped, .dropped, .dropped])
        #expect(problems.all.last?.message == "unknownEvent: the event is not in the plan")
        await analytics.shutdown()
    }

    @Test func redactionBeforeValidationSatisfiesPII() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(
            processors: [.redact(keys: ["email"]), .validate(against: Self.plan, mode: .drop)], destinations: [memory])
        analytics.track(Event("order_placed", ["total": 1, "email": "ana@example.com"]))
        await analytics.flush()
        #expect(memory.count == 1)
        #expect(analytics.statistics.totalDropped == 0)
        await analytics.shutdown()

        let unredacted = AnalyticsClient(
            processors: [.validate(against: Self.plan, mode: .drop)], destinations: [memory])
        unredacted.track(Event("order_placed", ["total": 1, "email": "ana@example.com"]))
        await unredacted.flush()
        #expect(unredacted.statistics.dropped == [.filtered(by: "plan_validation"): 1])
        await unredacted.shutdown()
    }

    @Test func failInTestsReportsAnIssueAndDelivers() {
        let processor = PlanValidationProcessor.validate(against: Self.plan, mode: .failInTests)
        withKnownIssue {
            #expect(processor.process(Self.envelope(Self.bad)) == Self.envelope(Self.bad))
        } matching: { issue in
            issue.description.contains(
                """
                Event breaks the tracking plan (2 violations):
                  - track "order_placed" /properties/coupon: the plan does not declare this property (additionalProperties: false)
                  - track "order_placed" /properties/total: -1 breaks minimum: 0
                """)
        }
    }

    @Test func failInTestsSaysNothingForConformingEvents() {
        let processor = PlanValidationProcessor.validate(against: Self.plan, mode: .failInTests)
        // No withKnownIssue: an issue here would fail this test.
        #expect(processor.process(Self.envelope(Self.good)) != nil)
    }

    @Test func problemsFromViolationsCarryTheEventAndPath() {
        let violation = PlanViolation(
            .notInEnum, eventName: "e", path: "/properties/size", rule: #"enum: ["s"]"#, actual: "xl")
        let problem = Problem(violation, outcome: .reported)
        #expect(problem.code == .planViolation)
        #expect(problem.eventName == "e")
        #expect(problem.path == "/properties/size")
        #expect(problem.message == #"notInEnum: "xl" is not in enum: ["s"]"#)
        #expect(
            Problem(
                PlanViolation(.unknownEvent, eventName: "e", path: "", rule: "plan", actual: nil), outcome: .dropped
            ).path == nil)
    }
}
