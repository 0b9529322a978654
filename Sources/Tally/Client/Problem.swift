/// Something the client noticed about an event: bad input it sanitized or rejected, a vendor limit, a
/// destination that failed, an event it had to drop.
///
/// Problems reach the app through ``AnalyticsClient/Configuration/onProblem`` and ``Statistics/recentProblems``,
/// and tests read them the same way. A destination may also throw a `Problem` from
/// ``Destination/receive(_:context:)`` to reject an event by rule; it is then counted as rejected, not
/// failed.
public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is. Extensible: destinations may define their own codes.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The event name was empty or only whitespace. The event is dropped.
        public static let emptyName = Code("empty_name")
        /// The event name (or id) was longer than ``InputLimits/maximumNameBytes`` UTF-8 bytes. The event is
        /// dropped.
        public static let nameTooLong = Code("name_too_long")
        /// The event name (or id) held a control or invisible character (see ``InputLimits``). The event is
        /// dropped.
        public static let invalidName = Code("invalid_name")
        /// A property key was empty. The property is removed.
        public static let emptyPropertyKey = Code("empty_property_key")
        /// A property key was longer than ``InputLimits/maximumNameBytes`` UTF-8 bytes or held a control or
        /// invisible character. The property is removed.
        public static let invalidPropertyKey = Code("invalid_property_key")
        /// A double was NaN or infinite. It is replaced by `null`.
        public static let nonFiniteNumber = Code("non_finite_number")
        /// A string was longer than ``InputLimits/maximumStringBytes``. It is truncated.
        public static let stringTooLong = Code("string_too_long")
        /// Arrays and objects nested deeper than ``InputLimits/maximumDepth``. The deeper part is replaced
        /// by `null`.
        public static let nestingTooDeep = Code("nesting_too_deep")
        /// More than ``InputLimits/maximumPropertyCount`` properties. The extra ones are removed.
        public static let tooManyProperties = Code("too_many_properties")
        /// A vendor destination changed or refused an event to respect the vendor's documented limits.
        public static let vendorLimit = Code("vendor_limit")
        /// A destination threw an error while receiving an event.
        public static let destinationFailed = Code("destination_failed")
        /// A buffer was full and an event was dropped by its overflow policy. Reported once per overflow
        /// episode (until the buffer empties again).
        public static let bufferFull = Code("buffer_full")
        /// A buffer was full under ``Buffering/OverflowPolicy/block`` and something waits for room: a caller
        /// of `track` for the client's queue (reported on the caller's thread before it waits), the client's
        /// worker for a destination's queue (``Problem/destination`` is set). Nothing is dropped. Reported
        /// once per overflow episode.
        public static let waitingForRoom = Code("waiting_for_room")
        /// A destination did not finish a ``AnalyticsClient/flush()`` or ``AnalyticsClient/shutdown()`` by its
        /// deadline; the message says how many events it still holds.
        public static let destinationStuck = Code("destination_stuck")
        /// An event was tracked while the client handled a feedback event (see ``Envelope/Origin``). It is
        /// dropped and counted under ``DropReason/feedbackLoop``; only the first is reported.
        public static let feedbackLoop = Code("feedback_loop")
        /// An event was tracked after ``AnalyticsClient/shutdown()``. Only the first is reported.
        public static let trackedAfterShutdown = Code("tracked_after_shutdown")
        /// Two destinations had the same name; the later one was renamed.
        public static let duplicateDestinationName = Code("duplicate_destination_name")
        /// The consent hold is full: events waiting for the user's answer are dropped until the user answers
        /// (``DropReason/consentHoldFull``). Reported once per client.
        public static let consentHoldFull = Code("consent_hold_full")
        /// A ``PersonalDataProcessor`` had a value to hash and no hash function: it redacted the value
        /// instead.
        public static let personalDataNotHashed = Code("personal_data_not_hashed")
        /// A client following a plan's rules (``AnalyticsClient/Configuration/rules``) got a planned event with
        /// another purpose than the plan's: it gated and routed the event by the plan's purpose.
        public static let purposeNotPlanned = Code("purpose_not_planned")
        /// A client following a plan's rules removed an advertising identifier from an event that is not for
        /// ``ConsentPurpose/advertising`` (see ``PlanRules``).
        public static let advertisingIdentifierRemoved = Code("advertising_identifier_removed")
        /// A client following a plan's rules that name destinations (``PlanRules/purposesByDestination``) was
        /// given a destination the plan does not name (a misspelt name, say), which therefore receives every
        /// purpose. Reported once, when the client starts.
        public static let destinationNotPlanned = Code("destination_not_planned")
    }

    /// What became of the event or value the problem is about.
    public enum Outcome: String, Sendable, Hashable {
        /// The event did not reach the destination (or any destination, when ``Problem/destination`` is
        /// nil).
        case dropped
        /// The event was changed by a documented rule and then delivered.
        case sanitized
        /// Nothing was changed; the problem is a warning.
        case reported
    }

    /// The kind of problem.
    public var code: Code
    /// What happened, in one sentence.
    public var message: String
    /// What became of the event.
    public var outcome: Outcome
    /// The event's name, when the problem is about one event.
    public var eventName: String?
    /// The destination's name, when one destination is concerned.
    public var destination: String?
    /// A JSON pointer to the property concerned, such as `/properties/address/street`; for the traits of an
    /// identify or group event, `/traits/address/street`.
    public var path: String?

    /// Creates a problem.
    public init(
        _ code: Code, _ message: String, outcome: Outcome, eventName: String? = nil, destination: String? = nil,
        path: String? = nil
    ) {
        self.code = code
        self.message = message
        self.outcome = outcome
        self.eventName = eventName
        self.destination = destination
        self.path = path
    }

    /// One line: `[code] message (event, destination, path)`.
    public var description: String {
        let details = [eventName.map { "event \"\($0)\"" }, destination.map { "destination \($0)" }, path]
            .compactMap { $0 }
        let suffix = details.isEmpty ? "" : " (\(details.joined(separator: ", ")))"
        return "[\(code)] \(message)\(suffix); \(outcome.rawValue)"
    }
}
