import Foundation
import LoginExample
import Tally
import TallyPlan
import TallyTesting
import Testing

/// What the user is promised, proven through the app's real client and an in-memory destination (not a
/// spy, which records what the model said before the client's rules run): after opting out nothing
/// reaches any destination until the user opts back in, and the e-mail address of a signed-in user never
/// leaves the app as it is.
@Suite(.exhaustive)
struct LoginPrivacyExampleTests {
    let console = ConsoleCapture()
    let memory = InMemoryDestination()

    func makeApp(_ memory: InMemoryDestination? = nil) throws -> LoginApp {
        try LoginApp(console: console.append, environment: [:], arguments: [], destinations: [memory ?? self.memory])
    }

    @Test func optingOutDropsEveryEventUntilTheUserOptsBackIn() async throws {
        let app = try makeApp()

        await app.perform(.appear)
        await app.perform(.optOut)
        await app.perform(.tapLogin)
        await app.perform(.tapSignUp)
        await app.perform(.optIn)
        await app.perform(.tapLogin)

        memory.expectEvents([.loginScreen, .loginTapped])
        #expect(app.analytics.statistics.dropped[.optedOut] == 2)
        #expect(console.lines == ["[analytics] screen Login", #"[analytics] track login_tapped {"action":"tap"}"#])
    }

    @Test func anAppThatStaysOptedOutTracksNothingMore() async throws {
        let app = try makeApp()

        await app.perform(.optOut)
        for command in [LoginCommand.appear, .tapLogin, .tapSignUp, .signIn] { await app.perform(command) }
        await app.shutdown()

        memory.expectNoEvents()
        #expect(console.lines.isEmpty)
    }

    @Test func theEmailIsRedactedBeforeAnyDestinationSeesIt() async throws {
        let app = try makeApp()

        await app.perform(.signIn)

        memory.expectTracked(.identify(userId: "user-42", traits: ["email": "[redacted]"]))
        memory.expectValid(against: try ExamplesPlan.validator())
        #expect(console.lines == [#"[analytics] identify user-42 {"email":"[redacted]"}"#])
        #expect(!console.lines.joined().contains(LoginApp.Account.example.email))
    }

    /// The plan is where a team marks personal data: whatever property it marks `personal` (today the
    /// e-mail trait), the app must redact, at any depth. A new personal property in the plan fails this test
    /// until the app redacts it too.
    @Test func everyPersonalPropertyOfThePlanIsRedactedByTheApp() async throws {
        let plan = try ExamplesPlan.plan()
        let personal = plan.events.flatMap { event in
            event.properties.filter { $0.value.personal != nil }.map { (event: event, key: $0.key.string) }
        }
        #expect(!personal.isEmpty)
        // Probes with a property the plan does not have: kept out of the run's recordings (TALLY_RECORD_DIR),
        // which the coverage gate checks against the plan.
        let memory = InMemoryDestination(writesRunRecording: false)
        let app = try makeApp(memory)
        for (event, key) in personal {
            let value: PropertyValue = "ada@example.com"
            let properties: [String: PropertyValue] = [key: value, "nested": [key: value]]
            switch event.kind {
            case .identify: app.analytics.track(.identify(userId: "user-42", traits: properties))
            case .group: app.analytics.track(.group("group-7", traits: properties))
            case .screen: app.analytics.track(.screen(event.name, properties))
            case .track, .alias: app.analytics.track(Event(event.name, properties))
            }
        }
        await app.analytics.flush()

        memory.expectCount(personal.count)
        for (event, received) in zip(personal, memory.events) {
            #expect(
                received.properties[event.key] == "[redacted]",
                "\(event.event.name).\(event.key) left the app unredacted")
            #expect(received.properties["nested"]?.objectValue?[event.key] == "[redacted]")
        }
        for (_, key) in personal { #expect(LoginApp.personalDataKeys.contains(key)) }
    }
}
