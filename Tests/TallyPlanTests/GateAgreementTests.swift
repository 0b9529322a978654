import Foundation
import Tally
import TallyPlan
import TallyTesting
import Testing

/// A `TrackingPlan` judges as `tally validate` judges: `spy.expectValid(against: plan)` scans the values of
/// properties the plan does not mark `personal`, as `tally validate`, `tally coverage` and the collector do,
/// so a spy test passes exactly when those gates would pass its records (issue 33). A `PlanValidator` the
/// test builds keeps its own setting.
@Suite(.readsPlans) struct GateAgreementTests {
    static let plan = """
        version: 1
        events:
          - name: feedback_sent
            description: The user sent feedback.
            properties:
              comment: { type: string, required: true }
        """

    /// A comment holding an e-mail address, in a property the plan does not mark personal.
    static let feedback = Event("feedback_sent", ["comment": "write to ada@example.com"])

    @Test func expectValidAgainstAPlanReportsUnmarkedPersonalDataAsTallyValidateDoes() throws {
        let plan = try TrackingPlan(text: Self.plan)
        let spy = AnalyticsSpy()
        spy.track(Self.feedback)
        let messages = PurposeValidationTests.issues { spy.expectValid(against: plan) }
        #expect(messages.count == 1)
        #expect(
            messages.first?.contains(
                "personalDataUnmarked at /properties/comment: a value that looks like personal data (email, not shown)")
                == true, "\(messages)")

        // tally validate on the spy's record (stage tracked) reports the same property.
        let folder = try Fixtures.temporaryDirectory()
        let planFile = folder.appendingPathComponent("plan.yaml")
        try Data(Self.plan.utf8).write(to: planFile)
        let record = Record(
            envelope: Envelope(
                event: Self.feedback, messageId: MessageID(prefix: 1, sequence: 1),
                timestamp: Date(timeIntervalSince1970: 0), anonymousId: "spy"),
            source: "FeedbackTests", origin: "Tests/FeedbackTests.swift:7", stage: .tracked)
        try Data(record.line).write(to: folder.appendingPathComponent("spy.jsonl"))
        let validate = PlanTool.validate(planPath: planFile.path, recordings: [folder.path])
        #expect(validate.exitCode == 1)
        #expect(
            validate.standardOutput.contains(
                #"Tests/FeedbackTests.swift:7: track "feedback_sent" /properties/comment: a value that looks like personal data (email, not shown)"#
            ), "\(validate.standardOutput)")

        // The plan's other shortcuts judge alike.
        #expect(plan.violations(in: [Self.feedback]).map(\.kind) == [.personalDataUnmarked])
        #expect(plan.validate(Self.feedback).map(\.kind) == [.personalDataUnmarked])
    }

    @Test func aValidatorTheTestBuildsKeepsItsOwnSetting() throws {
        let plan = try TrackingPlan(text: Self.plan)
        let spy = AnalyticsSpy()
        spy.track(Self.feedback)
        #expect(spy.expectValid(against: PlanValidator(plan: plan)))
        let scanning = PlanValidator(plan: plan, scansUnmarkedValues: true)
        #expect(PurposeValidationTests.issues { spy.expectValid(against: scanning) }.count == 1)
    }
}
