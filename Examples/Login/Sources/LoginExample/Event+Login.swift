import Tally

/// The login screen's events, one static factory each, as in `Examples/tracking-plan.yaml`.
///
/// The article logs `log(screen: AnalyticsScreens.Login)` and `log(event: AnalyticsEvents.Login, action:
/// AnalyticsActions.Tap)`: a screen, and events with an action. Here the screen is a screen event and the
/// action is a property, so tests compare whole events instead of two strings.
extension Event {
    /// The login screen appeared: the article's `log(screen: AnalyticsScreens.Login)`.
    public static let loginScreen = Event.screen("Login")

    /// The user tapped Login: the article's `log(event: AnalyticsEvents.Login, action: AnalyticsActions.Tap)`.
    public static let loginTapped = Event("login_tapped", ["action": "tap"])

    /// The user tapped Sign Up: the article's `log(event: AnalyticsEvents.SignUp, action: AnalyticsActions.Tap)`.
    public static let signUpTapped = Event("sign_up_tapped", ["action": "tap"])
}
