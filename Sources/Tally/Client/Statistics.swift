/// Why the client did not deliver an event. Every drop has one, and each is counted in ``Statistics``.
public struct DropReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The event broke an ``InputLimits`` rule that drops it (a name that is empty, too long, or holds a
    /// control or invisible character).
    public static let invalidEvent = DropReason(rawValue: "invalid_event")
    /// The user had opted out: tracked while opted out, or still queued when they opted out.
    public static let optedOut = DropReason(rawValue: "opted_out")
    /// Tracked after ``AnalyticsClient/shutdown()``.
    public static let afterShutdown = DropReason(rawValue: "after_shutdown")
    /// A buffer was full and its policy was ``Buffering/OverflowPolicy/dropNewest``.
    public static let bufferFull = DropReason(rawValue: "buffer_full")
    /// A destination rejected the event by rule (it threw a ``Problem``).
    public static let rejected = DropReason(rawValue: "rejected")
    /// A destination threw another error.
    public static let failed = DropReason(rawValue: "failed")
    /// Tracked while the client handled a feedback event: from a destination receiving one, or from
    /// `onProblem` for a problem one caused (see ``Envelope/Origin``). Counted so that no loop through the
    /// client runs away.
    public static let feedbackLoop = DropReason(rawValue: "feedback_loop")
    /// A destination's own queue reached its bounds (events or bytes) and dropped its oldest events. Counted
    /// in ``DestinationStatistics/droppedAfterDelivery``.
    public static let queueFull = DropReason(rawValue: "queue_full")
    /// The server refused the event for good (a status that is not retried, such as 400 for this one
    /// event). Counted in ``DestinationStatistics/droppedAfterDelivery``.
    public static let refusedByServer = DropReason(rawValue: "refused_by_server")
    /// A destination retried sending the event as many times as its policy allows. Counted in
    /// ``DestinationStatistics/droppedAfterDelivery``.
    public static let retriesExhausted = DropReason(rawValue: "retries_exhausted")

    /// A destination could not write the event to its storage because the disk (or the database's own
    /// limit) was full, and dropped it: its memory buffer overflowed while it waited, or it was closed
    /// first. Counted in ``DestinationStatistics/droppedAfterDelivery``.
    public static let storageFull = DropReason(rawValue: "storage_full")
    /// A destination's storage failed otherwise (read-only, damaged, unusable) and the event was lost with
    /// it. Counted in ``DestinationStatistics/droppedAfterDelivery``.
    public static let storageFailed = DropReason(rawValue: "storage_failed")

    /// The event's purpose (``Event/purpose``) was denied by the user: tracked while denied, or waiting in
    /// the consent hold when the user said no.
    public static let consentDenied = DropReason(rawValue: "consent_denied")
    /// The event waited for the user's answer and the consent hold was full
    /// (``AnalyticsClient/Configuration/consentHoldCapacity``): the newest events are dropped, the earliest
    /// kept.
    public static let consentHoldFull = DropReason(rawValue: "consent_hold_full")
    /// The event still waited for the user's answer when the client shut down.
    public static let consentNotGiven = DropReason(rawValue: "consent_not_given")
    /// The event still waited for the user's answer when the app called ``AnalyticsClient/reset()``: the
    /// user it was tracked for signed out before answering. Released later, it would reach vendor SDKs that
    /// keep their own identity after their reset, and be filed under the next user.
    public static let resetWhileHeld = DropReason(rawValue: "reset_while_held")
    /// The destination is not allowed the event's purpose
    /// (``AnalyticsClient/Configuration/purposesByDestination``). Counted in that destination's
    /// ``DestinationStatistics/dropped``.
    public static let purposeNotAllowed = DropReason(rawValue: "purpose_not_allowed")

    /// A processor returned nil.
    public static func filtered(by processor: String) -> DropReason {
        DropReason(rawValue: "filtered:\(processor)")
    }
}

/// A snapshot of what a client did: how many events were tracked, delivered and dropped, and why.
///
/// Read it with ``AnalyticsClient/statistics``. After ``AnalyticsClient/flush()`` every tracked event is accounted for
/// at every destination: `tracked == totalDropped + heldForConsent + delivered + routedAway + dropped` for
/// each destination, where ``totalDropped`` is the client's drops, ``heldForConsent`` the events waiting for
/// the user's consent, and the last three are that destination's own (see ``accounted(at:)``).
public struct Statistics: Sendable, Hashable {
    /// Calls to `track` and its siblings, including those that were later dropped.
    public var tracked = 0
    /// Events dropped before reaching the destinations, by reason: invalid input, opted out, after
    /// shutdown, filtered by a processor, the client's own buffer being full, or a feedback loop.
    public var dropped: [DropReason: Int] = [:]
    /// Per destination, by name.
    public var destinations: [String: DestinationStatistics] = [:]
    /// Events waiting in the consent hold for the user's answer on their purpose (see
    /// ``AnalyticsClient/setConsent(_:for:)``): they reach the destinations if the user agrees, and are
    /// dropped under ``DropReason/consentDenied`` if not.
    public var heldForConsent = 0
    /// The most recent problems, oldest first (at most ``AnalyticsClient/Configuration/problemHistoryLimit``).
    public var recentProblems: [Problem] = []

    /// Events delivered to each destination, by name.
    public var delivered: [String: Int] { destinations.mapValues(\.delivered) }

    /// The total of ``dropped`` over every reason.
    public var totalDropped: Int { dropped.values.reduce(0, +) }

    /// The events accounted for at one destination: dropped by the client, held for consent, delivered
    /// there, routed away from it, or dropped there. Equals ``tracked`` after ``AnalyticsClient/flush()``.
    public func accounted(at destination: String) -> Int {
        let counts = destinations[destination] ?? DestinationStatistics()
        return totalDropped + heldForConsent + counts.delivered + counts.routedAway
            + counts.dropped.values.reduce(0, +)
    }

    public init() {}
}

/// What happened at one destination.
public struct DestinationStatistics: Sendable, Hashable {
    /// Events the destination received without throwing.
    public var delivered = 0
    /// Events the destination did not get or did not take, by reason: ``DropReason/bufferFull``,
    /// ``DropReason/optedOut``, ``DropReason/rejected``, ``DropReason/failed``,
    /// ``DropReason/purposeNotAllowed``.
    public var dropped: [DropReason: Int] = [:]
    /// Events routed elsewhere by a routing processor (not drops: they were not meant for this
    /// destination).
    public var routedAway = 0
    /// Events the destination had taken (counted in ``delivered``) and dropped afterwards, by reason: a
    /// destination that queues events and sends them later reports these through
    /// ``DestinationContext/reportDropped(_:reason:problem:)``, such as ``DropReason/queueFull``,
    /// ``DropReason/refusedByServer``, ``DropReason/retriesExhausted``, ``DropReason/storageFull`` or
    /// ``DropReason/storageFailed``. A durable queue may also drop events
    /// that an earlier run of the app delivered to it, so these are not part of
    /// ``Statistics/accounted(at:)``.
    public var droppedAfterDelivery: [DropReason: Int] = [:]

    public init() {}
}
