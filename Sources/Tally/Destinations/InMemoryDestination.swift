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
/// It is a reference type: every copy and every client it is given to share the same ``log``. It is safe
/// to read from any thread while the client delivers. TallyTesting's expectations work on it directly
/// (`memory.expectTracked(...)`).
public final class InMemoryDestination: Destination {
    public let name: String
    /// The received envelopes.
    public let log = EventLog()
    private let flushes = Locked(0)

    /// Creates an empty destination.
    public init(name: String = "memory") { self.name = name }

    public func receive(_ envelope: Envelope, context: DeliveryContext) throws {
        log.append(envelope)
    }

    public func flush() { flushes.withLock { $0 += 1 } }

    /// Everything received, with what the client added.
    public var envelopes: [Envelope] { log.envelopes }

    /// What the app said, in the order received.
    public var events: [Event] { log.events }

    /// How many events were received.
    public var count: Int { log.count }

    /// How many times ``flush()`` ran.
    public var flushCount: Int { flushes.current }

    /// Forgets everything received.
    public func reset() {
        log.clear()
        flushes.withLock { $0 = 0 }
    }
}
