import Foundation
import Tally
import TallyTesting
import Testing

struct ConsoleDestinationTests {
    @Test func writesOneReadableLinePerEvent() async {
        let lines = LockedBox<[String]>([])
        let console = ConsoleDestination(write: { line in lines.mutate { $0.append(line) } })
        let analytics = AnalyticsClient(destinations: [console])
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

    @Test func theClientsFlushFlushesStandardOutputAfterTheLinesBeforeIt() async {
        let steps = LockedBox<[String]>([])
        let console = ConsoleDestination(
            name: "console", prefix: "", write: { line in steps.mutate { $0.append(line) } },
            flushOutput: { steps.mutate { $0.append("<flushed>") } })
        let analytics = AnalyticsClient(destinations: [console])
        analytics.track("a")
        analytics.track("b")
        await analytics.flush()
        #expect(steps.value == ["track a", "track b", "<flushed>"])
        analytics.track("c")
        await analytics.shutdown()
        #expect(steps.value == ["track a", "track b", "<flushed>", "track c", "<flushed>"])
    }

    @Test func prefixAndNameAreConfigurable() {
        #expect(ConsoleDestination.line(for: Event("e"), prefix: "") == "track e")
        #expect(ConsoleDestination(name: "stdout").name == "stdout")
        #expect(ConsoleDestination.console.name == "console")
    }
}

struct InMemoryDestinationTests {
    @Test func keepsEverythingInOrderAndClears() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory])
        analytics.track("a")
        analytics.track("b")
        await analytics.flush()
        #expect(memory.events.map(\.name) == ["a", "b"])
        #expect(memory.envelopes.count == 2)
        #expect(memory.flushCount == 1)
        memory.clear()
        #expect(memory.events.isEmpty)
        #expect(memory.flushCount == 0)
    }
}

struct DestinationResetTests {
    /// Records events and resets in one sequence, to check their order.
    final class Sequence: Destination {
        let steps = LockedBox<[String]>([])
        var name: String { "sequence" }
        func receive(_ envelope: Envelope, context: DestinationContext) throws {
            steps.mutate { $0.append(envelope.event.subject) }
        }
        func reset() { steps.mutate { $0.append("<reset>") } }
    }

    @Test func theClientsResetReachesEveryDestinationInOrderWithTheEvents() async {
        let sequence = Sequence()
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [sequence, memory])
        analytics.identify(userId: "u1")
        analytics.track("signed_out")
        analytics.reset()
        analytics.track("browsing")
        await analytics.flush()
        #expect(sequence.steps.value == ["u1", "signed_out", "<reset>", "browsing"])
        #expect(memory.resetCount == 1)
        #expect(memory.count == 3)
    }

    @Test func aResetAfterShutdownReachesNoDestination() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory])
        await analytics.shutdown()
        analytics.reset()
        await analytics.flush()
        #expect(memory.resetCount == 0)
    }
}
