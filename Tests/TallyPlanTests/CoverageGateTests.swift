import Foundation
import Tally
import TallyTestSupport
import Testing

@testable import TallyPlan

/// `tally coverage` as a CI gate: each kind of drift in the recordings fails the run, naming the event and
/// the test line that recorded it.
@Suite(.readsPlans)
struct CoverageGateTests {
    static let origin = "/src/Tests/LoginTests.swift:12"

    /// One recording of `events`, each record carrying `origin`.
    static func recording(_ events: [Event], origin: String? = Self.origin) -> String {
        events.map { event in
            String(
                decoding: Record(
                    envelope: Envelope(
                        event: event, messageId: MessageID(prefix: 1, sequence: 1),
                        timestamp: Date(timeIntervalSince1970: 0),
                        anonymousId: "spy"),
                    source: "LoginTests/LoginTests.swift", origin: origin
                ).line, as: UTF8.self)
        }.joined()
    }

    /// The plan of ``RecordingCommandsTests`` and a folder holding one recording of `events`.
    static func setUp(_ events: [Event], origin: String? = Self.origin) throws -> (plan: String, folder: String) {
        let (plan, folder) = try RecordingCommandsTests.setUp([])
        try write(events, origin: origin, to: folder)
        return (plan, folder)
    }

    static func write(_ events: [Event], origin: String? = Self.origin, to folder: String) throws {
        try Data(recording(events, origin: origin).utf8).write(
            to: URL(fileURLWithPath: folder).appendingPathComponent("app.jsonl"))
    }

    static let everything = RecordingCommandsTests.everything

    @Test func everyValidEventPasses() throws {
        let (plan, folder) = try Self.setUp(Self.everything)
        let output = PlanTool.coverage(planPath: plan, recordings: [folder], minimum: 100)
        #expect(output.exitCode == 0, "\(output.standardError)")
        #expect(!output.standardError.contains("error:"))
    }

    @Test func aWrongValueFailsOncePerRuleWithItsCountAndTheTestLine() throws {
        let pinch = Event("login_tapped", ["action": "pinch"])
        let (plan, folder) = try Self.setUp(Self.everything + [pinch, pinch])
        let output = PlanTool.coverage(planPath: plan, recordings: [folder], minimum: 100)
        #expect(output.exitCode == 1)
        #expect(
            output.standardError.hasPrefix(
                #"/src/Tests/LoginTests.swift:12: error: plan violation: track "login_tapped" /properties/action: "pinch" is not in enum: ["tap","swipe"] (2 events)"#
                    + "\n"))
        #expect(output.standardError.contains("error: 2 plan violations in the recorded events"))
    }

    @Test func aWrongTypeFails() throws {
        let (plan, folder) = try Self.setUp(Self.everything + [Event("login_tapped", ["action": 1])])
        let output = PlanTool.coverage(planPath: plan, recordings: [folder])
        #expect(output.exitCode == 1)
        #expect(
            output.standardError.contains(
                #"/src/Tests/LoginTests.swift:12: error: plan violation: track "login_tapped" /properties/action: 1 is an integer, expected type: string"#
            ))
    }

    @Test func anUnplannedEventFailsAndWithoutAnOriginTheLineStartsWithError() throws {
        let (plan, folder) = try Self.setUp(Self.everything + [Event("promo_shown")], origin: nil)
        let output = PlanTool.coverage(planPath: plan, recordings: [folder], minimum: 100)
        #expect(output.exitCode == 1)
        #expect(
            output.standardError.hasPrefix(
                #"error: unplanned event: track "promo_shown": the event is not in the plan"# + "\n"))
    }

    @Test func anUnplannedPropertyFails() throws {
        let (plan, folder) = try Self.setUp(Self.everything + [Event("sign_up_tapped", ["coupon": "X"])])
        let output = PlanTool.coverage(planPath: plan, recordings: [folder])
        #expect(output.exitCode == 1)
        #expect(
            output.standardError.contains(
                #"/src/Tests/LoginTests.swift:12: error: unplanned property: track "sign_up_tapped" /properties/coupon: the plan does not declare this property"#
            ))
    }

    @Test func allowPlanViolationsReportsCoverageOnly() throws {
        let (plan, folder) = try Self.setUp(
            Self.everything + [Event("promo_shown"), Event("login_tapped", ["action": "pinch", "extra": 1])])
        let output = PlanTool.coverage(planPath: plan, recordings: [folder], minimum: 100, allowPlanViolations: true)
        #expect(output.exitCode == 0, "\(output.standardError)")
        #expect(!output.standardError.contains("error:"))
        #expect(output.standardOutput.contains("promo_shown"))  // still listed as unplanned in the report
    }

    @Test func anOriginInsideTheCurrentFolderIsPrintedRelative() throws {
        let inside = FileManager.default.currentDirectoryPath + "/Tests/AppTests/LoginTests.swift:40"
        let (plan, folder) = try Self.setUp(Self.everything + [Event("promo_shown")], origin: inside)
        let output = PlanTool.coverage(planPath: plan, recordings: [folder])
        #expect(
            output.standardError.hasPrefix(
                #"Tests/AppTests/LoginTests.swift:40: error: unplanned event: track "promo_shown""#))
    }

    @Test func aChangedCountFailsOnlyWithTheFlag() throws {
        let (plan, folder) = try Self.setUp(Self.everything)
        let baseline = URL(fileURLWithPath: folder).deletingLastPathComponent().appendingPathComponent("baseline.json")
            .path
        #expect(
            PlanTool.coverage(planPath: plan, recordings: [folder], baselinePath: baseline, writeBaseline: true)
                .exitCode == 0)
        #expect(
            PlanTool.coverage(planPath: plan, recordings: [folder], baselinePath: baseline, failOnCountChange: true)
                .exitCode
                == 0)

        // Someone logs the tap twice: still valid, still covered, but counted twice.
        try Self.write(Self.everything + [Event("login_tapped", ["action": "tap"])], to: folder)
        #expect(PlanTool.coverage(planPath: plan, recordings: [folder], baselinePath: baseline).exitCode == 0)
        let output = PlanTool.coverage(
            planPath: plan, recordings: [folder], baselinePath: baseline, failOnCountChange: true)
        #expect(output.exitCode == 1)
        #expect(
            output.standardError.contains(
                #"/src/Tests/LoginTests.swift:12: regression: track "login_tapped" was seen 1 time in the baseline, 2 now"#
            ))
        #expect(output.standardError.contains("error: 1 regression since the baseline"))
    }

    @Test func aRemovedEventIsOneRegressionNotAlsoACountChange() throws {
        let (plan, folder) = try Self.setUp(Self.everything)
        let baseline = URL(fileURLWithPath: folder).deletingLastPathComponent().appendingPathComponent("baseline.json")
            .path
        _ = PlanTool.coverage(planPath: plan, recordings: [folder], baselinePath: baseline, writeBaseline: true)
        try Self.write([.screen("Login"), Event("login_tapped", ["action": "tap"])], to: folder)
        let output = PlanTool.coverage(
            planPath: plan, recordings: [folder], baselinePath: baseline, failOnCountChange: true)
        #expect(output.exitCode == 1)
        #expect(output.standardError.contains(#"regression: track "sign_up_tapped" is no longer seen"#))
        #expect(output.standardError.contains("error: 1 regression since the baseline"))
    }

    @Test func aLostPropertyNamesTheLineThatStillRecordsTheEvent() throws {
        let (plan, folder) = try Self.setUp(Self.everything)
        let baseline = URL(fileURLWithPath: folder).deletingLastPathComponent().appendingPathComponent("baseline.json")
            .path
        _ = PlanTool.coverage(planPath: plan, recordings: [folder], baselinePath: baseline, writeBaseline: true)
        try Self.write([.screen("Login"), Event("login_tapped"), Event("sign_up_tapped")], to: folder)
        let output = PlanTool.coverage(
            planPath: plan, recordings: [folder], baselinePath: baseline, allowPlanViolations: true)
        #expect(output.exitCode == 1)
        #expect(
            output.standardError.contains(
                #"/src/Tests/LoginTests.swift:12: regression: track "login_tapped": property action is no longer seen"#)
        )
    }

    @Test func aBaselineWrittenBeforeCountChangesExistedIsStillRead() throws {
        let (plan, folder) = try Self.setUp(Self.everything)
        let baseline = URL(fileURLWithPath: folder).deletingLastPathComponent().appendingPathComponent("old.json")
        try Data(
            #"{"events":[{"count":1,"kind":"track","name":"login_tapped","properties":[{"count":1,"name":"action","plannedValues":["tap","swipe"],"seenValues":["tap"]}]}],"unplannedEvents":[]}"#
                .utf8
        ).write(to: baseline)
        let output = PlanTool.coverage(
            planPath: plan, recordings: [folder], baselinePath: baseline.path, failOnCountChange: true)
        #expect(output.exitCode == 0, "\(output.standardError)")
    }
}

// Runs the built `tally`: `Process` exists on macOS and Linux only.
#if os(macOS) || os(Linux)
@Suite("coverage gate, the built binary", .enabled(if: TallyBinary.hasCommandLine, TallyBinary.needsCommandLine))
struct CoverageGateBinaryTests {
    @Test func theFlagsAreDocumentedAndCheckedForUsage() throws {
        let help = try TallyBinary.run(["coverage", "--help"]).standardOutput
        #expect(help.contains("--allow-plan-violations"))
        #expect(help.contains("--fail-on-count-change"))
        let (plan, folder) = try CoverageGateTests.setUp(CoverageGateTests.everything)
        let usage = try TallyBinary.run(["coverage", "--plan", plan, "--recordings", folder, "--fail-on-count-change"])
        #expect(usage.exitCode == 64)
        #expect(usage.standardError.contains("--fail-on-count-change compares with --baseline FILE"))
    }

    @Test func anUnplannedEventFailsTheBinary() throws {
        let (plan, folder) = try CoverageGateTests.setUp(CoverageGateTests.everything + [Event("promo_shown")])
        let failed = try TallyBinary.run(["coverage", "--plan", plan, "--recordings", folder, "--min", "100"])
        #expect(failed.exitCode == 1)
        #expect(failed.standardError.contains(#"LoginTests.swift:12: error: unplanned event: track "promo_shown""#))
        let allowed = try TallyBinary.run([
            "coverage", "--plan", plan, "--recordings", folder, "--allow-plan-violations",
        ])
        #expect(allowed.exitCode == 0)
    }
}
#endif
