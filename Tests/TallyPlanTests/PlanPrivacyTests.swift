import Foundation
import Tally
import TallyPlan
import Testing

/// What a plan says about privacy: personal marks, purposes, owners, expiry and the destinations' purposes,
/// read, linted, turned into the client's processor and into generated factories.
@Suite(.readsPlans) struct PlanPrivacyTests {
    static let plan = """
        version: 1
        consent: { required: [advertising] }
        destinations:
          firebase: { purposes: [analytics] }
          ads: { purposes: [advertising] }
        events:
          - name: signed_up
            description: The user made an account.
            owner: growth
            expires: 2027-06-30
            properties:
              email: { type: string, personal: { kind: email, rule: hash } }
              comment: { type: string, personal: free_text }
          - name: ad_clicked
            description: The user opened an ad.
            purpose: advertising
          - name: receipt_sent
            description: A receipt was e-mailed.
            purpose: necessary
          - name: old_banner_seen
            description: Left from a campaign.
            owner: marketing
            expires: 2026-01-31
          - name: partner_shared
            description: Shared with a partner.
            purpose: partners
          - kind: identify
            name: user
            description: Who the user is.
            properties:
              name: { type: string, personal: { kind: name, rule: never_send } }

        """

    @Test func thePlanReadsWhatItSaysAboutPrivacy() throws {
        let plan = try TrackingPlan(text: Self.plan)
        #expect(plan.destinations == ["firebase": [.analytics], "ads": [.advertising]])
        let signedUp = try #require(plan.event(named: "signed_up"))
        #expect(signedUp.purpose == .analytics)
        #expect(signedUp.owner == "growth")
        #expect(signedUp.expires == "2027-06-30")
        #expect(signedUp.properties["email"]?.personal == PersonalMark(kind: .email, rule: .hash))
        #expect(signedUp.properties["comment"]?.personal == PersonalMark(kind: .freeText, rule: nil))
        #expect(plan.event(named: "ad_clicked")?.purpose == .advertising)
    }

    @Test func lintFailsOnAnExpiredEventAPersonalPropertyWithNoRuleAndAPurposeNoDestinationMayReceive() throws {
        let url = try Fixtures.write(Self.plan)
        let output = PlanTool.lint(path: url.path, today: "2026-11-27")
        #expect(output.exitCode == 1)
        #expect(
            output.standardOutput == """
                \(url.path):13:7: error: Property 'comment' of 'signed_up' is personal (free_text) with no rule; add rule: send, hash, redact or never_send
                \(url.path):20:5: error: Event 'old_banner_seen' expired on 2026-01-31 (owner: marketing); remove it from the plan and the app, or extend 'expires'
                \(url.path):24:5: error: Event 'partner_shared' needs purpose 'partners', which no destination may receive (ads: advertising; firebase: analytics)
                \(url.path): 3 errors, 0 warnings

                """)
        // The day an event expires is its last day.
        let plan = try TrackingPlan(text: Self.plan)
        #expect(!plan.privacyDiagnostics(today: "2026-01-31").contains { $0.message.contains("expired") })
        #expect(plan.privacyDiagnostics(today: "2027-07-01").filter { $0.message.contains("expired") }.count == 2)
    }

    @Test func aPlanWithoutDestinationsChecksNoPurpose() throws {
        let plan = try TrackingPlan(
            text: "version: 1\nevents:\n  - name: a\n    description: x\n    purpose: partners\n")
        #expect(plan.privacyDiagnostics(today: "2026-11-27").isEmpty)
    }

    @Test func thePlansRulesBecomeTheClientsProcessor() async throws {
        let plan = try TrackingPlan(text: Self.plan)
        #expect(
            plan.personalProperties == [
                PersonalProperty(event: "identify", key: "name", kind: .name, rule: .neverSend),
                PersonalProperty(event: "signed_up", key: "comment", kind: .freeText, rule: .redact),
                PersonalProperty(event: "signed_up", key: "email", kind: .email, rule: .hash),
            ])
        let processor = plan.personalDataProcessor(hash: { "h(\($0.count))" })
        let envelope = Envelope(
            event: Event("signed_up", ["email": "ada@example.com", "comment": "hi"]),
            messageId: MessageID(prefix: 1, sequence: 1), timestamp: Date(timeIntervalSince1970: 0), anonymousId: "a")
        let output = try #require(processor.process(envelope))
        #expect(output.event.properties == ["email": "h(15)", "comment": "[redacted]"])
        // What the processor sends passes the plan's own rules.
        #expect(PlanValidator(plan: plan).validate(output.event).isEmpty)
        #expect(
            PlanValidator(plan: plan).validate(envelope.event).map(\.rule) == [
                "personal: free_text", "personal: email, rule: hash",
            ])
    }

    @Test func generatedFactoriesCarryThePurpose() throws {
        let plan = try TrackingPlan(text: Self.plan)
        let source = SwiftCodeGenerator().generate(plan, planFileName: "plan.yaml")
        #expect(source.contains(#"Event(kind: .track, name: "ad_clicked", purpose: "advertising")"#))
        #expect(source.contains(#"Event(kind: .track, name: "receipt_sent", purpose: "necessary")"#))
        #expect(!source.contains(#"name: "signed_up", properties: properties, purpose"#))
    }
    // MARK: Destination domains

    @Test func aDestinationNamesTheHostsItSendsTo() throws {
        let plan = try TrackingPlan(
            text: """
                version: 1
                destinations:
                  product: { purposes: [analytics], domains: [api.product.example] }
                  ads: { purposes: [advertising], domains: [Track.Ads.example, pixel.ads.example] }
                  console: { purposes: [analytics] }
                events: []
                """)
        #expect(plan.destinations == ["product": [.analytics], "ads": [.advertising], "console": [.analytics]])
        // Host names are case-insensitive: the plan keeps them lowercased.
        #expect(
            plan.destinationDomains == [
                "product": ["api.product.example"], "ads": ["track.ads.example", "pixel.ads.example"],
            ])
    }

    @Test func aDomainThatIsNotAHostNameIsAnErrorAtItsLine() throws {
        let text = """
            version: 1
            destinations:
              a: { purposes: [analytics], domains: ["https://api.a.example/v1"] }
              b: { purposes: [analytics], domains: ["api.b.example:443"] }
              c: { purposes: [analytics], domains: [api.c.example/upload] }
              d: { purposes: [analytics], domains: [""] }
              e: { purposes: [analytics], domains: ["api e.example"] }
              f: { purposes: [analytics], domains: api.f.example }
              g: { purposes: [analytics], domains: [[api.g.example]] }
            events: []
            """
        let result = PlanLoader.load(text: text, file: "plan.yaml")
        #expect(result.plan == nil)
        #expect(
            result.diagnostics.map(\.description) == [
                #"plan.yaml:3:41: error: 'domains' lists host names, not URLs, paths or ports: write "api.a.example", not "https://api.a.example/v1""#,
                #"plan.yaml:4:41: error: 'domains' lists host names, not URLs, paths or ports: write "api.b.example", not "api.b.example:443""#,
                #"plan.yaml:5:41: error: 'domains' lists host names, not URLs, paths or ports: write "api.c.example", not "api.c.example/upload""#,
                "plan.yaml:6:41: error: 'domains' lists host names, such as track.ads.example; an empty one is not one",
                #"plan.yaml:7:41: error: 'domains' lists host names, which hold no spaces: "api e.example""#,
                #"plan.yaml:8:40: error: 'domains' must be a list of strings, not "api.f.example""#,
                "plan.yaml:9:41: error: Each entry of 'domains' must be a string, not a list",
            ])
    }

    @Test func aHostSharedByATrackingAndANonTrackingDestinationIsAnError() throws {
        let text = """
            version: 1
            destinations:
              product: { purposes: [analytics], domains: [api.vendor.example, api.product.example] }
              ads: { purposes: [advertising], domains: [api.vendor.example] }
            events: []
            """
        let result = PlanLoader.load(text: text, file: "plan.yaml")
        #expect(result.plan == nil)
        #expect(
            result.diagnostics.map(\.description) == [
                "plan.yaml:3:47: error: Domain 'api.vendor.example' of destination 'product' is also a domain of 'ads', which receives advertising: the privacy manifest must list it in NSPrivacyTrackingDomains, and iOS then blocks product's uploads to it until the user allows tracking; give them different hosts"
            ])
    }
}
