import LoginExample
import Tally
import TallyTesting
import Testing

/// The article's unit tests: each action of the view model logs its analytics, checked with a spy.
///
/// The article's `MockAnalytics` with callbacks and its `verifyAnalytics(screen:when:)` helpers become an
/// `AnalyticsSpy` and `expectTracked(_:when:)`, which counts only what the block tracked and reports a
/// failure at the test's own line. Exhaustive mode fails a test on any event no expectation accounted for,
/// such as a tap tracked twice, where the article needed a count of every event.
@Suite(.exhaustive)
struct LoginViewModelExampleTests {
    @Test func theArticlesTestAnalytics() {
        let spy = AnalyticsSpy()
        let viewModel = LoginViewModel(analytics: spy)

        spy.expectTracked(.screen("Login"), when: { viewModel.wakeup() })
        spy.expectTracked(Event("login_tapped", ["action": "tap"]), when: { viewModel.login() })
        spy.expectTracked(Event("sign_up_tapped", ["action": "tap"]), when: { viewModel.signUp() })
    }

    @Test func wakeupLogsTheLoginScreenAndNothingElse() {
        let spy = AnalyticsSpy()
        LoginViewModel(analytics: spy).wakeup()

        spy.expectEvents([.screen("Login")])
    }

    @Test func loginLogsATapOnLoginAndNothingElse() {
        let spy = AnalyticsSpy()
        LoginViewModel(analytics: spy).login()

        spy.expectEvents([Event("login_tapped", ["action": "tap"])])
    }

    @Test func signUpLogsATapOnSignUpAndNothingElse() {
        let spy = AnalyticsSpy()
        LoginViewModel(analytics: spy).signUp()

        spy.expectEvents([Event("sign_up_tapped", ["action": "tap"])])
    }

    @Test func everythingTheScreenLogsIsInTheTrackingPlan() throws {
        let spy = AnalyticsSpy()
        let viewModel = LoginViewModel(analytics: spy)
        viewModel.wakeup()
        viewModel.login()
        viewModel.signUp()

        spy.expectCount(3)
        spy.expectValid(against: try ExamplesPlan.validator())
    }
}
