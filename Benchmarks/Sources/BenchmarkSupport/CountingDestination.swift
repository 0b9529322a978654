import Dispatch
import Synchronization
import Tally

/// A destination that only counts what it receives, so memory stays flat however many events a benchmark
/// sends (TallyTesting's `InMemoryDestination` would keep every envelope).
///
/// ``waitForCount(_:)`` blocks until a number of events has arrived, for a profiler's run, which must not
/// poll (polling adds instructions to what callgrind counts) and cannot always await ``AnalyticsClient/flush()``.
public final class CountingDestination: Destination {
    public let name: String
    private let received = Atomic<Int>(0)
    private let target = Atomic<Int>(Int.max)
    private let reached = DispatchSemaphore(value: 0)

    /// Creates a destination called `name`.
    public init(name: String) { self.name = name }

    public func receive(_ envelope: Envelope, context: DestinationContext) throws {
        let count = received.wrappingAdd(1, ordering: .relaxed).newValue
        if count == target.load(ordering: .relaxed) { reached.signal() }
    }

    /// Events received so far. Exact once the client's `flush()` has returned.
    public var count: Int { received.load(ordering: .relaxed) }

    /// Blocks the calling thread until `count` events have been received in all. Call it from one thread
    /// at a time; it may be called again with a larger count.
    public func waitForCount(_ count: Int) {
        target.store(count, ordering: .relaxed)
        // The destination may have passed the target between the store and a load, and a signal left over
        // from an earlier target may wake the wait early: wait with a bound and look again, so a missed
        // signal costs at most 10 ms and an early one costs nothing.
        while received.load(ordering: .relaxed) < count {
            _ = reached.wait(timeout: .now() + .milliseconds(10))
        }
    }
}
