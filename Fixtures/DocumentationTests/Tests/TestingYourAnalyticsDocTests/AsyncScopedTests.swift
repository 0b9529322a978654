// Testing your analytics: "Unit tests with a spy", a @MainActor view model driven from a nonisolated test.

import Tally
import TallyTesting
import Testing

@MainActor final class LoginViewModel {
    private let analytics: any AnalyticsTracking
    init(analytics: any AnalyticsTracking) { self.analytics = analytics }

    func login() async {
        // await the sign-in, then:
        analytics.track(Event("login_tapped", ["action": "tap"]))
    }
}

@Test func loginTracksTheTap() async {
    let spy = AnalyticsSpy()
    let model = await LoginViewModel(analytics: spy)
    await spy.expectTracked(Event("login_tapped", ["action": "tap"]), when: { await model.login() })
    spy.expectNothingElse()
}
