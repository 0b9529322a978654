import Foundation
import Tally
import TallyTestSupport
import TallyTesting
import Testing

@testable import TallyPlan

/// The client following the plan's rules and the gates judging its recordings read the plan the same way.
@Suite(.readsPlans)
struct PlanRulesAgreementTests {
    /// The rules name events by name, as `PersonalProperty` does: a track and a screen event of one name
    /// that differ would get one's rules at runtime, so lint fails at the screen's line.
    @Test func aScreenNamedLikeATrackEventWithOtherRulesIsALintError() throws {
        let text = """
            version: 1
            consent: { required: [analytics] }
            events:
              - name: checkout
                description: The user paid.
                purpose: necessary
              - name: checkout
                kind: screen
                description: The checkout screen appeared.
            """
        let plan = try TrackingPlan(text: text, file: "plan.yaml")
        #expect(
            plan.privacyDiagnostics(today: "2026-11-28").map(\.description) == [
                "plan.yaml:7:5: error: Screen 'checkout' shares its name with a track event that has other purpose ('necessary', here 'analytics'); the client's rules (PlannedEvents.rules) name events by name and would apply one's to both: rename one, or give both the same purpose and marks"
            ])
        let marked =
            text.replacingOccurrences(of: "    purpose: necessary\n", with: "")
            + "\n    properties:\n      email: { type: string, personal: { kind: email, rule: hash } }\n"
        #expect(
            try TrackingPlan(text: marked, file: "plan.yaml").privacyDiagnostics(today: "2026-11-28").map(\.message)
                == [
                    "Screen 'checkout' shares its name with a track event that has other personal marks; the client's rules (PlannedEvents.rules) name events by name and would apply one's to both: rename one, or give both the same purpose and marks"
                ])
        let same = text.replacingOccurrences(of: "    purpose: necessary\n", with: "")
        #expect(try TrackingPlan(text: same).privacyDiagnostics(today: "2026-11-28").isEmpty)
    }

    static let adPlan = """
        version: 1
        consent: { required: [analytics, advertising] }
        events:
          - name: app_opened
            description: The app opened.
            additionalProperties: true
          - name: ad_clicked
            description: The user opened an ad.
            purpose: advertising
            properties:
              idfa: { type: string, personal: { kind: advertising_id, rule: send } }
        """

    /// A key the plan marks as the advertising identifier on one event holds it on every event: the client
    /// removes it from a non-advertising event, and every gate reports it, even where the event's own plan
    /// entry allows any property.
    @Test func anAdvertisingIdentifierOnAnotherEventIsReportedWhereverTheClientWouldRemoveIt() throws {
        let plan = try TrackingPlan(text: Self.adPlan)
        let opened = Event("app_opened", ["idfa": "6D92078A-8246-4BA4-AE5B-76104861E7DC", "screen": "home"])
        for stage in Record.Stage.allCases {
            let found = PlanValidator(plan: plan).validate(opened, recordedAt: stage)
            #expect(found.map(\.kind) == [.advertisingIdentifierOutsideAdvertising], "\(stage)")
            #expect(found.first?.path == "/properties/idfa")
        }
        #expect(PlanValidator(plan: plan).validate(Event("app_opened", ["idfa": .null])).isEmpty)
        #expect(PlanValidator(plan: plan).validate(Event("app_opened", ["idfa": "[redacted]"])).isEmpty)
        #expect(PlanValidator(plan: plan).validate(Event("ad_clicked", ["idfa": "x"]).needing(.advertising)).isEmpty)
        // The client following the same plan removes it, with a problem.
        #expect(plan.rules.personalProperties.contains { $0.key == "idfa" && $0.kind == .advertisingIdentifier })
    }

    /// `expectValid(against: plan)` on a destination's events reads the consent each was delivered with, as
    /// `tally validate` does on the same destination's records.
    @Test func expectValidReportsWhatWentOutWithoutConsent() async throws {
        let plan = try TrackingPlan(text: Self.adPlan)
        let memory = InMemoryDestination()
        var configuration = AnalyticsClient.Configuration()
        configuration.consentRequired = [.advertising]  // analytics left ungated: a regression
        let analytics = AnalyticsClient(destinations: [memory], configuration: configuration)
        analytics.track(Event("app_opened"))
        await analytics.flush()
        withKnownIssue {
            memory.expectValid(against: plan)
        } matching: { issue in
            issue.description.contains(
                "sentWithoutConsent at the event: sent by a client that does not gate its purpose (consent required for analytics)"
            )
        }
        // The same record, read by tally validate, gives the same verdict.
        let line = Record(envelope: memory.envelopes[0]).line
        let fields = try line.withUnsafeBufferPointer { try Record.planFields(fromLine: $0) }
        #expect(
            PlanValidator(plan: plan).validate(fields.event, recordedAt: fields.stage, consent: fields.consent).map(
                \.kind)
                == [.sentWithoutConsent])
    }

    /// A validation processor runs before the plan's rules: told so (`stage: .tracked`), it judges events
    /// after them, so a correct personal event is not dropped before the client hashes it.
    @Test func aValidationProcessorJudgesEventsBeforeThePlansRulesApply() async throws {
        let plan = try TrackingPlan(
            text: """
                version: 1
                events:
                  - name: signed_up
                    description: The user made an account.
                    properties:
                      email: { type: string, personal: { kind: email, rule: hash }, required: true }
                """)
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(
            processors: [.validate(against: plan, mode: .drop, stage: .tracked)], destinations: [memory],
            configuration: .init(rules: plan.rules, hash: { "h\($0.count)" }))
        analytics.track(Event("signed_up", ["email": "ada@example.com"]))
        await analytics.flush()
        #expect(memory.events == [Event("signed_up", ["email": "h15"])])
        #expect(analytics.statistics.recentProblems.isEmpty)
        // Judged as delivered (the default), the address in the clear breaks the rule.
        let strict = PlanValidationProcessor(validator: PlanValidator(plan: plan), mode: .drop)
        let envelope = Envelope(
            event: Event("signed_up", ["email": "ada@example.com"]), messageId: MessageID(prefix: 0, sequence: 1),
            timestamp: Date(timeIntervalSince1970: 0), anonymousId: "a")
        #expect(strict.process(envelope) == nil)
    }
}
