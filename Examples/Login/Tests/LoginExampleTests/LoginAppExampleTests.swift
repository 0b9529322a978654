import Foundation
import LoginExample
import Tally
import TallyTesting
import Testing

/// The app's wiring, in process: console analytics as in the article's `ConsoleAnalytics`, and recording
/// switched on only when the environment asks for it.
@Suite(.exhaustive)
struct LoginAppExampleTests {
    @Test func theConsoleShowsEachEventAsItIsLogged() async throws {
        let console = ConsoleCapture()
        let app = try LoginApp(console: console.append, environment: [:], arguments: [])

        await app.perform(.appear)
        await app.perform(.tapLogin)
        await app.perform(.tapSignUp)
        await app.shutdown()

        #expect(
            console.lines == [
                "[analytics] screen Login",
                #"[analytics] track login_tapped {"action":"tap"}"#,
                #"[analytics] track sign_up_tapped {"action":"tap"}"#,
            ])
    }

    @Test func withoutAskingTheAppDoesNotRecord() throws {
        let app = try LoginApp(console: { _ in }, environment: [:], arguments: [])
        #expect(app.destinationNames == ["console"])
    }

    @Test func theEnvironmentSwitchesRecordingOn() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("login.jsonl")
        let app = try LoginApp(console: { _ in }, environment: ["TALLY_RECORD": file.path], arguments: [])
        #expect(app.destinationNames == ["console", "recording"])

        await app.perform(.tapLogin)
        await app.shutdown()

        let recording = try RecordingReader(contentsOf: file)
        recording.expectEvents([Event("login_tapped", ["action": "tap"])])
    }

    @Test func aRecordingThatCannotBeOpenedFailsTheStart() {
        #expect(throws: RecordError.self) {
            try LoginApp(console: { _ in }, environment: [:], arguments: ["login-example", "-tally-record"])
        }
    }

    @Test(arguments: [
        ("appear", LoginCommand.appear), ("tap login", .tapLogin), ("  Tap   Sign Up ", .tapSignUp),
        ("sign in", .signIn), ("Opt Out", .optOut), ("opt  in", .optIn), ("QUIT", .quit),
    ])
    func commandsAreReadFromLines(line: String, command: LoginCommand) {
        #expect(LoginCommand(line: line) == command)
    }

    @Test func anUnknownLineIsNoCommand() {
        #expect(LoginCommand(line: "tap logout") == nil)
    }
}
