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
/// 1. `track` stamps the ``Envelope`` (message id, time, identity) on the caller's thread and appends it
///    to the client's bounded queue, waking the worker only if it is idle. That is all the caller pays for.
/// 2. One worker thread takes the whole queue at once, applies ``InputLimits`` and runs the processors in
///    order on each event, in place.
/// 3. The worker hands that batch to each destination's own bounded queue and thread (the destinations
///    share it: no event is copied), so a slow, throwing or blocking destination holds back neither the
///    caller nor the other destinations.
///
/// ``flush()`` returns when everything tracked before it has reached every destination, or when its
/// deadline passes, or when its task is cancelled; the ``FlushResult`` says which, and which destinations
/// did not finish with how many events each still holds. Tests call it instead of sleeping.
/// ``shutdown()`` stops accepting events, then flushes the same way; events tracked afterwards are counted
/// under ``DropReason/afterShutdown``. Deadlines run on ``Configuration/clock``, 30 seconds by default
/// (``Configuration/flushTimeout``).
///
/// Nothing is dropped silently: every drop has a ``DropReason`` counted in ``statistics``, and every
/// rule broken is reported as a ``Problem``. Events tracked from the client's own threads or from
/// ``Configuration/onProblem`` are marked as feedback (``Envelope/Origin``), and what they cause tracks
/// nothing more, so no loop through the client runs away.
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
        defaultDeadline = configuration.deadline(after: configuration.flushTimeoutNanoseconds)
        if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
            deadlineClock = configuration.clock
        } else {
            deadlineClock = nil
        }
    }

    /// Sleeps until the default deadline of a flush or shutdown; nil for none.
    private let defaultDeadline: (@Sendable () async throws -> Void)?
    /// ``Configuration/clock``, where the platform has `Clock`.
    private let deadlineClock: (any Sendable)?

    deinit {
        pipeline.stop()
    }

    // MARK: Tracking

    /// Tracks an event of any kind. Returns after stamping and enqueueing it.
    ///
    /// Identify events also set the user id (and merge traits) for the events that follow; alias events
    /// stamp the previous id and then switch to the new one.
    ///
    /// Called from the client's own threads (a destination, a processor) or from
    /// ``Configuration/onProblem``, the event is a feedback event (``Envelope/Origin/feedback``); called while
    /// the client handles a feedback event, it is dropped and counted under ``DropReason/feedbackLoop``.
    public func track(_ event: consuming Event) {
        pipeline.enqueue(event)
    }

    /// Clears the user id and traits and starts a new anonymous id, saved through the identity store, and
    /// asks each destination to forget the user too (``Destination/reset()``), in order with the events.
    ///
    /// Events still waiting in the consent hold for the user's answer are dropped and counted under
    /// ``DropReason/resetWhileHeld``: they belong to the user who signed out.
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
    public func optOut() { pipeline.setOptedIn(false) }

    /// Resumes delivery for events tracked from now on. Events dropped while opted out stay dropped.
    public func optIn() { pipeline.setOptedIn(true) }

    /// Whether the user has opted out.
    public var isOptedOut: Bool { !pipeline.optedIn }

    /// Records the user's answer for one purpose (see ``ConsentPurpose``), saves it through
    /// ``Configuration/consentStore``, and applies it to the events tracked from now on and to those
    /// waiting for it:
    /// - ``ConsentStatus/granted``: the events waiting for this purpose go on to the destinations, in the
    ///   order they were tracked, ahead of the events tracked after this call; new ones flow.
    /// - ``ConsentStatus/denied``: the waiting events are dropped, and so are new ones, under
    ///   ``DropReason/consentDenied``.
    /// - ``ConsentStatus/notAsked``: new events of the purpose wait too.
    ///
    /// Any purpose can be answered, listed in ``Configuration/consentRequired`` or not: a purpose denied
    /// here stops flowing even if the client did not require consent for it.
    ///
    /// ```swift
    /// analytics.setConsent(.granted, for: .analytics)
    /// analytics.setConsent(ConsentStatus(trackingAuthorizationStatus: att.rawValue), for: .advertising)
    /// ```
    ///
    /// The global ``optOut()`` still wins: an opted-out user's events are dropped whatever the answers.
    public func setConsent(_ status: ConsentStatus, for purpose: ConsentPurpose) {
        pipeline.setConsent(status, for: purpose)
    }

    /// The user's answer for `purpose` as the next event will see it: the answer given, else
    /// ``ConsentStatus/notAsked`` for a purpose in ``Configuration/consentRequired`` and
    /// ``ConsentStatus/granted`` for the others.
    public func consent(for purpose: ConsentPurpose) -> ConsentStatus {
        pipeline.consent(for: purpose)
    }

    // MARK: Lifecycle

    /// Waits until every event tracked before the call has been delivered to, or dropped by, every
    /// destination and each destination's own ``Destination/flush()`` has run, or until
    /// ``Configuration/flushTimeout`` passes on ``Configuration/clock``, or until the task is cancelled.
    ///
    /// ```swift
    /// analytics.track("checkout_completed")
    /// let result = await analytics.flush()
    /// if !result.isComplete { print(result) }   // "timed out; still held: vendor 120 events"
    /// ```
    ///
    /// A destination that misses the deadline is reported as a ``Problem/Code/destinationStuck`` problem. Its
    /// events stay queued for it; a later flush waits for them again.
    ///
    /// - Returns: whether delivery completed, and what is still held when it did not.
    @discardableResult
    public func flush() async -> FlushResult {
        await pipeline.flush(sleep: defaultDeadline)
    }

    /// Like ``flush()``, with its own deadline: `timeout` after the call, on ``Configuration/clock``.
    ///
    /// ```swift
    /// let result = await analytics.flush(timeout: .seconds(2))
    /// ```
    ///
    /// - Parameter timeout: how long to wait at most; nil waits until delivery completes or the task is
    ///   cancelled.
    /// - Returns: whether delivery completed, and what is still held when it did not.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @discardableResult
    public func flush(timeout: Duration?) async -> FlushResult {
        await pipeline.flush(sleep: deadline(after: timeout))
    }

    /// Stops accepting events, then flushes like ``flush()``. The client is shut down whatever the flush
    /// achieves: later calls to `track` are counted under ``DropReason/afterShutdown``, with one
    /// ``Problem/Code/trackedAfterShutdown`` problem for the first.
    ///
    /// When every destination finished, the client's threads stop. A destination stuck past the deadline
    /// keeps its thread (no thread can be stopped from outside); if it ever returns, it gets the events it
    /// still holds, and its thread then ends. Calling `shutdown` again flushes again.
    ///
    /// - Returns: whether delivery completed, and what is still held when it did not.
    @discardableResult
    public func shutdown() async -> FlushResult {
        await pipeline.shutdown(sleep: defaultDeadline)
    }

    /// Like ``shutdown()``, with its own deadline: `timeout` after the call, on ``Configuration/clock``.
    ///
    /// - Parameter timeout: how long to wait for delivery at most; nil waits until delivery completes or
    ///   the task is cancelled.
    /// - Returns: whether delivery completed, and what is still held when it did not.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @discardableResult
    public func shutdown(timeout: Duration?) async -> FlushResult {
        await pipeline.shutdown(sleep: deadline(after: timeout))
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    private func deadline(after timeout: Duration?) -> (@Sendable () async throws -> Void)? {
        guard let timeout, let clock = deadlineClock as? any Clock<Duration> else { return nil }
        return { try await Configuration.sleep(on: clock, for: timeout) }
    }

    // MARK: Statistics

    /// A snapshot of the counts and recent problems. Exact after ``flush()``.
    public var statistics: Statistics { pipeline.statistics }

    /// The names of the destinations, in order, after de-duplication.
    public var destinationNames: [String] { pipeline.destinationNames }
}
