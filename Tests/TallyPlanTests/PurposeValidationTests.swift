import Foundation
import Tally
import TallyPlan
import TallyTesting
import Testing

/// Every gate that judges events by the plan (`PlanValidator`, so `tally validate`, `tally coverage` and
/// `expectValid(against:)`) reports an event recorded with another purpose than its plan entry's, and an
/// advertising identifier on an event not of purpose advertising (issue 33).
@Suite(.readsPlans) struct PurposeValidationTests {
    // MARK: Purpose

    static let purposePlan = """
        version: 1
        consent: { required: [analytics, advertising] }
        events:
          - name: app_opened
            description: The app opened.
          - name: ad_clicked
            description: The user opened an ad.
            purpose: advertising
            properties:
              idfa: { type: [string, "null"], personal: { kind: advertising_id, rule: send } }
          - kind: identify
            name: user
            description: Who the user is.
            purpose: necessary
        """

    @Test func anEventRecordedWithAnotherPurposeThanThePlansIsAViolation() throws {
        let validator = PlanValidator(plan: try TrackingPlan(text: Self.purposePlan))
        let found = validator.validate(Event("ad_clicked"))
        #expect(found.map(\.kind) == [.purposeMismatch])
        #expect(
            found.first?.description
                == #"track "ad_clicked" /purpose: recorded with purpose analytics, but the plan's event needs purpose advertising: the client would gate it on the wrong consent and route it to the wrong destinations; track it with .needing(.advertising) (the generated factory sets it), or change the plan's 'purpose'"#
        )
        #expect(found.first?.rule == "purpose: advertising")
        #expect(found.first?.actual == "analytics")
        #expect(validator.validate(Event("ad_clicked").needing(.advertising)).isEmpty)
        // Identify, group and alias events compare with the plan's event of their kind.
        let identify = Event.identify(userId: "user-42")
        #expect(
            validator.validate(identify).map { "\($0.kind) \($0.path) \($0.rule)" } == [
                "purposeMismatch /purpose purpose: necessary"
            ])
        #expect(validator.validate(identify.needing(.necessary)).isEmpty)
        // A purpose of one's own is named as a string.
        let partners = PlanValidator(
            plan: TrackingPlan(events: [PlannedEvent(name: "shared", purpose: "partners")]))
        #expect(partners.validate(Event("shared")).first?.message.contains(#".needing("partners")"#) == true)
        // Before the violations of the properties, after the one of consent.
        #expect(
            validator.validate(Event("app_opened", ["x": 1]).needing(.advertising), consent: .denied).map(\.kind) == [
                .sentWithoutConsent, .purposeMismatch, .unexpectedProperty,
            ])
    }

    @Test func expectValidReportsTheWrongPurpose() throws {
        let plan = try TrackingPlan(text: Self.purposePlan)
        let spy = AnalyticsSpy()
        spy.track(Event("ad_clicked"))
        let messages = Self.issues { spy.expectValid(against: plan) }
        #expect(messages.count == 1)
        #expect(
            messages.first?.contains(
                "purposeMismatch at /purpose: recorded with purpose analytics, but the plan's event needs purpose advertising"
            ) == true, "\(messages)")
    }

    @Test func validateAndCoverageReportTheWrongPurposeWhereItWasRecorded() throws {
        let (plan, folder) = try Self.record(
            [Event("ad_clicked"), Event("ad_clicked"), Event("ad_clicked").needing(.advertising)],
            plan: Self.purposePlan)
        let output = PlanTool.validate(planPath: plan, recordings: [folder])
        #expect(output.exitCode == 1)
        #expect(
            output.standardOutput == """
                track "ad_clicked": 2 of 3 events break the plan
                  ×2 Tests/AdTests.swift:9: track "ad_clicked" /purpose: recorded with purpose analytics, but the plan's event needs purpose advertising: the client would gate it on the wrong consent and route it to the wrong destinations; track it with .needing(.advertising) (the generated factory sets it), or change the plan's 'purpose'
                Checked 3 events from 1 recording: 2 violations in 2 events

                """, "\(output.standardOutput)")
        let coverage = PlanTool.coverage(planPath: plan, recordings: [folder])
        #expect(coverage.exitCode == 1)
        #expect(
            coverage.standardError.contains(
                #"Tests/AdTests.swift:9: error: wrong purpose: track "ad_clicked" /purpose: recorded with purpose analytics"#
            ), "\(coverage.standardError)")
    }

    // MARK: The advertising identifier

    @Test func theAdvertisingIdentifierOnAnEventOfAnotherPurposeIsAViolation() throws {
        let validator = PlanValidator(plan: try TrackingPlan(text: Self.purposePlan))
        let found = validator.validate(Event("ad_clicked", ["idfa": "6D92078A-8246-4BA4-AE5B-76104861E7DC"]))
        #expect(found.map(\.kind) == [.purposeMismatch, .advertisingIdentifierOutsideAdvertising])
        #expect(
            found.last?.description
                == #"track "ad_clicked" /properties/idfa: the advertising identifier (personal: advertising_id, rule: send, not shown) travels on an event of purpose analytics; it may travel only on events of purpose advertising, which the user's tracking consent gates: leave it out of this event, or send it on an advertising one"#
        )
        #expect(!found.last!.description.contains("6D92078A"))
        // Sent for advertising, or not carried (null, redacted, absent): no violation of it.
        let advertising = Event("ad_clicked", ["idfa": "6D92078A-8246-4BA4-AE5B-76104861E7DC"]).needing(.advertising)
        #expect(validator.validate(advertising).isEmpty)
        #expect(validator.validate(Event("ad_clicked", ["idfa": .null])).map(\.kind) == [.purposeMismatch])
        #expect(validator.validate(Event("ad_clicked", ["idfa": "[redacted]"])).map(\.kind) == [.purposeMismatch])
        // A plan that marks it on an analytics event (which lint refuses) fails the events that carry it.
        let analyticsPlan = TrackingPlan(events: [
            PlannedEvent(
                name: "app_opened",
                properties: [
                    "device": PropertySchema(
                        types: [.object],
                        properties: [
                            "idfa": PropertySchema(personal: PersonalMark(kind: .advertisingIdentifier, rule: .send))
                        ])
                ])
        ])
        let report = PlanValidator(plan: analyticsPlan).violationReport(for: [
            Event("app_opened", ["device": ["idfa": "x"]])
        ])
        #expect(
            report[0]?.first?.hasPrefix(
                "advertisingIdentifierOutsideAdvertising at /properties/device/idfa: the advertising identifier")
                == true,
            "\(report)")
    }

    // MARK: Marks inside properties

    /// A mark inside a property covers its values for the value scan as it does for the rules: `send` lets
    /// the address through, and nothing calls it unmarked.
    @Test func aNestedMarkCoversItsValuesInTheValueScan() throws {
        let plan = try TrackingPlan(
            text: """
                version: 1
                events:
                  - name: shared
                    description: Shared with a contact.
                    properties:
                      contact:
                        type: object
                        properties:
                          email: { type: string, personal: { kind: email, rule: send } }
                          note: { type: string }
                      cc: { type: array, items: { type: string, personal: { kind: email, rule: send } } }
                """)
        let validator = PlanValidator(plan: plan, scansUnmarkedValues: true)
        let event = Event(
            "shared",
            ["contact": ["email": "ada@example.com", "note": "call +44 20 7946 0958"], "cc": ["bob@example.com"]])
        #expect(
            validator.validate(event).map { "\($0.kind) \($0.path)" } == [
                "personalDataUnmarked /properties/contact/note"
            ])
    }

    // MARK: Support

    /// The comments of the issues `body` reports, which are expected.
    static func issues(_ body: () -> Void) -> [String] {
        let collected = Collected<String>()
        withKnownIssue {
            body()
        } matching: { issue in
            collected.append(issue.comments.map(\.rawValue).joined(separator: "\n"))
            return true
        }
        return collected.all
    }

    /// A plan file and a folder holding one recording of `events`, each delivered and recorded at
    /// `Tests/AdTests.swift:9`.
    static func record(_ events: [Event], plan text: String) throws -> (plan: String, folder: String) {
        let folder = try Fixtures.temporaryDirectory()
        let plan = folder.appendingPathComponent("plan.yaml")
        try Data(text.utf8).write(to: plan)
        let recordings = folder.appendingPathComponent("recordings")
        try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
        let lines = events.enumerated().flatMap { index, event in
            Record(
                envelope: Envelope(
                    event: event, messageId: MessageID(prefix: 1, sequence: UInt64(index + 1)),
                    timestamp: Date(timeIntervalSince1970: 0), anonymousId: "a", consent: .granted),
                source: "app", origin: "Tests/AdTests.swift:9"
            ).line
        }
        try Data(lines).write(to: recordings.appendingPathComponent("app.jsonl"))
        return (plan.path, recordings.path)
    }
}
