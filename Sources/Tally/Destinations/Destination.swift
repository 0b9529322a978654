/// Where events go after the processors: a vendor SDK, the console, memory, a file, a server.
///
/// A destination has one job: take an ``Envelope`` and hand it on. The client gives each destination its
/// own thread and bounded buffer, so a destination may block or be slow without holding back the app or
/// the other destinations.
///
/// ## Implementing a destination
/// - ``receive(_:context:)`` is called for every event, in the order the processors emitted them, from
///   one thread at a time; it is never called concurrently for the same client.
/// - Throw ``Problem`` to reject an event by rule (counted as rejected); throw any other error when
///   delivery failed (counted as failed). Either way the client reports it and carries on. Events are not
///   retried.
/// - Report a change you made to respect a limit with ``DestinationContext/report(_:)``, then deliver.
/// - ``flush()`` runs when the app calls ``AnalyticsClient/flush()``, after every earlier event was received;
///   ``reset()`` runs, in order with the events, when the app calls ``AnalyticsClient/reset()``.
///
/// ```swift
/// struct PrintDestination: Destination {
///     var name: String { "print" }
///     func receive(_ envelope: Envelope, context: DestinationContext) throws {
///         print(envelope.event)
///     }
/// }
/// ```
public protocol Destination: Sendable {
    /// A short name, unique within a client, used by routing and statistics. Defaults to the type name.
    var name: String { get }

    /// Delivers one event.
    ///
    /// - Parameters:
    ///   - envelope: the event and what the client added to it.
    ///   - context: where to report problems for this delivery.
    /// - Throws: ``Problem`` to reject the event by rule, any other error when delivery failed.
    func receive(_ envelope: Envelope, context: DestinationContext) throws

    /// Pushes out anything the destination buffers. Called on the destination's thread by
    /// ``AnalyticsClient/flush()`` after every earlier event was received. The default does nothing.
    func flush()

    /// Forgets the signed-in user, as the vendor SDK's own reset does. Called on the destination's thread
    /// by ``AnalyticsClient/reset()``, after every event tracked before the reset and before any tracked after
    /// it. The default does nothing.
    func reset()
}

extension Destination {
    public var name: String { String(describing: Self.self) }
    public func flush() {}
    public func reset() {}
}

/// What a destination can use while it receives an event.
public struct DestinationContext: Sendable {
    /// The destination's name in this client (after de-duplication).
    public let destination: String
    private let reporter: @Sendable (Problem) -> Void
    private let dropCounter: @Sendable (Int, DropReason) -> Void

    /// Creates a context that hands problems to `report` and later drops to `countDropped`. The client
    /// makes these; tests of a destination may make their own.
    public init(
        destination: String, report: @escaping @Sendable (Problem) -> Void,
        countDropped: @escaping @Sendable (_ count: Int, _ reason: DropReason) -> Void = { _, _ in }
    ) {
        self.destination = destination
        self.reporter = report
        self.dropCounter = countDropped
    }

    /// Reports a problem with the event being delivered, such as a value cut to fit a vendor limit. The
    /// problem's ``Problem/destination`` is filled in when empty.
    public func report(_ problem: Problem) {
        var problem = problem
        if problem.destination == nil { problem.destination = destination }
        reporter(problem)
    }

    /// Counts events the destination had received and dropped afterwards, and reports why.
    ///
    /// A destination that queues events and sends them later (such as TallyDelivery's
    /// `SegmentAPIDestination`, with its durable queue) calls it from any thread, at any time after a ``Destination/receive(_:context:)``, keeping the
    /// context it was given. The client counts the events under ``DestinationStatistics/droppedAfterDelivery``
    /// and reports `problem` (its ``Problem/outcome`` becomes ``Problem/Outcome/dropped``).
    ///
    /// ```swift
    /// context.reportDropped(
    ///     3, reason: .queueFull,
    ///     problem: Problem(.bufferFull, "The queue is full; its 3 oldest events were dropped", outcome: .dropped))
    /// ```
    ///
    /// - Parameters:
    ///   - count: how many events were dropped; nothing happens when it is not positive.
    ///   - reason: why, such as ``DropReason/queueFull`` or ``DropReason/refusedByServer``.
    ///   - problem: what happened, in one problem for the whole group; nil when an earlier call already
    ///     reported the same episode (a queue that stays full, say).
    public func reportDropped(_ count: Int, reason: DropReason, problem: Problem?) {
        guard count > 0 else { return }
        dropCounter(count, reason)
        guard var problem else { return }
        problem.outcome = .dropped
        report(problem)
    }
}
