import Foundation
import Tally
import TallyPlan
import Testing

/// `tally lint` fails where the plan contradicts what the other gates would then say about its events (issue
/// 33): an e-mail format with no personal mark (`tally validate` reports its values), an advertising
/// identifier outside advertising, and an event that flows without consent to a destination that may
/// receive advertising.
@Suite(.readsPlans) struct PrivacyLintTests {
    // MARK: Format and personal mark

    static let emailPlan = """
        version: 1
        events:
          - name: signed_up
            description: The user made an account.
            properties:
              email: { type: string, format: email }
              backup_email: { type: string, format: email, personal: { kind: email, rule: redact } }
              contact:
                type: object
                properties:
                  work_email: { type: string, format: email }
              invitees: { type: array, items: { type: string, format: email } }
              referrer:
                type: object
                personal: { kind: email, rule: send }
                properties:
                  address: { type: string, format: email }
        """

    @Test func anEmailFormatWithoutAPersonalMarkIsALintErrorAtItsLineAtAnyDepth() throws {
        let url = try Fixtures.write(Self.emailPlan)
        let lint = PlanTool.lint(path: url.path, today: "2026-11-28")
        #expect(lint.exitCode == 1)
        let unmarked =
            "but is not marked personal, so tally validate reports every value it sees there (personalDataUnmarked)"
        let advice = "\(unmarked); add personal: { kind: email, rule: ... }, with rule send, hash, redact or never_send"
        // Inside a property, only a mark the client can apply: on the top-level property, or send on it.
        func nested(_ holder: String) -> String {
            "\(unmarked); mark the top-level property '\(holder)' that holds it personal: { kind: email, rule: ... } (the client applies personal-data rules to top-level properties only), or mark this one personal: { kind: email, rule: send }"
        }
        #expect(
            lint.standardOutput == """
                \(url.path):6:7: error: Property 'email' of 'signed_up' holds e-mail addresses (format: email) \(advice)
                \(url.path):11:11: error: Property 'contact.work_email' of 'signed_up' holds e-mail addresses (format: email) \(nested("contact"))
                \(url.path):12:32: error: Property 'invitees[]' of 'signed_up' holds e-mail addresses (format: email) \(nested("invitees"))
                \(url.path): 3 errors, 0 warnings

                """, "\(lint.standardOutput)")
        // The same judgement tally validate makes by value, at the same properties; marked ones pass both.
        let plan = try TrackingPlan(text: Self.emailPlan)
        let validator = PlanValidator(plan: plan, scansUnmarkedValues: true)
        let event = Event(
            "signed_up",
            [
                "email": "ada@example.com", "backup_email": "[redacted]", "contact": ["work_email": "ada@work.example"],
                "invitees": ["bob@example.com"], "referrer": ["address": "eve@example.com"],
            ])
        #expect(
            validator.validate(event).map { "\($0.kind) \($0.path)" } == [
                "personalDataUnmarked /properties/contact/work_email", "personalDataUnmarked /properties/email",
                "personalDataUnmarked /properties/invitees/0",
            ])
    }

    @Test func aMarkedEmailFormatLintsClean() throws {
        let marked = Self.emailPlan.replacingOccurrences(
            of: "format: email }", with: "format: email, personal: { kind: email, rule: send } }")
        #expect(try TrackingPlan(text: marked).privacyDiagnostics(today: "2026-11-28").isEmpty)
        // Made in code, the finding points at the plan.
        let inCode = TrackingPlan(events: [
            PlannedEvent(name: "e", properties: ["to": PropertySchema(types: [.string], format: .email)])
        ])
        #expect(
            inCode.privacyDiagnostics(today: "2026-11-28").map(\.location.description) == ["plan"])
    }

    // MARK: The advertising identifier

    @Test func theAdvertisingIdentifierOnAnEventOfAnotherPurposeIsALintErrorAtItsLine() throws {
        let text = """
            version: 1
            events:
              - name: app_opened
                description: The app opened.
                properties:
                  idfa: { type: string, personal: { kind: advertising_id, rule: hash } }
                  device:
                    type: object
                    properties:
                      ad_id: { type: string, personal: { kind: advertising_id, rule: send } }
              - name: ad_clicked
                description: The user opened an ad.
                purpose: advertising
                properties:
                  idfa: { type: string, personal: { kind: advertising_id, rule: send } }
            """
        let url = try Fixtures.write(text)
        let lint = PlanTool.lint(path: url.path, today: "2026-11-28")
        #expect(lint.exitCode == 1)
        #expect(
            lint.standardOutput == """
                \(url.path):6:7: error: Property 'idfa' of 'app_opened' is the advertising identifier (personal: advertising_id), which may travel only on events of purpose advertising, but the event's purpose is analytics; move the property to an advertising event, or give this one purpose: advertising
                \(url.path):10:11: error: Property 'device.ad_id' of 'app_opened' is the advertising identifier (personal: advertising_id), which may travel only on events of purpose advertising, but the event's purpose is analytics; move the property to an advertising event, or give this one purpose: advertising
                \(url.path): 2 errors, 0 warnings

                """, "\(lint.standardOutput)")
    }

    // MARK: Consent and advertising destinations

    static let routedPlan = """
        version: 1
        consent: { required: [advertising] }
        destinations:
          product: { purposes: [analytics, necessary] }
          ads: { purposes: [advertising, analytics] }
          pixel: { purposes: [advertising, analytics, necessary] }
        events:
          - name: app_opened
            description: The app opened.
          - name: receipt_sent
            description: A receipt was e-mailed.
            purpose: necessary
          - name: ad_clicked
            description: The user opened an ad.
            purpose: advertising
        """

    @Test func anEventWithoutConsentThatAnAdvertisingDestinationMayReceiveIsALintErrorAtItsLine() throws {
        let url = try Fixtures.write(Self.routedPlan)
        let lint = PlanTool.lint(path: url.path, today: "2026-11-28")
        #expect(lint.exitCode == 1)
        #expect(
            lint.standardOutput == """
                \(url.path):8:5: error: Event 'app_opened' may reach destinations 'ads' and 'pixel', which receive advertising, without the user's consent: 'consent.required' does not list its purpose 'analytics'; require consent for it (consent: { required: [analytics] }), or take 'analytics' off the purposes of 'ads' and 'pixel'
                \(url.path):10:5: error: Event 'receipt_sent' may reach destination 'pixel', which receives advertising, without the user's consent: its purpose 'necessary' never asks for it; take 'necessary' off the purposes of 'pixel'
                \(url.path): 2 errors, 0 warnings

                """, "\(lint.standardOutput)")
        // Requiring consent for analytics and keeping necessary events off advertising destinations fixes both.
        let fixed = Self.routedPlan.replacingOccurrences(
            of: "required: [advertising]", with: "required: [analytics, advertising]"
        )
        .replacingOccurrences(of: "[advertising, analytics, necessary]", with: "[advertising, analytics]")
        #expect(try TrackingPlan(text: fixed).privacyDiagnostics(today: "2026-11-28").isEmpty)
    }

    /// With no `consent:` block no purpose needs consent, so whatever an advertising destination may receive
    /// flows to it unasked; without `destinations:` the plan says nothing about where events go.
    @Test func aPlanWithoutConsentRequiresItForNothing() throws {
        let plan = try TrackingPlan(
            text: """
                version: 1
                destinations:
                  ads: { purposes: [advertising] }
                events:
                  - name: ad_clicked
                    description: The user opened an ad.
                    purpose: advertising
                """)
        #expect(
            plan.privacyDiagnostics(today: "2026-11-28").map(\.description) == [
                "plan.yaml:5:5: error: Event 'ad_clicked' may reach destination 'ads', which receives advertising, without the user's consent: 'consent.required' does not list its purpose 'advertising'; require consent for it (consent: { required: [advertising] }), or take 'advertising' off the purposes of 'ads'"
            ])
        let undirected = try TrackingPlan(
            text: "version: 1\nevents:\n  - name: ad_clicked\n    description: x\n    purpose: advertising\n")
        #expect(undirected.privacyDiagnostics(today: "2026-11-28").isEmpty)
    }

    // MARK: The repository's plans

    /// Every plan of the repository lints: the examples', the fixtures', and every whole plan the docs show.
    /// The consent example's planted copy fails on its expired event only, as it must.
    @Test func everyPlanOfTheRepositoryAndTheDocsLints() throws {
        let root = Fixtures.packageRoot
        let files = [
            "Examples/Consent/tracking-plan.yaml", "Examples/tracking-plan.yaml",
            "Fixtures/ConsumerWorkflows/tracking-plan.yaml",
            "Fixtures/DocumentationTests/Sources/App/tracking-plan.yaml",
            "Fixtures/DocumentationTests/tracking-plan.yaml", "Plugins/TallyPlanGeneratorFixture/tracking-plan.yaml",
            "Tests/TallyPlanTests/Fixtures/fixture-plan.yaml", "Tests/TallyPlanTests/Fixtures/fixture-plan.json",
        ]
        for file in files {
            let lint = PlanTool.lint(path: root.appendingPathComponent(file).path, today: "2026-11-28")
            #expect(lint.exitCode == 0, "\(file): \(lint.standardOutput)")
        }
        let planted = PlanTool.lint(
            path: root.appendingPathComponent("Examples/Consent/planted/expired-plan.yaml").path, today: "2026-11-28")
        #expect(planted.standardOutput.components(separatedBy: "error:").count == 2, "\(planted.standardOutput)")
        #expect(planted.standardOutput.contains("error: Event 'promo_banner_shown' expired on"))
        var checked = 0
        for article in [
            "Sources/TallyPlan/Documentation.docc/TrackingPlans.md",
            "Sources/TallyPlan/Documentation.docc/TallyPlan.md",
        ] {
            let text = try String(contentsOf: root.appendingPathComponent(article), encoding: .utf8)
            for (index, block) in text.components(separatedBy: "```yaml\n").dropFirst().enumerated() {
                let plan = block.components(separatedBy: "```").first ?? ""
                guard plan.hasPrefix("version: 1") else { continue }
                let url = try Fixtures.write(plan)
                let lint = PlanTool.lint(path: url.path, today: "2026-11-28")
                #expect(lint.exitCode == 0, "\(article), YAML block \(index + 1): \(lint.standardOutput)")
                checked += 1
            }
        }
        #expect(checked >= 2)
    }
}
