import Foundation
import Tally
import TallyPlan
import Testing

/// `tally lint` fails on a personal-data rule the plan cannot keep (issue 33): a rule other than `send` on a
/// schema inside a property, which the client never applies (it applies rules to top-level properties
/// only), and value keywords on a hashed property, which no hash is checked against.
@Suite(.readsPlans) struct PersonalRuleLintTests {
    // MARK: Rules inside a property

    static let nestedPlan = """
        version: 1
        events:
          - name: signed_up
            description: The user made an account.
            properties:
              contact:
                type: object
                properties:
                  email: { type: string, personal: { kind: email, rule: hash } }
                  phone: { type: string, personal: { kind: phone, rule: send } }
              invitees: { type: array, items: { type: string, personal: { kind: email, rule: redact } } }
              extras:
                type: object
                additionalProperties: { type: string, personal: { kind: free_text, rule: never_send } }
              referrer:
                type: object
                properties:
                  name: { type: string, personal: { kind: name } }
        """

    @Test func aRuleOtherThanSendInsideAPropertyIsALintErrorAtItsLine() throws {
        let url = try Fixtures.write(Self.nestedPlan)
        let lint = PlanTool.lint(path: url.path, today: "2026-11-28")
        #expect(lint.exitCode == 1)
        let cannot =
            "but the client applies personal-data rules to top-level properties only, so this value would leave the app as it is, against its rule"
        #expect(
            lint.standardOutput == """
                \(url.path):9:11: error: Property 'contact.email' of 'signed_up' is personal (email) with rule hash, \(cannot); mark the top-level property 'contact' that holds it instead (its rule applies to its whole value), and give this one rule: send
                \(url.path):11:32: error: Property 'invitees[]' of 'signed_up' is personal (email) with rule redact, \(cannot); mark the top-level property 'invitees' that holds it instead (its rule applies to its whole value), and give this one rule: send
                \(url.path):14:9: error: Property 'extras.*' of 'signed_up' is personal (free_text) with rule never_send, \(cannot); mark the top-level property 'extras' that holds it instead (its rule applies to its whole value), and give this one rule: send
                \(url.path):18:11: error: Property 'referrer.name' of 'signed_up' is personal (name) with no rule; add rule: send (the client applies personal-data rules to top-level properties only: to hash, redact or never send it, mark the top-level property 'referrer' that holds it)
                \(url.path): 4 errors, 0 warnings

                """, "\(lint.standardOutput)")
    }

    /// Why: the plan's personal properties (what a client applies) are the top-level ones, so a nested value
    /// is delivered as the app tracked it, and validation then reports it.
    @Test func theClientDeliversANestedValueAsItIsAndValidationReportsIt() throws {
        let plan = try TrackingPlan(text: Self.nestedPlan)
        #expect(plan.personalProperties.isEmpty)
        var event = Event("signed_up", ["contact": ["email": "ada@example.com"]])
        _ = plan.personalDataProcessor(hash: { _ in "5d41402abc4b2a76" }).apply(to: &event)
        #expect(event.properties["contact"] == ["email": "ada@example.com"])
        #expect(
            PlanValidator(plan: plan).validate(event).map { "\($0.kind) \($0.path)" } == [
                "personalDataPresent /properties/contact/email"
            ])
    }

    /// Marking the top-level property, and sending what is inside it under that rule, lints clean and
    /// delivers valid events.
    @Test func aRuleOnTheTopLevelPropertyLintsCleanAndHolds() throws {
        let fixed = """
            version: 1
            events:
              - name: signed_up
                description: The user made an account.
                properties:
                  contact:
                    type: object
                    personal: { kind: email, rule: redact }
                    properties:
                      email: { type: string, format: email, personal: { kind: email, rule: send } }
                      work_email: { type: string, format: email }
                  invitees: { type: array, items: { type: string, format: email, personal: { kind: email, rule: send } } }
            """
        let plan = try TrackingPlan(text: fixed)
        #expect(plan.privacyDiagnostics(today: "2026-11-28").map(\.description) == [])
        var event = Event(
            "signed_up", ["contact": ["email": "ada@example.com", "work_email": "ada@work.example"]])
        _ = plan.personalDataProcessor().apply(to: &event)
        #expect(event.properties["contact"] == "[redacted]")
        #expect(PlanValidator(plan: plan, scansUnmarkedValues: true).validate(event) == [])
    }

    // MARK: An e-mail format inside a property

    /// The e-mail format lint asks for what the client can do: inside a property, a mark on the top-level
    /// property that holds it, or a `send` mark on it.
    @Test func aNestedEmailFormatAsksForAMarkTheClientCanApply() throws {
        let text = """
            version: 1
            events:
              - name: signed_up
                description: The user made an account.
                properties:
                  contact:
                    type: object
                    properties:
                      email: { type: string, format: email }
            """
        let url = try Fixtures.write(text)
        let lint = PlanTool.lint(path: url.path, today: "2026-11-28")
        #expect(
            lint.standardOutput == """
                \(url.path):9:11: error: Property 'contact.email' of 'signed_up' holds e-mail addresses (format: email) but is not marked personal, so tally validate reports every value it sees there (personalDataUnmarked); mark the top-level property 'contact' that holds it personal: { kind: email, rule: ... } (the client applies personal-data rules to top-level properties only), or mark this one personal: { kind: email, rule: send }
                \(url.path): 1 error, 0 warnings

                """, "\(lint.standardOutput)")
        // Either fix lints clean; a rule other than send on the property itself does not.
        let onTheHolder = text.replacingOccurrences(
            of: "    type: object\n", with: "    type: object\n        personal: { kind: email, rule: never_send }\n")
        let sentAsItIs = text.replacingOccurrences(
            of: "format: email }", with: "format: email, personal: { kind: email, rule: send } }")
        let redactedInside = text.replacingOccurrences(
            of: "format: email }", with: "format: email, personal: { kind: email, rule: redact } }")
        #expect(try TrackingPlan(text: onTheHolder).privacyDiagnostics(today: "2026-11-28").isEmpty)
        #expect(try TrackingPlan(text: sentAsItIs).privacyDiagnostics(today: "2026-11-28").isEmpty)
        #expect(try TrackingPlan(text: redactedInside).privacyDiagnostics(today: "2026-11-28").count == 1)
    }

    // MARK: A hash of an e-mail format

    static let hashedPlan = """
        version: 1
        events:
          - name: signed_up
            description: The user made an account.
            properties:
              email: { type: string, format: email, personal: { kind: email, rule: hash } }
        """

    /// A hash keeps nothing of the value: validation treats it as opaque, so the value keywords on a hashed
    /// property are never checked, and lint says so (a warning: the plan still works).
    @Test func valueKeywordsOnAHashedPropertyAreAWarningAtItsLine() throws {
        let url = try Fixtures.write(Self.hashedPlan)
        let lint = PlanTool.lint(path: url.path, today: "2026-11-28")
        #expect(lint.exitCode == 0)
        #expect(
            lint.standardOutput == """
                \(url.path):6:7: warning: Property 'email' of 'signed_up' has personal rule hash, so 'format: email' is never checked: the client sends a hash, which keeps nothing of the value, and validation only checks that it no longer looks like the data; remove it, or use rule send
                \(url.path): 1 event, 1 warning

                """, "\(lint.standardOutput)")
        // A correctly hashed value, delivered or judged as a spy's tracked event, is valid; one that still
        // looks like the address is not.
        let plan = try TrackingPlan(text: Self.hashedPlan)
        var event = Event("signed_up", ["email": "ada@example.com"])
        let validator = PlanValidator(plan: plan)
        #expect(validator.validate(event, recordedAt: .tracked).isEmpty)
        #expect(validator.validate(event).map(\.kind) == [.personalDataPresent])
        _ = plan.personalDataProcessor(hash: { _ in "5d41402abc4b2a76" }).apply(to: &event)
        #expect(validator.validate(event).isEmpty)
        let bounded = try TrackingPlan(
            text: Self.hashedPlan.replacingOccurrences(of: "format: email,", with: "maxLength: 20, minLength: 10,"))
        #expect(PlanValidator(plan: bounded).validate(event).isEmpty)
        #expect(
            bounded.privacyDiagnostics(today: "2026-11-28").map(\.message) == [
                "Property 'email' of 'signed_up' has personal rule hash, so 'minLength' and 'maxLength' are never checked: the client sends a hash, which keeps nothing of the value, and validation only checks that it no longer looks like the data; remove them, or use rule send"
            ])
    }

    /// A hash is a string whatever the plan declares, and keeps nothing of a number's range or a
    /// container's shape: those keywords are never checked either, and lint names each. A nullable string
    /// type is what a hash is, so it is not named.
    @Test func aHashedPropertysTypeAndOtherKeywordsAreNamed() throws {
        func messages(_ schema: String) throws -> [String] {
            try TrackingPlan(
                text: Self.hashedPlan.replacingOccurrences(
                    of: "{ type: string, format: email, personal: { kind: email, rule: hash } }",
                    with: schema)
            ).privacyDiagnostics(today: "2026-11-28").map(\.message)
        }
        #expect(
            try messages("{ type: integer, minimum: 0, personal: { kind: email, rule: hash } }") == [
                "Property 'email' of 'signed_up' has personal rule hash, so 'type: integer' and 'minimum' are never checked: the client sends a hash, which keeps nothing of the value, and validation only checks that it no longer looks like the data; remove them, or use rule send"
            ])
        #expect(
            try messages(
                "{ type: [object, \"null\"], properties: { a: { type: string } }, required: [a], personal: { kind: email, rule: hash } }"
            ) == [
                "Property 'email' of 'signed_up' has personal rule hash, so 'type: object', 'properties' and 'required' are never checked: the client sends a hash, which keeps nothing of the value, and validation only checks that it no longer looks like the data; remove them, or use rule send"
            ])
        #expect(
            try messages("{ type: [string, number], maxItems: 3, personal: { kind: email, rule: hash } }") == [
                "Property 'email' of 'signed_up' has personal rule hash, so 'type: [string, number]' and 'maxItems' are never checked: the client sends a hash, which keeps nothing of the value, and validation only checks that it no longer looks like the data; remove them, or use rule send"
            ])
        #expect(try messages("{ type: [string, \"null\"], personal: { kind: email, rule: hash } }").isEmpty)
        #expect(try messages("{ personal: { kind: email, rule: hash } }").isEmpty)
    }

    /// `redact` (a redacted value is not checked further), `never_send` (absent) and `send` (the address
    /// itself) agree with the format; so does a hash without it.
    @Test func otherRulesOnAnEmailFormatLintClean() throws {
        for replacement in ["rule: redact", "rule: never_send", "rule: send"] {
            let plan = try TrackingPlan(text: Self.hashedPlan.replacingOccurrences(of: "rule: hash", with: replacement))
            #expect(plan.privacyDiagnostics(today: "2026-11-28").isEmpty, "\(replacement)")
        }
        let unformatted = try TrackingPlan(text: Self.hashedPlan.replacingOccurrences(of: " format: email,", with: ""))
        #expect(unformatted.privacyDiagnostics(today: "2026-11-28").isEmpty)
    }
}
