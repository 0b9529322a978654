import Foundation
import Tally

/// The login app's start-up: the analytics client with its processors and destinations, the screen's
/// model, and the analytics consent switch.
///
/// In the article the app delegate picks `ConsoleAnalytics` normally and an `AnalyticsDebugger` under UI
/// tests. Here the app always has a console destination, and adds a recording destination when the
/// environment asks for one (`TALLY_RECORD=<file>`, `TALLY_RECORD_DIR=<folder>` or `-tally-record <file>`):
/// the test process then reads the recording with `RecordingReader`, which replaces the article's hidden view
/// and its JSON coder.
///
/// Two privacy rules hold for every destination, because they are the client's, not a destination's:
/// - The values of ``personalDataKeys`` (the plan's `personal` properties) are redacted by the client's
///   first processor, before any destination sees the event: the console, the recording, a vendor.
/// - The consent switch (``LoginCommand/optOut`` and ``LoginCommand/optIn``) opts the client out: from that
///   moment nothing reaches any destination, and tracking resumes when the user opts back in.
///
/// ```swift
/// let app = try LoginApp(console: { print($0) })
/// await app.perform(.appear)       // tracks, then waits until every destination has it
/// ```
public final class LoginApp: Sendable {
    /// The app's analytics client.
    public let analytics: AnalyticsClient
    /// The login screen's model, wired to ``analytics``.
    public let viewModel: LoginViewModel

    /// An account the example signs in with.
    public struct Account: Sendable, Hashable {
        /// The account's id, the identify event's user id.
        public var id: String
        /// The account's e-mail address: personal data, never sent as it is.
        public var email: String

        /// The example's account, which ``LoginCommand/signIn`` signs in.
        public static let example = Account(id: "user-42", email: "ada@example.com")
    }

    /// The property names whose values are personal data: the client redacts them, at any depth, before
    /// any destination sees an event. Every `personal` property of `Examples/tracking-plan.yaml` must be
    /// here; the example's tests check it.
    public static let personalDataKeys: Set<String> = ["email"]

    /// Creates the app with a console destination, plus a recording destination if the environment or
    /// the launch arguments ask for one.
    ///
    /// - Parameters:
    ///   - console: receives each console line, such as `[analytics] screen Login`.
    ///   - environment: where `TALLY_RECORD` and `TALLY_RECORD_DIR` are read.
    ///   - arguments: where `-tally-record` is read.
    ///   - destinations: more destinations, such as an in-memory one in the demo.
    /// - Throws: `RecordError` when recording was asked for and cannot be opened, so a misconfigured UI
    ///   test fails at once instead of finding an empty recording.
    public init(
        console: @escaping @Sendable (String) -> Void,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        arguments: [String] = ProcessInfo.processInfo.arguments,
        destinations: [any Destination] = []
    ) throws(RecordError) {
        var all: [any Destination] = [ConsoleDestination(write: console)]
        if let recording = try RecordingDestination.fromEnvironment(
            environment, arguments: arguments, source: "login-example")
        {
            all.append(recording)
        }
        analytics = AnalyticsClient(
            processors: [.redact(keys: Self.personalDataKeys)], destinations: all + destinations)
        viewModel = LoginViewModel(analytics: analytics)
    }

    /// The names of the app's destinations, such as `["console", "recording"]`.
    public var destinationNames: [String] { analytics.destinationNames }

    /// Performs `command` on the screen, then waits until its events reached every destination, so a
    /// recording holds them when this returns. ``LoginCommand/quit`` does nothing here: see ``shutdown()``.
    public func perform(_ command: LoginCommand) async {
        switch command {
        case .appear: viewModel.wakeup()
        case .tapLogin: viewModel.login()
        case .tapSignUp: viewModel.signUp()
        case .signIn: viewModel.didSignIn(userId: Account.example.id, email: Account.example.email)
        case .optOut: analytics.optOut()
        case .optIn: analytics.optIn()
        case .quit: break
        }
        await analytics.flush()
    }

    /// Flushes and stops the analytics client.
    public func shutdown() async {
        await analytics.shutdown()
    }
}
