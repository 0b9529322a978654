import Foundation

/// The analytics client: processors in order, then fan-out to destinations.
///
/// Create one at app start and hand it to app code as an ``AnalyticsTracking``:
///
/// ```swift
/// let analytics = AnalyticsClient(
///     processors: [.superProperties(["app_version": "2.3.0"]), .redact(keys: ["email"])],
///     destinations: [FirebaseDestination(adapter: firebase), ConsoleDestination()]
/// )
/// analytics.track(.menuItemOrdered(itemName: "Pizza"))
/// ```
///
/// ## How an event flows
/// 1. `track` stamps the ``Envelope`` (message id, time, identity) on the caller's thread and enqueues
///    it. That is all the caller pays for.
/// 2. One worker thread applies ``InputLimits`` and runs the processors in order.
/// 3. Each destination gets the event through its own bounded buffer and thread, so a slow, throwing or
///    blocking destination holds back neither the caller nor the other destinations.
///
/// ``flush()`` returns when everything tracked before it has reached every destination; tests call it
/// instead of sleeping. ``shutdown()`` flushes and stops; events tracked afterwards are counted under
/// ``DropReason/afterShutdown`` and otherwise ignored.
///
/// Nothing is dropped silently: every drop has a ``DropReason`` counted in ``diagnostics``, and every
/// rule broken is reported as a ``Problem``.
public final class AnalyticsClient: AnalyticsTracking {
    private let pipeline: Pipeline

    /// Creates a client and starts its threads.
    ///
    /// - Parameters:
    ///   - processors: run in order on every event.
    ///   - destinations: every event that survives the processors goes to each of these (unless routed).
    ///     Names must be unique; a repeated name gets a `#2`, `#3`… suffix and a
    ///     ``Problem/Code/duplicateDestinationName`` problem.
    ///   - configuration: buffering, identity, consent, input limits, clock and problem handling.
    public init(
        processors: [any Processor] = [], destinations: [any Destination],
        configuration: Configuration = Configuration()
    ) {
        pipeline = Pipeline(processors: processors, destinations: destinations, configuration: configuration)
    }

    deinit {
        pipeline.stop()
    }

    // MARK: Tracking

    /// Tracks an event of any kind. Returns after stamping and enqueueing it.
    ///
    /// Identify events also set the user id (and merge traits) for the events that follow; alias events
    /// stamp the previous id and then switch to the new one.
    public func track(_ event: Event) {
        pipeline.enqueue(event)
    }

    /// Clears the user id and traits and starts a new anonymous id, saved through the identity store, and
    /// asks each destination to forget the user too (``Destination/reset()``), in order with the events.
    public func reset() {
        pipeline.resetIdentity()
    }

    /// The identity the next event will carry.
    public var identity: Identity { pipeline.currentIdentity }

    // MARK: Consent

    /// Stops every event from reaching any destination from this moment, including events already
    /// queued. Events tracked while opted out are counted under ``DropReason/optedOut``.
    ///
    /// An event a destination is already receiving when this is called completes.
    public func optOut() { pipeline.setConsent(false) }

    /// Resumes delivery for events tracked from now on. Events dropped while opted out stay dropped.
    public func optIn() { pipeline.setConsent(true) }

    /// Whether the user has opted out.
    public var isOptedOut: Bool { !pipeline.consentGranted }

    // MARK: Lifecycle

    /// Returns when every event tracked before the call has been delivered to, or dropped by, every
    /// destination, and each destination's own ``Destination/flush()`` has run.
    public func flush() async {
        await pipeline.flush()
    }

    /// Flushes, then stops the client's threads. Later calls to `track` are counted under
    /// ``DropReason/afterShutdown``, with one ``Problem/Code/trackedAfterShutdown`` problem for the first.
    /// Calling it again does nothing more.
    public func shutdown() async {
        await pipeline.shutdown()
    }

    // MARK: Diagnostics

    /// A snapshot of the counts and recent problems. Exact after ``flush()``.
    public var diagnostics: Diagnostics { pipeline.diagnostics }

    /// The names of the destinations, in order, after de-duplication.
    public var destinationNames: [String] { pipeline.destinationNames }

    /// Returns once at least `count` callers of `track` are waiting for room in the client's full `.block`
    /// queue. A seam for this package's tests.
    package func waitForBlockedCallers(_ count: Int) async {
        await pipeline.waitForBlockedCallers(count)
    }
}

extension AnalyticsClient {
    /// Everything about a client except its processors and destinations.
    public struct Configuration: Sendable {
        /// The client's own queue between callers and its worker. Default: 10,000 events, drop newest.
        public var buffering: Buffering
        /// Each destination's queue, unless ``bufferingByDestination`` names it. Default: 10,000 events,
        /// drop newest.
        public var destinationBuffering: Buffering
        /// Queues for particular destinations, by name (after de-duplication).
        public var bufferingByDestination: [String: Buffering]
        /// The rules applied to every event before the processors. See ``InputLimits``.
        public var inputLimits: InputLimits
        /// Where the identity is loaded from and saved to. Default: in memory.
        public var identityStore: any IdentityStore
        /// Whether the user starts opted in. Default: true.
        public var startsOptedIn: Bool
        /// The clock for timestamps. Default: `Date.init`.
        public var now: @Sendable () -> Date
        /// Called for every problem, on the thread that found it (a caller's, the worker's or a
        /// destination's). Keep it quick. It may track events (an `analytics_problem` event, say): from the
        /// client's own threads `track` never waits for room, even under ``Buffering/OverflowPolicy/block``;
        /// when the queue is full such an event is dropped and counted under ``DropReason/bufferFull``.
        public var onProblem: (@Sendable (Problem) -> Void)?
        /// How many recent problems ``Diagnostics/recentProblems`` keeps. Default: 100.
        public var problemHistoryLimit: Int

        /// Creates a configuration; every parameter has the documented default.
        public init(
            buffering: Buffering = .default,
            destinationBuffering: Buffering = .default,
            bufferingByDestination: [String: Buffering] = [:],
            inputLimits: InputLimits = .default,
            identityStore: any IdentityStore = InMemoryIdentityStore(),
            startsOptedIn: Bool = true,
            now: @escaping @Sendable () -> Date = { Date() },
            onProblem: (@Sendable (Problem) -> Void)? = nil,
            problemHistoryLimit: Int = 100
        ) {
            self.buffering = buffering
            self.destinationBuffering = destinationBuffering
            self.bufferingByDestination = bufferingByDestination
            self.inputLimits = inputLimits
            self.identityStore = identityStore
            self.startsOptedIn = startsOptedIn
            self.now = now
            self.onProblem = onProblem
            self.problemHistoryLimit = problemHistoryLimit
        }
    }
}
