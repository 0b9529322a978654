import Synchronization
import Tally

/// A destination that only counts what it receives, so memory stays flat however many events a benchmark
/// sends (TallyTesting's `InMemoryDestination` would keep every envelope).
public final class CountingDestination: Destination {
    public let name: String
    private let received = Atomic<Int>(0)

    /// Creates a destination called `name`.
    public init(name: String) { self.name = name }

    public func receive(_ envelope: Envelope, context: DeliveryContext) throws {
        received.wrappingAdd(1, ordering: .relaxed)
    }

    /// Events received so far. Exact once the client's `flush()` has returned.
    public var count: Int { received.load(ordering: .relaxed) }
}
