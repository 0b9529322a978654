// A separate process is a macOS and Linux idea: iOS, tvOS and watchOS have no `Process` (a UI test there
// launches the app with XCUIApplication instead).
#if os(macOS) || os(Linux)

import Foundation
import LoginExample
import Tally
import TallyTesting
import Testing

/// The article's UI test, on a separate process: the test launches `login-example` with recording
/// switched on, drives it like XCUITest taps buttons, and checks the recording after each step with the
/// article's occurrence checks.
///
/// | the article's `AnalyticsTester` | here, on `RecordingReader` |
/// |---|---|
/// | `verify(count: n)` | `expectCount(n)` |
/// | `verify(type: ItemOccurrence(item: .screen, occurs: 1))` | `expectCount(1, of: .kind(.screen))` |
/// | `verify(id: ItemOccurrence(item: AnalyticsScreens.Login, occurs: 1))` | `expectCount(1, of: .named("Login"))` |
/// | `verify(idAndData: ItemOccurrence(item: (AnalyticsEvents.Login, AnalyticsActions.Tap), occurs: 1))` | `expectCount(1, of: .named("login_tapped", containing: ["action": "tap"]))` |
///
/// In exhaustive mode the recording is read once more when each test ends: a record no expectation
/// accounted for fails the test.
@Suite(.exhaustive)
struct LoginProcessExampleTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(1))) func theArticlesUITestAnalytics() async throws {
        let place = try RecordingPlace()
        let app = try LoginAppProcess(environment: ["TALLY_RECORD": place.file.path])
        let recording = RecordingReader(url: place.file)
        #expect(await app.ready() == "ready, destinations: console, recording")

        // Verify the screen view is logged on load.
        try await app.send("appear")
        recording.expectCount(1)
        recording.expectCount(1, of: .kind(.screen))
        recording.expectCount(1, of: .named("Login"))

        // Tap the login button and verify the tap event is logged.
        try await app.send("tap login")
        recording.expectCount(2)
        recording.expectCount(1, of: .kind(.track))
        recording.expectCount(1, of: .named("login_tapped", containing: ["action": "tap"]))

        // Tap the sign up button and verify the tap event is logged.
        try await app.send("tap sign up")
        recording.expectCount(3)
        recording.expectCount(2, of: .kind(.track))
        recording.expectCount(1, of: .named("sign_up_tapped", containing: ["action": "tap"]))

        #expect(try await app.quit() == 0)
        recording.expectEvents([.screen("Login"), .loginTapped, .signUpTapped])
        recording.expectValid(against: try ExamplesPlan.validator())
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(1))) func theRecordingCanBeAwaitedWithoutAcknowledgements() async throws {
        let place = try RecordingPlace()
        let app = try LoginAppProcess(environment: ["TALLY_RECORD": place.file.path])
        let recording = RecordingReader(url: place.file)
        _ = await app.ready()

        let reply = try await app.send("tap sign up")
        #expect(await recording.waitForCount(1, of: .named("sign_up_tapped"), timeout: .seconds(30)))
        #expect(reply == .init(printed: [#"[analytics] track sign_up_tapped {"action":"tap"}"#], accepted: true))
        #expect(try await app.quit() == 0)
        recording.expectEvents([.signUpTapped])
    }

    /// The running app keeps its privacy promises in what it records: the signed-in user's e-mail address is
    /// redacted, and what the user does while opted out is not recorded at all.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(1))) func theRecordingHoldsNoPersonalDataAndNothingFromWhileOptedOut() async throws {
        let place = try RecordingPlace()
        let app = try LoginAppProcess(environment: ["TALLY_RECORD": place.file.path])
        let recording = RecordingReader(url: place.file)
        _ = await app.ready()

        try await app.send("sign in")
        try await app.send("opt out")
        try await app.send("tap login")
        try await app.send("opt in")
        try await app.send("tap sign up")
        #expect(try await app.quit() == 0)

        recording.expectEvents([.identify(userId: "user-42", traits: ["email": "[redacted]"]), .signUpTapped])
        recording.expectValid(against: try ExamplesPlan.validator())
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(1))) func anUnknownCommandTracksNothing() async throws {
        let place = try RecordingPlace()
        let app = try LoginAppProcess(environment: ["TALLY_RECORD": place.file.path])
        let recording = RecordingReader(url: place.file)
        _ = await app.ready()

        #expect(try await app.send("tap logout") == .init(printed: [], accepted: false))
        #expect(try await app.quit() == 0)
        recording.expectNoEvents()
    }
}

/// Where one test's app records: a new file in `TALLY_RECORD_DIR` when a coverage run set it (so the
/// app's events count towards plan coverage, and the file stays for `tally coverage`), otherwise in a
/// fresh temporary folder removed after the test.
struct RecordingPlace {
    let file: URL
    private let folder: TemporaryFolder?

    init() throws {
        if let run = ProcessInfo.processInfo.environment[RecordingDestination.folderVariable], !run.isEmpty {
            let url = URL(fileURLWithPath: run)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            file = url.appendingPathComponent("login-example-\(UUID().uuidString).jsonl")
            folder = nil
        } else {
            let folder = try TemporaryFolder()
            file = folder.file("login-example.jsonl")
            self.folder = folder
        }
    }
}

#endif
