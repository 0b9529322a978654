import Dispatch
import Foundation
import Testing

@testable import Tally

/// The client's queues let their consumer linger after it found them empty (issue 39: a caller as fast as
/// the worker otherwise paid a wake-up per event). An event offered meanwhile must still be taken once the
/// linger ends, and what must not wait must wake the lingering consumer at once.
@Suite(.timeLimit(.minutes(1))) struct QueueLingerTests {
    /// A batch the consumer took, and when (`DispatchTime`'s nanoseconds, read on the consumer's thread as
    /// `drain` returned it, so that the test's own scheduling does not count).
    private struct Taken: Equatable {
        var batch: [Int]
        var at: UInt64
        static func == (lhs: Taken, rhs: Taken) -> Bool { lhs.batch == rhs.batch }
    }

    /// A consumer thread draining `queue` until it is closed, handing each batch to `batches`; the stream
    /// ends with the time `drain` said the queue was closed.
    private static func consume(_ queue: BoundedQueue<Int>, into batches: AsyncStream<Taken>.Continuation) {
        let thread = Thread {
            var batch: [Int] = []
            while queue.drain(into: &batch) {
                batches.yield(Taken(batch: batch, at: DispatchTime.now().uptimeNanoseconds))
                batch.removeAll()
            }
            batches.yield(Taken(batch: [], at: DispatchTime.now().uptimeNanoseconds))
            batches.finish()
        }
        thread.start()
    }

    /// A queue of capacity `capacity` lingering `linger` nanoseconds, with a consumer started, once the
    /// consumer lingers for the first time.
    private static func lingeringQueue(capacity: Int = 100, linger: Int) async -> (
        BoundedQueue<Int>, AsyncStream<Taken>.Iterator
    ) {
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let queue = BoundedQueue<Int>(
            capacity: capacity, policy: .dropNewest, linger: linger, lingering: { startedContinuation.yield() })
        let (batches, continuation) = AsyncStream<Taken>.makeStream()
        consume(queue, into: continuation)
        var lingers = started.makeAsyncIterator()
        _ = await lingers.next()
        return (queue, batches.makeAsyncIterator())
    }

    @Test func anEventOfferedWhileTheConsumerLingersIsTakenWhenTheLingerEnds() async {
        let (queue, batchesIterator) = await Self.lingeringQueue(linger: 20_000_000)
        var batches = batchesIterator
        #expect(queue.offer(1, weight: 1, mayWait: false).isAccepted)
        #expect(queue.offer(2, weight: 1, mayWait: false).isAccepted)
        // Nothing woke the consumer: it takes both, in one batch, once its 20 ms are over.
        #expect(await batches.next()?.batch == [1, 2])
        queue.close()
        #expect(await batches.next()?.batch == [])
    }

    @Test(arguments: ["a marker (weight 0)", "an urgent offer", "a queue half full", "closing"])
    func whatMustNotWaitWakesALingeringConsumerAtOnce(what: String) async {
        // A linger of nearly a second: a wake-up that came only when it ended would take that long.
        let (queue, batchesIterator) = await Self.lingeringQueue(capacity: 4, linger: 999_000_000)
        var batches = batchesIterator
        let start = DispatchTime.now().uptimeNanoseconds
        let expected: [Int]
        switch what {
        case "a marker (weight 0)":
            #expect(queue.offer(7, weight: 0, mayWait: false).isAccepted)
            expected = [7]
        case "an urgent offer":
            #expect(queue.offer(5, weight: 1, mayWait: false, urgent: true).isAccepted)
            expected = [5]
        case "a queue half full":
            #expect(queue.offer(1, weight: 1, mayWait: false).isAccepted)
            #expect(queue.offer(2, weight: 1, mayWait: false).isAccepted)
            expected = [1, 2]
        default:
            queue.close()
            expected = []
        }
        let taken = await batches.next()
        #expect(taken?.batch == expected)
        let waited = Double((taken?.at ?? .max) - start) / 1e9
        #expect(waited < 0.5, "\(what) waited \(waited) s for the consumer: the linger was not cut short")
        queue.close()
    }
}

extension BoundedQueue.Offer {
    fileprivate var isAccepted: Bool {
        if case .accepted = self { return true }
        return false
    }
}
