import Shop
import Tally
import TallyTesting
import Testing

/// Unit tests with spies and a client's in-memory destination. Run with TALLY_RECORD_DIR set, every spy and
/// destination writes what it saw to that folder, which `tally validate` and `tally coverage --min 100` then
/// check against tracking-plan.yaml (`check`): a spy's records as the app handed them over (the plan's
/// personal-data rules applied by the check, as the client would), a destination's as delivered.
@Suite(.exhaustive) struct RecordingTests {
    @Test func viewingAProductTracksIt() {
        let spy = AnalyticsSpy()
        ShopModel(analytics: spy).view(product: "p1")
        spy.expectTracked(.productViewed(id: "p1"))
    }

    @Test func checkingOutTracksTheTotal() {
        let spy = AnalyticsSpy()
        ShopModel(analytics: spy).checkout(total: 19.5)
        spy.expectTracked(.checkoutCompleted(total: 19.5))
    }

    /// A spy sees the address in the clear, as the app hands it to the client: not a violation.
    @Test func signingUpTracksTheAddress() {
        let spy = AnalyticsSpy()
        ShopModel(analytics: spy).signUp(email: "ada@example.com")
        spy.expectTracked(.signedUp(email: "ada@example.com"))
    }

    /// Through the client, the address leaves hashed. (The rule is the plan's; an app would take
    /// `PlannedEvents.rules` from `tally gen` instead of writing it here.)
    @Test func theClientHashesTheAddress() async {
        let memory = InMemoryDestination()
        let rules = PlanRules(
            personalProperties: [PersonalProperty(event: "signed_up", key: "email", kind: .email, rule: .hash)])
        let analytics = AnalyticsClient(
            destinations: [memory], configuration: .init(rules: rules, hash: { "h\($0.utf8.count)" }))
        ShopModel(analytics: analytics).signUp(email: "ada@example.com")
        await analytics.flush()
        memory.expectTracked(.signedUp(email: "h15"))
        // A probe with a property the plan does not have, kept out of the run's recordings.
        let probe = InMemoryDestination(writesRunRecording: false)
        let probed = AnalyticsClient(destinations: [probe])
        probed.track(.init("signed_up", ["email": "h1", "debug": true]))
        await probed.flush()
        probe.expectCount(1)
    }

    /// A spy probing with a property the plan does not have, kept out of the run's recordings too.
    @Test func aProbeSpyIsNotRecorded() {
        let probe = AnalyticsSpy(writesRunRecording: false)
        probe.track(.init("checkout_completed", ["total": 1, "debug": true]))
        probe.expectCount(1)
    }
}
