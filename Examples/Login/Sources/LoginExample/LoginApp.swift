import Foundation
import Tally

/// The login app's start-up: the analytics client with its destinations, and the screen's model.
///
/// In the article the app delegate picks `ConsoleAnalytics` normally and an `AnalyticsDebugger` under UI
/// tests. Here the app always has a console destination, and adds a recording destination when the
/// environment asks for one (`TALLY_RECORD=<file>`, `TALLY_RECORD_DIR=<folder>` or `-tally-record <file>`):
/// the test process then reads the recording with `RecordingReader`, which replaces the article's hidden view
/// and its JSON coder.
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
        analytics = AnalyticsClient(destinations: all + destinations)
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
        case .quit: break
        }
        await analytics.flush()
    }

    /// Flushes and stops the analytics client.
    public func shutdown() async {
        await analytics.shutdown()
    }
}
