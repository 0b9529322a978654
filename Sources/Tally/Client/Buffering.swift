/// How many events a queue holds and what happens when it is full.
///
/// The client has one queue between the callers and its worker, and one per destination. Each is bounded,
/// so memory depends on configuration, not on how many events arrive.
public struct Buffering: Sendable, Hashable {
    /// What a full queue does with one more event.
    public enum OverflowPolicy: String, Sendable, Hashable {
        /// Drop the incoming event, count it under ``DropReason/bufferFull`` and report a
        /// ``Problem/Code/bufferFull`` problem once per overflow episode. Nothing waits. The default.
        case dropNewest
        /// Make the producer wait until there is room: the caller of `track` for the client's queue, the
        /// client's worker for a destination's queue (which then holds back every destination). Nothing is
        /// lost; use it where completeness matters more than latency, such as a command-line tool or a
        /// test, never on a UI thread. The exception: a `track` made on one of the client's own threads
        /// (from a destination, a processor or `onProblem`) never waits, since only those threads make
        /// room; it is dropped and counted when the queue is full. A client with a queue under this policy
        /// runs its worker threads at the `.userInitiated` quality of service, so that a caller waiting for
        /// room does not wait behind background work.
        case block
    }

    /// The most events the queue holds, at least 1 (smaller values are raised to 1). Flush requests do not
    /// count.
    public var capacity: Int {
        didSet { if capacity < 1 { capacity = 1 } }
    }
    /// What happens when the queue is full.
    public var whenFull: OverflowPolicy

    /// Creates a buffering policy.
    ///
    /// - Parameters:
    ///   - capacity: the most events the queue holds; values below 1 are treated as 1.
    ///   - whenFull: what happens to one more event.
    public init(capacity: Int = 10_000, whenFull: OverflowPolicy = .dropNewest) {
        self.capacity = max(1, capacity)
        self.whenFull = whenFull
    }

    /// 10,000 events, dropping the newest when full.
    public static let `default` = Buffering()
}
