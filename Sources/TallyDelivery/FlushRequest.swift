#if Delivery
import Dispatch
import Tally

/// One caller of ``SegmentAPIDestination/flush()`` waiting: for the writer to commit what was received before
/// it, then for the sender to deliver the queue up to ``target``, or for its deadline.
final class FlushRequest: Sendable {
    private let state = Locked((committed: false, target: Int64(0), finished: false))
    private let semaphore = DispatchSemaphore(value: 0)

    /// The last id the flush must see delivered; known once the writer committed.
    var target: Int64 { state.withLock { $0.target } }
    /// Whether the writer has committed everything received before the flush.
    var isCommitted: Bool { state.withLock { $0.committed } }

    /// The writer committed up to `target`.
    func committed(through target: Int64) {
        state.withLock {
            $0.committed = true
            $0.target = target
        }
    }

    /// Ends the wait: delivered, given up or past the deadline. Only the first call counts.
    func finish() {
        let first = state.withLock { state -> Bool in
            defer { state.finished = true }
            return !state.finished
        }
        if first { semaphore.signal() }
    }

    var isFinished: Bool { state.withLock { $0.finished } }

    /// Blocks until ``finish()``.
    func wait() { semaphore.wait() }
}
#endif
