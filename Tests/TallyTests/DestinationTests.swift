import Foundation
import Tally
import Testing

struct ConsoleDestinationTests {
    @Test func writesOneReadableLinePerEvent() async {
        let lines = LockedBox<[String]>([])
        let console = ConsoleDestination(write: { line in lines.mutate { $0.append(line) } })
        let analytics = Analytics(destinations: [console])
        analytics.screen("Login")
        analytics.track("login_tapped", ["action": "tap", "attempt": 2])
        analytics.identify(userId: "user-42", traits: ["plan": "pro"])
        await analytics.flush()
        #expect(
            lines.value == [
                "[analytics] screen Login",
                #"[analytics] track login_tapped {"action":"tap","attempt":2}"#,
                #"[analytics] identify user-42 {"plan":"pro"}"#,
            ])
    }

    @Test func prefixAndNameAreConfigurable() {
        #expect(ConsoleDestination.line(for: Event("e"), prefix: "") == "track e")
        #expect(ConsoleDestination(name: "stdout").name == "stdout")
        #expect(ConsoleDestination.console.name == "console")
    }
}

struct InMemoryDestinationTests {
    @Test func keepsEverythingInOrderAndResets() async {
        let memory = InMemoryDestination()
        let analytics = Analytics(destinations: [memory])
        analytics.track("a")
        analytics.track("b")
        await analytics.flush()
        #expect(memory.events.map(\.name) == ["a", "b"])
        #expect(memory.envelopes.count == 2)
        #expect(memory.flushCount == 1)
        memory.reset()
        #expect(memory.events.isEmpty)
        #expect(memory.flushCount == 0)
    }
}
