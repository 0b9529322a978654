import Foundation
import Tally
import TallyPlan
import Testing

/// `tally gen` writes the plan's runtime rules beside the factories (`PlannedEvents.rules`), so an app
/// follows its plan without reading it.
@Suite("Generated rules", .readsPlans)
struct CodeGenRulesTests {
    static let plan = """
        version: 1
        consent: { required: [analytics, advertising] }
        destinations:
          product: { purposes: [analytics, necessary], domains: [api.product.example] }
          ads: { purposes: [advertising], domains: [track.ads.example] }
        events:
          - name: newsletter_subscribed
            description: The user subscribed to the newsletter.
            properties:
              email: { type: string, personal: { kind: email, rule: hash }, required: true }
          - name: ad_clicked
            description: The user opened an ad.
            purpose: advertising
            properties:
              idfa: { type: string, description: The device's advertising identifier, personal: { kind: advertising_id, rule: send } }
          - name: consent_answered
            description: The user answered the consent dialog.
            purpose: personalization
          - name: user
            kind: identify
            description: The signed-in user.
            properties:
              phone: { type: string, personal: { kind: phone, rule: never_send } }
        """

    @Test func theRulesAreWrittenAsPlainSwiftValues() throws {
        let source = SwiftCodeGenerator().generate(try TrackingPlan(text: Self.plan), planFileName: "plan.yaml")
        let rules = try #require(source.range(of: "    public static let rules = PlanRules(\n"))
        #expect(
            source[rules.lowerBound...].hasPrefix(
                """
                    public static let rules = PlanRules(
                        consentRequired: [.advertising, .analytics],
                        purposes: [
                            "ad_clicked": .advertising,
                            "consent_answered": "personalization",
                            "identify": .analytics,
                            "newsletter_subscribed": .analytics,
                        ],
                        personalProperties: [
                            PersonalProperty(
                                event: "ad_clicked", key: "idfa", kind: .advertisingIdentifier, rule: .send),
                            PersonalProperty(event: "identify", key: "phone", kind: .phone, rule: .neverSend),
                            PersonalProperty(
                                event: "newsletter_subscribed", key: "email", kind: .email, rule: .hash),
                        ],
                        purposesByDestination: [
                            "ads": [.advertising],
                            "product": [.analytics, .necessary],
                        ],
                        domainsByDestination: [
                            "ads": ["track.ads.example"],
                            "product": ["api.product.example"],
                        ]
                    )

                    /// The names of the plan's destinations (`destinations:`): name each vendor's destination with
                    /// one, so that `rules` gives it the purposes the plan allows it.
                    public enum Destinations {
                        public static let ads = "ads"
                        public static let product = "product"
                    }

                """))
        #expect(
            source.contains(
                "///   - email: `email`. Personal data (email): the client hashes it (`PlannedEvents.rules`).\n"))
        // A description without a full stop gets one before the mark.
        #expect(
            source.contains(
                "`idfa`: The device's advertising identifier. Personal data (advertising_id)"))
    }

    /// The generated fixture compiles into this test target: its rules are the plan's, value for value.
    @Test func theCompiledRulesAreThePlans() throws {
        let plan = try Fixtures.fixturePlan()
        #expect(PlannedEvents.rules == plan.rules)
        #expect(PlannedEvents.rules.purposes.count == 9)
        #expect(PlannedEvents.rules.personalProperties == plan.personalProperties)
    }

    /// An event whose enum namespace would be `Destinations` gets a number: the name is the destinations'.
    @Test func theDestinationNamesNeverCollideWithAnEventsTypes() throws {
        let plan = try TrackingPlan(
            text: """
                version: 1
                events:
                  - name: destinations
                    description: An event whose name is the namespace's.
                    properties:
                      kind: { enum: [a, b] }
                """)
        let source = SwiftCodeGenerator().generate(plan, planFileName: "p.yaml")
        #expect(source.contains("public enum Destinations2 {"))
        #expect(!source.contains("public enum Destinations {"))
    }

    @Test func thePlansRulesKeyEventsAsTheClientLooksThemUp() throws {
        let rules = try TrackingPlan(text: Self.plan).rules
        #expect(rules.purpose(of: Event("ad_clicked")) == .advertising)
        #expect(rules.purpose(of: .identify(userId: "u-1")) == .analytics)
        #expect(rules.consentRequired == [.analytics, .advertising])
        #expect(rules.purposesByDestination["ads"] == [.advertising])
        #expect(rules.domainsByDestination["product"] == ["api.product.example"])
    }
}
