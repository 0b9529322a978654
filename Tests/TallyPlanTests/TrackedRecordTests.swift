import Foundation
import Tally
import TallyTestSupport
import Testing

@testable import TallyPlan

/// One meaning for every recording: a spy's records (`Record.Stage.tracked`) hold what the app handed over,
/// before the client's rules, and `tally validate` and `tally coverage` judge them as the client following
/// the plan would deliver them; a destination's records are judged as they are.
@Suite(.readsPlans)
struct TrackedRecordTests {
    static let plan = """
        version: 1
        events:
          - name: signed_up
            description: The user made an account.
            properties:
              email: { type: string, personal: { kind: email, rule: hash }, required: true }
              name: { type: string, personal: { kind: name, rule: redact } }
              referrer: { type: string, personal: { kind: user_id, rule: never_send } }
        """

    /// What a spy test of signing up records: five sign-ups, each with its address in the clear, as the
    /// app hands it to the client.
    static let signUps = (1...5).map { number in
        Event("signed_up", ["email": .string("user\(number)@example.com"), "name": "Ada", "referrer": "u\(number)"])
    }

    private func setUp(stage: Record.Stage) throws -> (plan: String, folder: String) {
        let folder = try Fixtures.temporaryDirectory()
        let plan = folder.appendingPathComponent("plan.yaml")
        try Data(Self.plan.utf8).write(to: plan)
        let recordings = folder.appendingPathComponent("recordings")
        try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
        let lines = Self.signUps.enumerated().flatMap { index, event in
            Record(
                envelope: Envelope(
                    event: event, messageId: MessageID(prefix: 0, sequence: UInt64(index + 1)),
                    timestamp: Date(timeIntervalSince1970: 0), anonymousId: "spy"),
                source: "SignUpTests.swift", origin: "Tests/AppTests/SignUpTests.swift:12", stage: stage
            ).line
        }
        try Data(lines).write(to: recordings.appendingPathComponent("tests.jsonl"))
        return (plan.path, recordings.path)
    }

    @Test func aSpyTestOfAPersonalEventPassesValidateAndCoverage() throws {
        let (plan, folder) = try setUp(stage: .tracked)
        let validate = PlanTool.validate(planPath: plan, recordings: [folder])
        #expect(validate.exitCode == 0)
        #expect(validate.standardOutput == "Checked 5 events from 1 recording: every event is valid\n")
        let coverage = PlanTool.coverage(planPath: plan, recordings: [folder], minimum: 100)
        #expect(coverage.exitCode == 0)
    }

    @Test func theSameValuesDeliveredBreakThePlansRules() throws {
        let (plan, folder) = try setUp(stage: .delivered)
        let validate = PlanTool.validate(planPath: plan, recordings: [folder])
        #expect(validate.exitCode == 1)
        #expect(
            validate.standardOutput.hasPrefix(
                """
                track "signed_up": 5 of 5 events break the plan
                  ×5 Tests/AppTests/SignUpTests.swift:12: track "signed_up" /properties/email: personal data sent against its rule (personal: email, rule: hash)
                """))
        #expect(validate.standardOutput.contains("/properties/name: personal data sent against its rule"))
        #expect(validate.standardOutput.contains("/properties/referrer: personal data sent against its rule"))
        #expect(PlanTool.coverage(planPath: plan, recordings: [folder], minimum: 100).exitCode == 1)
    }

    /// What the client's rules would make of a tracked event is what is judged: a value it hashes passes
    /// the hash rule, and a property the plan forbids in other ways still fails.
    @Test func aTrackedEventIsJudgedAfterTheRulesNotExemptFromThePlan() throws {
        let validator = PlanValidator(plan: try TrackingPlan(text: Self.plan))
        #expect(validator.validate(Self.signUps[0], recordedAt: .tracked).isEmpty)
        #expect(validator.validate(Self.signUps[0], recordedAt: .delivered).map(\.kind).count == 3)
        let wrong = Event("signed_up", ["email": 42, "coupon": "SPRING"])
        #expect(validator.validate(wrong, recordedAt: .tracked).map(\.kind) == [.unexpectedProperty])
    }
}
