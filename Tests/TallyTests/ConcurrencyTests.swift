import Foundation
import Tally
import TallyTestSupport
import TallyTesting
import Testing

/// Many threads tracking at once. CI also runs this suite under ThreadSanitizer
/// (`swift test --sanitize=thread --filter Concurrency`).
struct ClientConcurrencyTests {
    /// Checks each destination's events as they arrive instead of storing 1.6 million of them per
    /// destination: exact count, and each thread's order preserved.
    final class OrderCheckingDestination: Destination {
        let name: String
        private let state: LockedBox<(count: Int, next: [Int], outOfOrder: Int)>

        init(name: String, threads: Int) {
            self.name = name
            state = LockedBox((0, [Int](repeating: 0, count: threads), 0))
        }

        func receive(_ envelope: Envelope, context: DestinationContext) throws {
            guard let thread = envelope.event.properties["thread"]?.intValue,
                let index = envelope.event.properties["index"]?.intValue
            else { throw Problem(.vendorLimit, "unexpected event", outcome: .dropped) }
            state.mutate { state in
                state.count += 1
                if state.next[thread] != index { state.outOfOrder += 1 }
                state.next[thread] = index + 1
            }
        }

        var count: Int { state.value.count }
        var outOfOrder: Int { state.value.outOfOrder }
        var lastIndices: [Int] { state.value.next }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func eightThreadsTrackingTwoHundredThousandEventsEachLoseNothingAndKeepOrder() async {
        let threads = 8
        let perThread = stressCount(200_000)
        let destinations = (0..<3).map { OrderCheckingDestination(name: "d\($0)", threads: threads) }
        let analytics = AnalyticsClient(
            processors: [.superProperties(["app": "stress"]), .context(["run": 1])],
            destinations: destinations,
            configuration: .init(
                buffering: Buffering(capacity: 50_000, whenFull: .block),
                destinationBuffering: Buffering(capacity: 50_000, whenFull: .block)))

        await onNewThreads(threads) { thread in
            for index in 0..<perThread {
                analytics.track("stress", ["thread": .int(thread), "index": .int(index)])
            }
        }
        // No deadline: under ThreadSanitizer on a busy machine delivery can take longer than the default.
        #expect(await analytics.flush(timeout: nil).isComplete)

        let total = threads * perThread
        for destination in destinations {
            #expect(destination.count == total)
            #expect(destination.outOfOrder == 0)
            #expect(destination.lastIndices == [Int](repeating: perThread, count: threads))
        }
        let statistics = analytics.statistics
        #expect(statistics.tracked == total)
        #expect(statistics.totalDropped == 0)
        #expect(statistics.delivered == ["d0": total, "d1": total, "d2": total])
    }

    @Test func identityConsentAndFlushCanBeCalledFromManyThreadsAtOnce() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory])
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<500 {
                        analytics.track("e", ["task": .int(task)])
                        switch index % 100 {
                        case 10: analytics.identify(userId: "user-\(task)")
                        case 20: analytics.reset()
                        case 30: analytics.optOut()
                        case 31: analytics.optIn()
                        case 40: await analytics.flush()
                        default: _ = analytics.statistics
                        }
                    }
                }
            }
        }
        await analytics.flush()
        let statistics = analytics.statistics
        let memoryCounts = statistics.destinations["memory"]
        // Every event is accounted for: delivered, dropped at the caller while opted out, or dropped from a
        // queue by an opt-out.
        #expect(
            (memoryCounts?.delivered ?? 0) + statistics.totalDropped + (memoryCounts?.dropped[.optedOut] ?? 0)
                == statistics.tracked)
        #expect(statistics.tracked == 8 * 500 + 8 * 5)
        #expect(memory.count == memoryCounts?.delivered)
    }
}
