/// Keeps every event it receives, in order, for tests and tools to read.
///
/// ```swift
/// let memory = InMemoryDestination()
/// let analytics = Analytics(destinations: [memory])
/// analytics.track("menu_item_ordered", ["item_name": "Pizza"])
/// await analytics.flush()
/// #expect(memory.events == [Event("menu_item_ordered", ["item_name": "Pizza"])])
/// ```
///
/// It is a reference type: every copy and every client it is given to share the same storage. It is
/// safe to read from any thread while the client delivers.
public final class InMemoryDestination: Destination {
    public let name: String
    private let storage = Locked<(envelopes: [Envelope], flushes: Int)>(([], 0))

    /// Creates an empty destination.
    public init(name: String = "memory") { self.name = name }

    public func receive(_ envelope: Envelope, context: DeliveryContext) throws {
        storage.withLock { $0.envelopes.append(envelope) }
    }

    public func flush() { storage.withLock { $0.flushes += 1 } }

    /// Everything received, with what the client added.
    public var envelopes: [Envelope] { storage.withLock { $0.envelopes } }

    /// What the app said, in the order received.
    public var events: [Event] { storage.withLock { $0.envelopes.map(\.event) } }

    /// How many events were received.
    public var count: Int { storage.withLock { $0.envelopes.count } }

    /// How many times ``flush()`` ran.
    public var flushCount: Int { storage.withLock { $0.flushes } }

    /// Forgets everything received.
    public func reset() { storage.withLock { $0 = ([], 0) } }
}
