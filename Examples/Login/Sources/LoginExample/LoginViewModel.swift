import Tally

/// The article's `LoginViewModel`: the login screen's actions, each of which logs its analytics.
///
/// It depends on `AnalyticsTracking` (the article's `Analytics` protocol): the app passes its `AnalyticsClient`
/// client, unit tests pass an `AnalyticsSpy`.
///
/// ```swift
/// let model = LoginViewModel(analytics: analytics)
/// model.wakeup()    // screen Login
/// model.login()     // login_tapped {"action":"tap"}
/// model.signUp()    // sign_up_tapped {"action":"tap"}
/// ```
public struct LoginViewModel: Sendable {
    /// Where the screen's events go.
    public let analytics: any AnalyticsTracking

    /// Creates the model.
    public init(analytics: any AnalyticsTracking) {
        self.analytics = analytics
    }

    /// The screen appeared (the article calls it from `viewDidAppear`).
    public func wakeup() {
        analytics.track(.loginScreen)
    }

    /// The user tapped Login.
    public func login() {
        analytics.track(.loginTapped)
    }

    /// The user tapped Sign Up.
    public func signUp() {
        analytics.track(.signUpTapped)
    }
}
