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

    /// The user signed in: an identify event with the account's id and its e-mail address as a trait.
    ///
    /// The e-mail address is personal data (`personal: { kind: email, rule: redact }` in the plan): the app's client redacts it before any
    /// destination sees it, so what leaves the app is `{"email":"[redacted]"}`.
    ///
    /// - Parameters:
    ///   - userId: the account's id.
    ///   - email: the account's e-mail address.
    public static func signedIn(userId: String, email: String) -> Event {
        .identify(userId: userId, traits: ["email": .string(email)])
    }
}
