import Tally
import TallyTesting
import Testing

/// The pipeline examples of "Testing your analytics", as written there: they run in exhaustive mode.
@Suite(.exhaustive)
struct ExhaustiveArticleTests {
    @Test func emailsNeverLeaveTheApp() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(processors: [.redact(keys: ["email"])], destinations: [memory])
        analytics.identify(userId: "u1", traits: ["email": "ada@example.com"])
        await analytics.flush()
        memory.expectTracked(.identify(userId: "u1", traits: ["email": "[redacted]"]))
    }

    @Test func nothingIsTrackedAfterOptingOut() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory])
        analytics.optOut()
        analytics.track("login_tapped")
        analytics.optIn()
        analytics.track("sign_up_tapped")
        await analytics.flush()
        memory.expectEvents([Event("sign_up_tapped")])
    }
}
