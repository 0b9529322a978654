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
/// model.didSignIn(userId: "user-42", email: "ada@example.com")   // identify user-42
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

    /// The server accepted the user's credentials: the user is identified, with the account's e-mail
    /// address as a trait. The model says it as it is; the app's client redacts it (see
    /// `LoginApp.personalDataKeys`).
    public func didSignIn(userId: String, email: String) {
        analytics.track(.signedIn(userId: userId, email: email))
    }
}
