/// What a test (or a person) can tell the running `login-example` app to do, one command per line on its
/// standard input: the taps an XCUITest would make on the article's screen.
public enum LoginCommand: String, Sendable, CaseIterable {
    /// The screen appears.
    case appear
    /// The Login button is tapped.
    case tapLogin = "tap login"
    /// The Sign Up button is tapped.
    case tapSignUp = "tap sign up"
    /// The server accepts the credentials of the example's account (``LoginApp/Account/example``).
    case signIn = "sign in"
    /// The user turns analytics off in the consent switch: nothing is tracked until ``optIn``.
    case optOut = "opt out"
    /// The user turns analytics back on.
    case optIn = "opt in"
    /// The app flushes its analytics and exits.
    case quit

    /// Reads a command from a line of input: case and surrounding blanks do not matter, and words may be
    /// separated by any run of blanks.
    public init?(line: String) {
        let words = line.lowercased().split(whereSeparator: \.isWhitespace)
        self.init(rawValue: words.joined(separator: " "))
    }
}
