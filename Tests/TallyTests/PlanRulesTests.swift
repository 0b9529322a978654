import Foundation
import Tally
import TallyTesting
import Testing

/// A client configured from a plan's runtime rules (`PlanRules`, as `tally gen` writes them) follows the
/// plan: consent, purposes per destination, each event's purpose, personal data and advertising identifiers.
@Suite struct PlanRulesTests {
    /// The consent example's rules, as `tally gen` writes them for its plan.
    static let rules = PlanRules(
        consentRequired: [.advertising, .analytics],
        purposes: [
            "ad_clicked": .advertising,
            "app_opened": .analytics,
            "consent_answered": .necessary,
            "newsletter_subscribed": .analytics,
            "identify": .analytics,
        ],
        personalProperties: [
            PersonalProperty(event: "ad_clicked", key: "idfa", kind: .advertisingIdentifier, rule: .send),
            PersonalProperty(event: "identify", key: "email", kind: .email, rule: .hash),
            PersonalProperty(event: "newsletter_subscribed", key: "email", kind: .email, rule: .hash),
            PersonalProperty(key: "comment", kind: .freeText, rule: .redact),
        ],
        purposesByDestination: ["ads": [.advertising], "product": [.analytics, .necessary]],
        domainsByDestination: ["ads": ["track.ads.example"]])

    private static func hash(_ value: String) -> String { "hash(\(value))" }

    private func client(
        _ destinations: [any Destination], configure: (inout AnalyticsClient.Configuration) -> Void = { _ in }
    ) -> AnalyticsClient {
        var configuration = AnalyticsClient.Configuration(rules: Self.rules, hash: Self.hash)
        configure(&configuration)
        return AnalyticsClient(destinations: destinations, configuration: configuration)
    }

    @Test func oneLineGivesTheClientThePlansConsentAndItsVendorsPurposes() async {
        let product = InMemoryDestination(name: "product")
        let ads = InMemoryDestination(name: "ads")
        let analytics = client([product, ads])
        analytics.track("app_opened")
        analytics.track(Event("ad_clicked").needing(.advertising))
        analytics.track(Event("consent_answered").needing(.necessary))
        await analytics.flush()
        #expect(product.events.map(\.name) == ["consent_answered"])
        #expect(ads.events.isEmpty)
        #expect(analytics.statistics.heldForConsent == 2)

        analytics.setConsent(.granted, for: .analytics)
        analytics.setConsent(.granted, for: .advertising)
        await analytics.flush()
        #expect(product.events.map(\.name) == ["consent_answered", "app_opened"])
        #expect(ads.events.map(\.name) == ["ad_clicked"])
        #expect(product.envelopes.map(\.consent) == [.notRequired, .granted])
        let statistics = analytics.statistics
        #expect(statistics.destinations["ads"]?.dropped == [.purposeNotAllowed: 2])
        #expect(statistics.destinations["product"]?.dropped == [.purposeNotAllowed: 1])
    }

    @Test func aPlannedEventTrackedForAnotherPurposeIsGatedAndRoutedByThePlansAndReported() async throws {
        let product = InMemoryDestination(name: "product")
        let problems = ProblemLog()
        let analytics = client([product]) { $0.onProblem = problems.add }
        // The plan says analytics: called necessary here, it would skip the user's answer.
        analytics.track(Event("app_opened").needing(.necessary))
        await analytics.flush()
        #expect(product.events.isEmpty)
        #expect(analytics.statistics.heldForConsent == 1)
        let problem = try #require(problems.all.first)
        #expect(problem.code == .purposeNotPlanned)
        #expect(problem.message == "Tracked for necessary, but the plan says analytics; sent as analytics")
        #expect(problem.outcome == .sanitized)
        #expect(problem.eventName == "app_opened")

        analytics.setConsent(.granted, for: .analytics)
        await analytics.flush()
        #expect(product.events == [Event("app_opened")])
    }

    @Test func anEventThePlanDoesNotListKeepsItsPurpose() async {
        let memory = InMemoryDestination(name: "product")
        let analytics = client([memory])
        analytics.track(Event("debug_ping").needing(.necessary))
        await analytics.flush()
        #expect(memory.events == [Event("debug_ping").needing(.necessary)])
        #expect(analytics.statistics.recentProblems.isEmpty)
    }

    @Test func personalDataFollowsThePlanAfterTheAppsOwnProcessors() async {
        let memory = InMemoryDestination(name: "product")
        let analytics = AnalyticsClient(
            // Added by the app's processor: the plan's rule still applies to it.
            processors: [.superProperties(["comment": "set by a processor"])], destinations: [memory],
            configuration: .init(rules: Self.rules, hash: Self.hash))
        analytics.setConsent(.granted, for: .analytics)
        analytics.track(Event("newsletter_subscribed", ["email": "ada@example.com"]))
        analytics.identify(userId: "u1", traits: ["email": "ada@example.com"])
        await analytics.flush()
        #expect(
            memory.events == [
                Event("newsletter_subscribed", ["email": "hash(ada@example.com)", "comment": "[redacted]"]),
                .identify(userId: "u1", traits: ["email": "hash(ada@example.com)"]),
            ])
    }

    @Test func withoutAHashFunctionValuesToHashAreRedactedAndReported() async throws {
        let memory = InMemoryDestination(name: "product")
        let problems = ProblemLog()
        var configuration = AnalyticsClient.Configuration(rules: Self.rules)
        configuration.onProblem = problems.add
        let analytics = AnalyticsClient(destinations: [memory], configuration: configuration)
        analytics.setConsent(.granted, for: .analytics)
        analytics.track(Event("newsletter_subscribed", ["email": "ada@example.com"]))
        await analytics.flush()
        #expect(memory.events == [Event("newsletter_subscribed", ["email": "[redacted]"])])
        #expect(problems.all.map(\.code) == [.personalDataNotHashed])
    }

    @Test func anAdvertisingIdentifierTravelsOnlyOnAdvertisingEventsAfterTheTrackingAnswer() async throws {
        let memory = InMemoryDestination(name: "product")
        let problems = ProblemLog()
        let analytics = client([memory]) { $0.onProblem = problems.add }
        analytics.setConsent(.granted, for: .analytics)
        // The identifier put on an analytics event (by a processor or a copied dictionary) never leaves.
        analytics.track(Event("app_opened", ["idfa": "6D92078A-8246-4BA4-AE5B-76104861E7DC"]))
        analytics.track(Event("ad_clicked", ["idfa": "6D92078A-8246-4BA4-AE5B-76104861E7DC"]).needing(.advertising))
        await analytics.flush()
        #expect(memory.events == [Event("app_opened")])
        let problem = try #require(problems.all.only)
        #expect(problem.code == .advertisingIdentifierRemoved)
        #expect(
            problem.message
                == "An advertising identifier (idfa) may travel only on advertising events, which wait for the user's tracking answer; this event's purpose is analytics, so it was removed"
        )

        // App Tracking Transparency denied: the advertising event, and its identifier, never leave.
        analytics.setConsent(ConsentStatus(trackingAuthorizationStatus: 2), for: .advertising)
        await analytics.flush()
        #expect(memory.events == [Event("app_opened")])
        #expect(analytics.statistics.dropped == [.consentDenied: 1])
    }

    @Test func theConfigurationsOwnEntriesJoinThePlans() async {
        let ads = InMemoryDestination(name: "ads")
        let analytics = client([ads]) { configuration in
            configuration.consentRequired = [.necessary]
            configuration.purposesByDestination = ["ads": [.advertising, .analytics]]
        }
        analytics.setConsent(.granted, for: .analytics)
        analytics.track("app_opened")
        analytics.track(Event("consent_answered").needing(.necessary))
        await analytics.flush()
        // The configuration named ads: its entry is used; it also gates necessary, on top of the plan's.
        #expect(ads.events.map(\.name) == ["app_opened"])
        #expect(analytics.statistics.heldForConsent == 1)
    }

    /// A destination the plan does not name (a misspelt vendor) would receive every purpose: the client says
    /// so when it starts; one the configuration names is the app's choice.
    @Test func aDestinationThePlanDoesNotNameIsReported() async throws {
        let problems = ProblemLog()
        let analytics = client([InMemoryDestination(name: "prodcut"), InMemoryDestination(name: "debug")]) {
            $0.onProblem = problems.add
            $0.purposesByDestination = ["debug": [.necessary]]
        }
        await analytics.flush()
        let problem = try #require(problems.all.only)
        #expect(problem.code == .destinationNotPlanned)
        #expect(
            problem.message
                == "The plan's rules name no destination \"prodcut\" (they name ads, product): it receives every purpose; name it as the plan does (PlannedEvents.Destinations), or give it its purposes in purposesByDestination"
        )
        #expect(problem.destination == "prodcut")
        #expect(problem.outcome == .reported)
        // Rules that name no destination route nothing, and say nothing.
        let quiet = ProblemLog()
        var configuration = AnalyticsClient.Configuration(rules: PlanRules(consentRequired: [.analytics]))
        configuration.onProblem = quiet.add
        await AnalyticsClient(destinations: [InMemoryDestination()], configuration: configuration).flush()
        #expect(quiet.all.isEmpty)
    }

    @Test func aClientWithoutRulesRunsNoPlanProcessor() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory])
        analytics.track(Event("app_opened", ["idfa": "x", "comment": "hi"]).needing(.necessary))
        await analytics.flush()
        #expect(memory.events == [Event("app_opened", ["idfa": "x", "comment": "hi"]).needing(.necessary)])
        #expect(Self.rules.purpose(of: Event("app_opened")) == .analytics)
        #expect(Self.rules.purpose(of: .identify(userId: "u1")) == .analytics)
        #expect(Self.rules.purpose(of: Event("unplanned")) == nil)
    }
}

/// Problems a client reports, read after a flush.
private final class ProblemLog: Sendable {
    private let problems = Locked<[Problem]>([])
    var all: [Problem] { problems.current }
    @Sendable func add(_ problem: Problem) { problems.withLock { $0.append(problem) } }
}
