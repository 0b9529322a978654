import Foundation

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
        /// The purposes that need the user's consent (``ConsentPurpose``): until the user answers, events
        /// of these purposes wait in the consent hold. A purpose not listed flows unless the user denied
        /// it through ``AnalyticsClient/setConsent(_:for:)``. Default: none, so nothing waits.
        ///
        /// ```swift
        /// configuration.consentRequired = [.analytics, .advertising]
        /// ```
        public var consentRequired: Set<ConsentPurpose>
        /// Where the user's consent answers are loaded from and saved to. Default: in memory, nothing
        /// answered.
        public var consentStore: any ConsentStore
        /// How many events the consent hold keeps while the user has not answered, across purposes.
        /// Beyond it the newest events are dropped under ``DropReason/consentHoldFull``. Default: 1,000.
        public var consentHoldCapacity: Int
        /// The purposes each destination may receive, by destination name (after de-duplication). A
        /// destination listed receives only events of those purposes (the others are counted under
        /// ``DropReason/purposeNotAllowed``); a destination not listed receives every purpose.
        ///
        /// ```swift
        /// configuration.purposesByDestination = ["firebase": [.analytics], "appsflyer": [.advertising]]
        /// ```
        public var purposesByDestination: [String: Set<ConsentPurpose>]
        /// The tracking plan's runtime rules the client follows (``PlanRules``, as `tally gen` writes them),
        /// or nil. Default: nil.
        ///
        /// With rules, the client gates the plan's ``PlanRules/consentRequired`` purposes as well as those
        /// of ``consentRequired``; gives each destination the purposes the plan allows it
        /// (``PlanRules/purposesByDestination``) unless ``purposesByDestination`` names it; and after the
        /// processors gives each planned event its plan's purpose, keeps advertising identifiers to
        /// advertising events and applies the personal-data rules, hashing with ``personalDataHash``.
        ///
        /// ```swift
        /// let analytics = AnalyticsClient(
        ///     destinations: [product, ads], configuration: .init(rules: PlannedEvents.rules, hash: sha256))
        /// ```
        public var rules: PlanRules?
        /// What the plan's `hash` rules use (``PersonalDataRule/hash``): SHA-256 from CryptoKit, say. Without
        /// one, values to hash are redacted instead, and a ``Problem/Code/personalDataNotHashed`` problem
        /// says so. Default: nil.
        public var personalDataHash: (@Sendable (String) -> String)?
        /// The clock for timestamps. Default: `Date.init`.
        public var now: @Sendable () -> Date
        /// Called for every problem, on the thread that found it (a caller's, the worker's or a
        /// destination's). Keep it quick. It may track events (an `analytics_problem` event, say): they are
        /// feedback events (``Envelope/Origin/feedback``), delivered and marked; what is tracked from
        /// `onProblem` for a problem that a feedback event caused is dropped and counted under
        /// ``DropReason/feedbackLoop``, so one app event leads to at most one feedback event per problem it
        /// causes. `track` never waits for room here, even under ``Buffering/OverflowPolicy/block``: when the
        /// queue is full the event is dropped and counted under ``DropReason/bufferFull``.
        public var onProblem: (@Sendable (Problem) -> Void)?
        /// How many recent problems ``Statistics/recentProblems`` keeps. Default: 100.
        public var problemHistoryLimit: Int
        /// ``flushTimeout`` in nanoseconds, stored without `Duration`, which iOS 15 lacks.
        var flushTimeoutNanoseconds: Int64? = 30_000_000_000
        /// ``clock``, stored without `Clock`, which iOS 15 lacks.
        private var storedClock: (any Sendable)?
        /// False keeps every destination's ledger on its lock where `Synchronization`'s atomics exist, as on
        /// the Apple systems without them (see `DestinationLedger`): for tests of that path on Linux.
        var ledgersUseAtomics = true

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
            problemHistoryLimit: Int = 100,
            consentRequired: Set<ConsentPurpose> = [],
            consentStore: any ConsentStore = InMemoryConsentStore(),
            consentHoldCapacity: Int = 1000,
            purposesByDestination: [String: Set<ConsentPurpose>] = [:]
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
            self.consentRequired = consentRequired
            self.consentStore = consentStore
            self.consentHoldCapacity = consentHoldCapacity
            self.purposesByDestination = purposesByDestination
        }

        /// A configuration that follows a tracking plan's runtime rules (``rules``), with every other setting
        /// at its default.
        ///
        /// ```swift
        /// let analytics = AnalyticsClient(
        ///     destinations: [product, ads], configuration: .init(rules: PlannedEvents.rules, hash: sha256))
        /// ```
        ///
        /// - Parameters:
        ///   - rules: the plan's rules, usually `PlannedEvents.rules` from `tally gen`.
        ///   - hash: what the plan's `hash` rules use; nil redacts those values instead (and reports it).
        public init(rules: PlanRules, hash: (@Sendable (String) -> String)? = nil) {
            self.init()
            self.rules = rules
            self.personalDataHash = hash
        }

        /// The purposes the client gates: ``consentRequired`` and the plan's.
        var gatedPurposes: Set<ConsentPurpose> {
            guard let rules else { return consentRequired }
            return consentRequired.union(rules.consentRequired)
        }

        /// The purposes destination `name` may receive, or nil for all: ``purposesByDestination``'s entry,
        /// else the plan's.
        func purposes(ofDestination name: String) -> Set<ConsentPurpose>? {
            purposesByDestination[name] ?? rules?.purposesByDestination[name]
        }

        /// Of `names`, the destinations that the plan's rules, which name destinations, do not name, and that
        /// ``purposesByDestination`` does not name either: they receive every purpose.
        func destinationsNotPlanned(_ names: [String]) -> [String] {
            guard let planned = rules?.purposesByDestination, !planned.isEmpty else { return [] }
            return names.filter { planned[$0] == nil && purposesByDestination[$0] == nil }
        }

        /// The processors the client runs: the app's, then the plan's rules when there are any.
        func processors(after own: [any Processor]) -> [any Processor] {
            guard let rules else { return own }
            return own + [PlanRulesProcessor(rules: rules, hash: personalDataHash)]
        }

        /// The clock that the deadlines of ``AnalyticsClient/flush()`` and ``AnalyticsClient/shutdown()`` run
        /// on. Default: `ContinuousClock()`. Tests of deadlines give a `ManualClock` from TallyTesting and
        /// advance it instead of sleeping.
        ///
        /// ```swift
        /// let clock = ManualClock()
        /// var configuration = AnalyticsClient.Configuration()
        /// configuration.clock = clock
        /// ```
        @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
        public var clock: any Clock<Duration> {
            get { storedClock as? any Clock<Duration> ?? ContinuousClock() }
            set { storedClock = newValue }
        }

        /// How long ``AnalyticsClient/flush()`` and ``AnalyticsClient/shutdown()`` wait at most when called
        /// without a timeout, on ``clock``. Default: 30 seconds; nil waits until delivery completes (or the
        /// task is cancelled). Before iOS 16 and macOS 13 the default applies, measured by `Task.sleep`.
        @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
        public var flushTimeout: Duration? {
            get { flushTimeoutNanoseconds.map { .nanoseconds($0) } }
            set { flushTimeoutNanoseconds = newValue.map(Self.nanoseconds) }
        }

        /// `duration` in whole nanoseconds, negative durations as 0 and huge ones as `Int64.max`.
        @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
        private static func nanoseconds(_ duration: Duration) -> Int64 {
            let (seconds, attoseconds) = max(duration, .zero).components
            guard seconds < Int64.max / 1_000_000_000 - 1 else { return .max }
            return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        }

        /// A function that sleeps until a deadline `nanoseconds` after it is called, on ``clock``; nil for
        /// no deadline.
        func deadline(after nanoseconds: Int64?) -> (@Sendable () async throws -> Void)? {
            guard let nanoseconds else { return nil }
            if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
                let clock = clock
                return { try await Self.sleep(on: clock, for: .nanoseconds(nanoseconds)) }
            }
            return { try await Task.sleep(nanoseconds: UInt64(max(0, nanoseconds))) }
        }

        /// Sleeps on a clock of any type (opening the existential).
        @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
        static func sleep(on clock: some Clock<Duration>, for duration: Duration) async throws {
            try await clock.sleep(for: duration)
        }
    }
}
