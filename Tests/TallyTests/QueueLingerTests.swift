import Dispatch
import Foundation
import Testing

@testable import Tally

/// The client's queues let their consumer linger after it found them empty (issue 39: a caller as fast as
/// the worker otherwise paid a wake-up per event). An event offered meanwhile must still be taken once the
/// linger ends, and what must not wait must wake the lingering consumer at once.
///
/// The offers come from a thread of their own, started the moment the consumer begins to linger, and every
/// time is read on a thread, not in the test's task: under a loaded test run the cooperative pool can leave a
/// task waiting for longer than any linger, while a thread runs within milliseconds.
@Suite(.timeLimit(.minutes(1))) struct QueueLingerTests {
    /// A batch the consumer took, and when (`DispatchTime`'s nanoseconds, read on the consumer's thread as
    /// `drain` returned it).
    private struct Taken {
        var batch: [Int]
        var at: UInt64
    }

    /// A queue lingering `linger` nanoseconds and a consumer thread draining it; once the consumer first
    /// lingers, `offers` runs on a thread of its own. The queue is closed once `elements` elements were taken.
    /// Returns when `offers` began, and the batches taken in order, the last empty (`drain` said the queue
    /// was closed).
    private static func run(
        capacity: Int = 100, linger: Int, elements: Int,
        offers: @escaping @Sendable (BoundedQueue<Int>) -> Void
    ) async -> (started: UInt64, batches: [Taken]) {
        let lingering = DispatchSemaphore(value: 0)
        let queue = BoundedQueue<Int>(
            capacity: capacity, policy: .dropNewest, linger: linger, lingering: { lingering.signal() })
        let started = Locked<UInt64>(0)
        let (batches, continuation) = AsyncStream<Taken>.makeStream()
        Thread {
            var batch: [Int] = []
            while queue.drain(into: &batch) {
                continuation.yield(Taken(batch: batch, at: DispatchTime.now().uptimeNanoseconds))
                batch.removeAll()
            }
            continuation.yield(Taken(batch: [], at: DispatchTime.now().uptimeNanoseconds))
            continuation.finish()
        }.start()
        Thread {
            // Bounded: a consumer that never lingered fails the test below rather than hanging it.
            guard lingering.wait(timeout: .now() + 30) == .success else { return queue.close() }
            started.withLock { $0 = DispatchTime.now().uptimeNanoseconds }
            offers(queue)
        }.start()
        var taken: [Taken] = []
        for await batch in batches {
            taken.append(batch)
            if batch.batch.isEmpty { break }
            if taken.reduce(0, { $0 + $1.batch.count }) >= elements { queue.close() }
        }
        return (started.withLock { $0 }, taken)
    }

    @Test func anEventOfferedWhileTheConsumerLingersIsTakenWhenTheLingerEnds() async {
        let (_, batches) = await Self.run(linger: 900_000_000, elements: 2) { queue in
            _ = queue.offer(1, weight: 1, mayWait: false)
            _ = queue.offer(2, weight: 1, mayWait: false)
        }
        // Nothing woke the consumer: it took both in one batch, once its linger was over.
        #expect(batches.map(\.batch) == [[1, 2], []])
    }

    @Test(arguments: ["a marker (weight 0)", "an urgent offer", "a queue half full", "closing"])
    func whatMustNotWaitWakesALingeringConsumerAtOnce(what: String) async {
        // A linger of nearly a second: a wake-up that came only when it ended would take that long.
        let elements = what == "closing" ? 0 : what == "a queue half full" ? 2 : 1
        let (started, batches) = await Self.run(capacity: 4, linger: 999_000_000, elements: elements) { queue in
            switch what {
            case "a marker (weight 0)": _ = queue.offer(7, weight: 0, mayWait: false)
            case "an urgent offer": _ = queue.offer(5, weight: 1, mayWait: false, urgent: true)
            case "a queue half full":
                _ = queue.offer(1, weight: 1, mayWait: false)
                _ = queue.offer(2, weight: 1, mayWait: false)
            default: queue.close()
            }
        }
        let expected: [Int] =
            switch what {
            case "a marker (weight 0)": [7]
            case "an urgent offer": [5]
            case "a queue half full": [1, 2]
            default: []
            }
        #expect(batches.first?.batch == expected)
        let waited = Double((batches.first?.at ?? .max) - started) / 1e9
        #expect(waited < 0.5, "\(what) waited \(waited) s for the consumer: the linger was not cut short")
    }
}
