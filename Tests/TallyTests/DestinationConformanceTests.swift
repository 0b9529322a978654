import Foundation
import Tally
import TallyPlan
import TallyTestSupport
import TallyTesting
import Testing

#if SpyMacro
import TallySpy
#endif

/// Every built-in destination passes TallyTesting's destination conformance suite.
struct DestinationConformanceTests {
    /// Holds the receiver behind the most recently made destination.
    final class Latest<Receiver: Sendable>: Sendable {
        private let box = LockedBox<Receiver?>(nil)
        func make(_ receiver: Receiver) -> Receiver {
            box.mutate { $0 = receiver }
            return receiver
        }
        var current: Receiver? { box.value }
    }

    @Test func inMemory() async {
        let failures = await DestinationConformance(
            makeDestination: { InMemoryDestination() }, receivedCount: { $0.count }
        ).run()
        #expect(failures == 0)
    }

    /// Issue 24: under exhaustive mode the suite used to fail a right destination, with one line naming the
    /// 3,000 events its InMemoryDestination received, 300 properties included.
    @Test(.exhaustive) func inMemoryUnderExhaustiveMode() async {
        let failures = await DestinationConformance(
            makeDestination: { InMemoryDestination() }, receivedCount: { $0.count }
        ).run()
        #expect(failures == 0)
    }

    @Test func console() async {
        let lines = LockedBox(0)
        let failures = await DestinationConformance(
            makeDestination: { ConsoleDestination(write: { _ in lines.mutate { $0 += 1 } }) },
            receivedCount: { _ in lines.value }, reset: { _ in lines.mutate { $0 = 0 } }
        ).run()
        #expect(failures == 0)
    }

    @Test func recording() async throws {
        let folder = try TemporaryFolder()
        let files = Latest<URL>()
        let failures = await DestinationConformance(
            makeDestination: {
                let url = files.make(folder.file("\(UUID().uuidString).jsonl"))
                return RecordingDestination(sink: try FileRecordingSink(url: url), source: "conformance")
            },
            receivedCount: { _ in (try? RecordingFile(contentsOf: files.current!).records.count) ?? -1 }
        ).run()
        #expect(failures == 0)
    }

    // The vendor destinations, over their @Spy spies (the SpyMacro trait).
    #if SpyMacro
    @Test func firebase() async {
        let spies = Latest<FirebaseSpy>()
        let failures = await DestinationConformance(
            makeDestination: { FirebaseDestination(adapter: spies.make(FirebaseSpy())) },
            receivedCount: { _ in spies.current?.calls.count ?? 0 }
        ).run()
        #expect(failures == 0)
    }

    @Test func mixpanel() async {
        let spies = Latest<MixpanelSpy>()
        let failures = await DestinationConformance(
            makeDestination: { MixpanelDestination(adapter: spies.make(MixpanelSpy())) },
            receivedCount: { _ in spies.current?.calls.count ?? 0 }
        ).run()
        #expect(failures == 0)
    }

    @Test func amplitude() async {
        let spies = Latest<AmplitudeSpy>()
        let failures = await DestinationConformance(
            makeDestination: { AmplitudeDestination(adapter: spies.make(AmplitudeSpy())) },
            receivedCount: { _ in spies.current?.calls.count ?? 0 }
        ).run()
        #expect(failures == 0)
    }

    @Test func segment() async {
        let spies = Latest<SegmentSpy>()
        let failures = await DestinationConformance(
            makeDestination: { SegmentDestination(adapter: spies.make(SegmentSpy())) },
            receivedCount: { _ in spies.current?.calls.count ?? 0 }
        ).run()
        #expect(failures == 0)
    }
    #endif

    @Test func theSuiteCatchesADestinationThatLosesEvents() async {
        /// Drops every tenth event without telling anyone, and fails on odd input.
        struct Lossy: Destination {
            let inner = InMemoryDestination()
            var name: String { "lossy" }
            func receive(_ envelope: Envelope, context: DestinationContext) throws {
                struct Broken: Error {}
                if envelope.event.name == "conformance_deep" { throw Broken() }
                if let index = envelope.event.properties["index"]?.intValue, index % 10 == 9 { return }
                try inner.receive(envelope, context: context)
            }
        }
        let reported = LockedBox<[String]>([])
        await withKnownIssue {
            let failures = await DestinationConformance(makeDestination: { Lossy() }, receivedCount: { $0.inner.count })
                .run()
            #expect(failures == 4)
        } matching: { issue in
            let message = issue.comments.map(\.rawValue).joined()
            reported.mutate { $0.append(message) }
            return message.hasPrefix("Destination conformance:")
        }
        let messages = reported.value
        #expect(messages.count == 4)
        #expect(messages.contains { $0.contains("every event delivered: 500 tracked, the receiver got 450") })
        #expect(
            messages.contains {
                $0.contains("flush: after flush() number 1, 50 events were tracked but the receiver got 45")
            })
        #expect(
            messages.contains { $0.contains("concurrent tracking: 8 tasks tracked 2000 events, the receiver got 1800") }
        )
        #expect(
            messages.contains {
                $0.contains(
                    "bad input: the destination failed on event \"conformance_deep\" instead of rejecting it by rule")
            })
    }

    /// Under exhaustive mode, a wrong destination is reported rule by rule, each in a few short lines that
    /// name the rule and, for bad input, the event.
    @Test(.exhaustive) func aWrongDestinationIsReportedReadablyUnderExhaustiveMode() async {
        struct Broken: Destination {
            let inner = InMemoryDestination()
            var name: String { "broken" }
            func receive(_ envelope: Envelope, context: DestinationContext) throws {
                struct Failure: Error {}
                if envelope.event.name == "conformance_many" { throw Failure() }
                if let index = envelope.event.properties["index"]?.intValue, index % 10 == 9 { return }
                try inner.receive(envelope, context: context)
            }
        }
        let reported = LockedBox<[String]>([])
        await withKnownIssue {
            await DestinationConformance(makeDestination: { Broken() }, receivedCount: { $0.inner.count }).run()
        } matching: { issue in
            let message = issue.comments.map(\.rawValue).joined()
            reported.mutate { $0.append(message) }
            return true
        }
        let messages = reported.value
        #expect(messages.count == 4)
        #expect(messages.allSatisfy { $0.hasPrefix("Destination conformance:") })
        #expect(messages.allSatisfy { $0.count < 600 && $0.split(separator: "\n").count <= 5 })
        #expect(messages.contains { $0.contains("bad input: the destination failed on event \"conformance_many\"") })
    }
}
