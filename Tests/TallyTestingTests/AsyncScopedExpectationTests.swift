import Tally
import TallyTesting
import Testing

/// A view model isolated to the main actor, as SwiftUI view models are.
@MainActor
final class MainActorLoginModel {
    let analytics: any AnalyticsTracking
    init(analytics: any AnalyticsTracking) { self.analytics = analytics }
    func login() async { analytics.track("login_tapped", ["action": "tap"]) }
    func cancel() {}
}

/// The scoped expectations with an action that suspends: a nonisolated test drives a `@MainActor` model.
struct AsyncScopedExpectationTests {
    @Test func aNonisolatedTestDrivesAMainActorModel() async {
        let spy = AnalyticsSpy()
        spy.track("app_opened")
        let model = await MainActorLoginModel(analytics: spy)
        #expect(await spy.expectTracked(Event("login_tapped", ["action": "tap"]), when: { await model.login() }))
        #expect(await spy.expectTracked(.named("login_tapped"), when: { await model.login() }))
        #expect(await spy.expectNotTracked(.named("login_tapped"), when: { await model.cancel() }))
        await spy.expect(when: { await model.login() }) { spy in
            spy.expectTracked(Event("login_tapped", ["action": "tap"]))
        }
    }

    @MainActor
    @Test func aMainActorTestKeepsItsIsolation() async {
        let spy = AnalyticsSpy()
        let model = MainActorLoginModel(analytics: spy)
        #expect(await spy.expectTracked(Event("login_tapped", ["action": "tap"]), when: { await model.login() }))
    }

    @Test func aFailureIsReportedAtTheExpectationsLineAndCountsOnlyTheScope() async {
        let spy = AnalyticsSpy()
        spy.track("login_tapped", ["action": "tap"])  // before the scope: must not count
        let model = await MainActorLoginModel(analytics: spy)
        await expectOneIssue(
            containing: [#"Expected track login_tapped {"action":"swipe"} to have been tracked, but it was not."#],
            atLine: #line + 2
        ) {
            await spy.expectTracked(Event("login_tapped", ["action": "swipe"]), when: { await model.cancel() })
        }
        await expectOneIssue(
            containing: [#"Expected "login_tapped" not to have been tracked, but 1 matching event was."#],
            atLine: #line + 2
        ) {
            await spy.expectNotTracked(.named("login_tapped"), when: { await model.login() })
        }
    }
}
