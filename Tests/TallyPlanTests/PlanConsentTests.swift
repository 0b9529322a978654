import Foundation
import Tally
import Testing

@testable import TallyPlan

/// The purposes a plan says need consent (`consent: { required: [...] }`), and the events recordings show
/// were delivered without it: `PlanValidator.validate(_:consent:)`, `tally validate`, `tally coverage`.
@Suite(.readsPlans) struct PlanConsentTests {
    static let plan = """
        version: 1
        consent:
          description: Asked on first launch.
          required: [analytics, advertising]
        events:
          - name: opened
            description: The app opened.
          - name: ad_clicked
            description: The user opened an ad.
            purpose: advertising
          - name: receipt_sent
            description: A receipt was e-mailed.
            purpose: necessary
        """

    @Test func thePlanSaysWhichPurposesNeedConsent() throws {
        #expect(try TrackingPlan(text: Self.plan).consentRequired == [.analytics, .advertising])
        #expect(try TrackingPlan(text: "version: 1\nevents: []\n").consentRequired == [])
    }

    @Test func necessaryCanNeverNeedConsentAndOtherMistakesAreNamed() throws {
        let text = """
            version: 1
            consent:
              required: [analytics, necessary]
              requierd: [advertising]
            events: []
            """
        let result = PlanLoader.load(text: text, file: "plan.yaml")
        #expect(result.plan == nil)
        #expect(
            result.diagnostics.map(\.description) == [
                "plan.yaml:3:25: error: 'consent.required' cannot list 'necessary': it is the purpose of what is strictly needed and never asks for consent",
                "plan.yaml:4:3: warning: Unknown key of 'consent' 'requierd' is ignored; did you mean 'required'?",
            ])
        let url = try Fixtures.write(text)
        let lint = PlanTool.lint(path: url.path, today: "2026-11-27")
        #expect(lint.exitCode != 0)
        #expect(
            (lint.standardOutput + lint.standardError).contains(
                "\(url.path):3:25: error: 'consent.required' cannot list 'necessary'"))
        let notAList = PlanLoader.load(text: "version: 1\nconsent: { required: analytics }\nevents: []\n", file: "p")
        #expect(notAList.errors.map(\.message) == ["'consent.required' must be a list of strings, not \"analytics\""])
    }

    /// A purpose listed as needing consent that no event of the plan needs is most likely misspelt: the
    /// client would then gate `analytic` and send `analytics` events ungated. The plan contradicts itself, so
    /// lint fails at the purpose's place; the plan still loads, as with every privacy finding, so that the
    /// build plugin, `validate` and the tests keep working while it is fixed.
    @Test func aRequiredPurposeNoEventNeedsIsAnErrorAtItsLine() throws {
        let text = """
            version: 1
            consent:
              required: [analytic, advertising, location]
            events:
              - name: opened
                description: The app opened.
              - name: ad_clicked
                description: The user opened an ad.
                purpose: advertising
            """
        let result = PlanLoader.load(text: text, file: "plan.yaml")
        let plan = try #require(result.plan)
        #expect(result.diagnostics.isEmpty)
        let errors = [
            "plan.yaml:3:14: error: 'consent.required' lists 'analytic', which no event of the plan needs; did you mean 'analytics'?",
            "plan.yaml:3:37: error: 'consent.required' lists 'location', which no event of the plan needs; remove it, or give it to the events that need it ('purpose: location')",
        ]
        #expect(plan.privacyDiagnostics().map(\.description) == errors)
        let url = try Fixtures.write(text)
        let lint = PlanTool.lint(path: url.path, today: "2026-11-27")
        #expect(lint.exitCode == 1)
        #expect(lint.standardOutput.contains("\(url.path):3:14: error: 'consent.required' lists 'analytic'"))
        #expect(lint.standardOutput.contains("2 errors, 0 warnings"))
        // Every purpose listed is needed by an event; a plan with no event yet is not reported either.
        #expect(try TrackingPlan(text: Self.plan).privacyDiagnostics().isEmpty)
        let draft = try TrackingPlan(text: "version: 1\nconsent: { required: [analytics] }\nevents: []\n")
        #expect(draft.privacyDiagnostics().isEmpty)
    }

    @Test func anEventDeliveredWithoutConsentForARequiredPurposeIsAViolation() throws {
        let validator = PlanValidator(plan: try TrackingPlan(text: Self.plan))
        let adClicked = Event("ad_clicked").needing(.advertising)
        let found = validator.validate(adClicked, consent: .notAsked)
        #expect(found.map(\.kind) == [.sentWithoutConsent])
        #expect(
            found.first?.description
                == #"track "ad_clicked": sent while the user's consent was not_asked (consent required for advertising); hold it until the user grants it, and drop it on denial"#
        )
        #expect(found.first?.actual == "not_asked")
        #expect(validator.validate(Event("opened"), consent: .denied).map(\.rule) == ["consent required for analytics"])
        // Before the violations of the event itself.
        #expect(
            validator.validate(Event("opened", ["extra": 1]), consent: .denied).map(\.kind) == [
                .sentWithoutConsent, .unexpectedProperty,
            ])
        let envelope = Envelope(
            event: adClicked, messageId: MessageID(prefix: 1, sequence: 1), timestamp: Date(), anonymousId: "a",
            consent: .denied)
        #expect(validator.validate(envelope).map(\.kind) == [.sentWithoutConsent])
    }

    @Test func anEventOfARequiredPurposeTheClientDidNotGateIsAViolation() throws {
        let validator = PlanValidator(plan: try TrackingPlan(text: Self.plan))
        let found = validator.validate(Event("opened"), consent: .notRequired)
        #expect(found.map(\.kind) == [.sentWithoutConsent])
        #expect(
            found.first?.description
                == #"track "opened": sent by a client that does not gate its purpose (consent required for analytics); add the purpose to the client's consentRequired"#
        )
        #expect(found.first?.actual == "not_required")
    }

    @Test func grantedUnknownAndUngatedPurposesAreNot() throws {
        let validator = PlanValidator(plan: try TrackingPlan(text: Self.plan))
        #expect(validator.validate(Event("opened"), consent: .granted).isEmpty)
        // No answer: nothing gated it, or the record predates answers in recordings.
        #expect(validator.validate(Event("opened"), consent: nil).isEmpty)
        #expect(validator.validate(Event("receipt_sent").needing(.necessary), consent: .notAsked).isEmpty)
        #expect(validator.validate(Event("receipt_sent").needing(.necessary), consent: .notRequired).isEmpty)
        let ungated = PlanValidator(
            plan: try TrackingPlan(text: Self.plan.replacingOccurrences(of: "analytics, ", with: "")))
        #expect(ungated.validate(Event("opened"), consent: .denied).isEmpty)
        #expect(ungated.validate(Event("opened"), consent: .notRequired).isEmpty)
    }

    // MARK: Recordings

    /// A plan and a folder holding one recording, each event with its answer, recorded at `origin`.
    static func setUp(_ events: [(Event, DeliveredConsent?)], origin: String) throws -> (plan: String, folder: String) {
        let folder = try Fixtures.temporaryDirectory()
        let plan = folder.appendingPathComponent("plan.yaml")
        try Data(Self.plan.utf8).write(to: plan)
        let recordings = folder.appendingPathComponent("recordings")
        try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
        let lines = events.enumerated().flatMap { index, pair in
            Record(
                envelope: Envelope(
                    event: pair.0, messageId: MessageID(prefix: 1, sequence: UInt64(index + 1)),
                    timestamp: Date(timeIntervalSince1970: 0), anonymousId: "a", consent: pair.1),
                source: "app", origin: origin
            ).line
        }
        try Data(lines).write(to: recordings.appendingPathComponent("app.jsonl"))
        return (plan.path, recordings.path)
    }

    static let recorded: [(Event, DeliveredConsent?)] = [
        (Event("opened"), nil),  // an older record, or a client without consent
        (Event("opened"), .granted),
        (Event("ad_clicked").needing(.advertising), .notAsked),
        (Event("ad_clicked").needing(.advertising), .notAsked),
        (Event("receipt_sent").needing(.necessary), nil),
    ]

    @Test func validateReportsEventsSentWithoutConsentWithWhereTheyWereTracked() throws {
        let (plan, folder) = try Self.setUp(Self.recorded, origin: "Tests/AdTests.swift:9")
        let output = PlanTool.validate(planPath: plan, recordings: [folder])
        #expect(output.exitCode == 1)
        #expect(
            output.standardOutput == """
                track "ad_clicked": 2 of 2 events break the plan
                  ×2 Tests/AdTests.swift:9: track "ad_clicked": sent while the user's consent was not_asked (consent required for advertising); hold it until the user grants it, and drop it on denial
                Checked 5 events from 1 recording: 2 violations in 2 events

                """, "\(output.standardOutput)")
        let json = try PropertyValue(
            json: PlanTool.validate(planPath: plan, recordings: [folder], json: true).standardOutput)
        let violation = json.objectValue?["events"]?.arrayValue?.first?.objectValue?["violations"]?.arrayValue?.first
        #expect(violation?.objectValue?["kind"] == "sentWithoutConsent")
        #expect(violation?.objectValue?["origin"] == "Tests/AdTests.swift:9")
    }

    @Test func coverageReportsThemToo() throws {
        let (plan, folder) = try Self.setUp(Self.recorded, origin: "Tests/AdTests.swift:9")
        let coverage = PlanTool.coverage(planPath: plan, recordings: [folder])
        #expect(coverage.exitCode == 1)
        #expect(
            coverage.standardError.contains(
                #"Tests/AdTests.swift:9: error: sent without consent: track "ad_clicked": sent while the user's consent was not_asked (consent required for advertising)"#
            ), "\(coverage.standardError)")
    }

    @Test func aPurposeTheAppForgotToGateIsReportedByValidateAndCoverage() throws {
        let (plan, folder) = try Self.setUp(
            [
                (Event("opened"), .notRequired),
                (Event("receipt_sent").needing(.necessary), .notRequired),
                (Event("ad_clicked").needing(.advertising), .granted),
            ], origin: "Tests/HomeTests.swift:12")
        let output = PlanTool.validate(planPath: plan, recordings: [folder])
        #expect(output.exitCode == 1)
        #expect(
            output.standardOutput == """
                track "opened": 1 of 1 event breaks the plan
                  ×1 Tests/HomeTests.swift:12: track "opened": sent by a client that does not gate its purpose (consent required for analytics); add the purpose to the client's consentRequired
                Checked 3 events from 1 recording: 1 violation in 1 event

                """, "\(output.standardOutput)")
        let coverage = PlanTool.coverage(planPath: plan, recordings: [folder])
        #expect(coverage.exitCode == 1)
        #expect(
            coverage.standardError.contains(
                #"Tests/HomeTests.swift:12: error: sent without consent: track "opened": sent by a client that does not gate its purpose"#
            ), "\(coverage.standardError)")
    }

    @Test func eachAnswerIsCountedApartForItCallsForAnotherFix() throws {
        let (plan, folder) = try Self.setUp(
            [(Event("opened"), .notRequired), (Event("opened"), .denied), (Event("opened"), .denied)],
            origin: "Tests/HomeTests.swift:12")
        let output = PlanTool.validate(planPath: plan, recordings: [folder])
        #expect(output.exitCode == 1)
        #expect(
            output.standardOutput == """
                track "opened": 3 of 3 events break the plan
                  ×2 Tests/HomeTests.swift:12: track "opened": sent while the user's consent was denied (consent required for analytics); hold it until the user grants it, and drop it on denial
                  ×1 Tests/HomeTests.swift:12: track "opened": sent by a client that does not gate its purpose (consent required for analytics); add the purpose to the client's consentRequired
                Checked 3 events from 1 recording: 3 violations in 3 events

                """, "\(output.standardOutput)")
        let coverage = PlanTool.coverage(planPath: plan, recordings: [folder])
        #expect(coverage.exitCode == 1)
        #expect(coverage.standardError.contains("sent by a client that does not gate its purpose"))
        #expect(
            coverage.standardError.contains("sent while the user's consent was denied"), "\(coverage.standardError)")
    }

    @Test func recordingsThatSayNothingOfConsentPass() throws {
        // No `consent` member at all: a client without consent, or a recording from before it existed.
        let (plan, folder) = try Self.setUp(
            [(Event("opened"), nil), (Event("ad_clicked").needing(.advertising), nil)], origin: "T.swift:1")
        #expect(PlanTool.validate(planPath: plan, recordings: [folder]).exitCode == 0)
        #expect(PlanTool.coverage(planPath: plan, recordings: [folder]).exitCode == 0)
    }

    @Test func recordingsWithTheUsersGrantPass() throws {
        let (plan, folder) = try Self.setUp(
            [(Event("opened"), .granted), (Event("ad_clicked").needing(.advertising), .granted)], origin: "T.swift:1")
        #expect(PlanTool.validate(planPath: plan, recordings: [folder]).exitCode == 0)
        #expect(PlanTool.coverage(planPath: plan, recordings: [folder]).exitCode == 0)
    }
}
