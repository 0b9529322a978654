import Foundation
import Tally

/// A thread-safe, ordered list of envelopes that can be watched: the storage behind
/// ``InMemoryDestination``, and behind TallyTesting's spies and recordings.
///
/// Any thread may append and read at any time. Watchers registered with ``watch(_:)`` are told after each
/// change, which lets tests wait for events without polling.
public final class EventLog: Sendable {
    // The envelopes are stored by column: events apart from the rest, so expectations scan a compact
    // array of events, and a spy, which stamps nothing but a time, stores 40 bytes per event instead of a
    // whole envelope.
    private struct State {
        /// The events, what expectations accounted for, and who waits: the engine every recorder shares.
        var ledger = Ledger<Event>()
        var timestamps: [Date] = []
        /// The rest of each envelope, or empty while every envelope so far was appended with
        /// ``EventLog/append(_:stampedAt:)`` (whose rest follows from its position).
        var details: [Details] = []
        /// Each envelope's `Envelope.consent`, or shorter (the rest are nil): empty until an envelope with
        /// an answer arrives, so a log whose envelopes carry none stores nothing for it.
        var consents: [DeliveredConsent?] = []
        /// The positions whose record stage is not the log's ``EventLog/stage`` (records read from files and
        /// the collector mix spies' and destinations' records); empty for a log of one recorder.
        var otherStage: Set<Int> = []
    }

    /// An envelope without its event and timestamp.
    private struct Details {
        var messageId: MessageID
        var userId: String?
        var anonymousId: String
        var context: [String: PropertyValue]
        var destinations: Set<String>?

        init(_ envelope: Envelope) {
            messageId = envelope.messageId
            userId = envelope.userId
            anonymousId = envelope.anonymousId
            context = envelope.context
            destinations = envelope.destinations
        }
    }

    private let state = Locked(State())
    private let stampedAnonymousId: String
    private let exhaustive = Locked(true)
    /// Where in the events' flow this log's recorder sees them: `Record.Stage.tracked` for a spy (before a
    /// client's rules), `Record.Stage.delivered` for a destination. Records read back keep their own.
    public let stage: Record.Stage

    /// Creates an empty log of delivered events.
    public init() {
        stampedAnonymousId = ""
        stage = .delivered
    }

    /// Creates an empty log whose envelopes appended with ``append(_:stampedAt:)`` carry `anonymousId`.
    package init(stampedAnonymousId: String, stage: Record.Stage) {
        self.stampedAnonymousId = stampedAnonymousId
        self.stage = stage
    }

    /// Appends an envelope and tells the watchers.
    public func append(_ envelope: Envelope) {
        let (count, watchers) = state.withLock { state in
            fillDetails(&state)
            state.timestamps.append(envelope.timestamp)
            state.details.append(Details(envelope))
            Self.note(envelope.consent, at: state.ledger.count, in: &state)
            let watchers = state.ledger.append(envelope.event)
            return (state.ledger.count, watchers)
        }
        notify(watchers, count: count)
    }

    /// Appends `event` stamped with only a time, and tells the watchers. Its envelope is
    /// ``stampedEnvelope(_:position:timestamp:)``: the message id is its one-based position in the log, the
    /// anonymous id the log's, and nothing else is set.
    ///
    /// - Returns: the envelope's position.
    @discardableResult
    package func append(_ event: Event, stampedAt timestamp: Date) -> Int {
        let (count, watchers) = state.withLock { state in
            let watchers = state.ledger.append(event)
            state.timestamps.append(timestamp)
            if !state.details.isEmpty {
                state.details.append(
                    Details(stampedEnvelope(event, position: state.ledger.count, timestamp: timestamp)))
            }
            return (state.ledger.count, watchers)
        }
        notify(watchers, count: count)
        return count
    }

    /// The envelope of an event appended with ``append(_:stampedAt:)`` at `position`.
    package func stampedEnvelope(_ event: Event, position: Int, timestamp: Date) -> Envelope {
        Envelope(
            event: event, messageId: MessageID(prefix: 0, sequence: UInt64(position)), timestamp: timestamp,
            anonymousId: stampedAnonymousId)
    }

    /// Appends several envelopes at once and tells the watchers once.
    public func append(contentsOf envelopes: some Sequence<Envelope>) {
        append(contentsOf: envelopes.lazy.map { ($0, self.stage) })
    }

    /// Appends records' envelopes, each recorded at its stage, and tells the watchers once.
    package func append(contentsOf records: some Sequence<(Envelope, Record.Stage)>) {
        let (count, watchers) = state.withLock { state in
            fillDetails(&state)
            var events: [Event] = []
            for (envelope, stage) in records {
                if stage != self.stage { state.otherStage.insert(state.ledger.count + events.count) }
                Self.note(envelope.consent, at: state.ledger.count + events.count, in: &state)
                events.append(envelope.event)
                state.timestamps.append(envelope.timestamp)
                state.details.append(Details(envelope))
            }
            let watchers = state.ledger.append(contentsOf: events)
            return (state.ledger.count, watchers)
        }
        notify(watchers, count: count)
    }

    /// Keeps the answer of the envelope about to take `position`, growing ``State/consents`` only when
    /// there is one.
    private static func note(_ consent: DeliveredConsent?, at position: Int, in state: inout State) {
        guard consent != nil || !state.consents.isEmpty else { return }
        if state.consents.count < position {
            state.consents.append(contentsOf: repeatElement(nil, count: position - state.consents.count))
        }
        state.consents.append(consent)
    }

    /// Gives the stamped envelopes so far their details, before an envelope with details of its own joins
    /// them.
    private func fillDetails(_ state: inout State) {
        let events = state.ledger.entries
        guard state.details.count < events.count else { return }
        state.details.reserveCapacity(events.count + 1)
        for position in state.details.count..<events.count {
            state.details.append(
                Details(
                    stampedEnvelope(events[position], position: position + 1, timestamp: state.timestamps[position])))
        }
    }

    /// Everything appended, in order. The envelopes are assembled on each read (the log stores events
    /// apart from the rest), so read this once rather than in a loop; ``events`` is a plain copy.
    public var envelopes: [Envelope] { envelopes(from: 0) }

    /// What the app said, in order.
    public var events: [Event] { state.withLock { $0.ledger.entries } }

    /// How many envelopes the log holds.
    public var count: Int { state.withLock { $0.ledger.count } }

    /// Envelopes from `index` on: what arrived since a count was taken.
    public func envelopes(from index: Int) -> [Envelope] {
        let (events, timestamps, details, consents, start) = state.withLock { state in
            (
                state.ledger.entries, state.timestamps, state.details, state.consents,
                min(max(0, index), state.ledger.count)
            )
        }
        return (start..<events.count).map { position in
            guard position < details.count else {
                return stampedEnvelope(events[position], position: position + 1, timestamp: timestamps[position])
            }
            let rest = details[position]
            return Envelope(
                event: events[position], messageId: rest.messageId, timestamp: timestamps[position],
                userId: rest.userId, anonymousId: rest.anonymousId, context: rest.context,
                destinations: rest.destinations, consent: position < consents.count ? consents[position] : nil)
        }
    }

    /// Events from `index` on with their envelopes' `Envelope.consent`.
    package func eventsAndConsents(from index: Int) -> [(event: Event, consent: DeliveredConsent?)] {
        state.withLock { state in
            let start = min(max(0, index), state.ledger.count)
            return (start..<state.ledger.count).map { position in
                (state.ledger.entries[position], position < state.consents.count ? state.consents[position] : nil)
            }
        }
    }

    /// Events from `index` on: what the app said since a count was taken.
    package func events(from index: Int) -> [Event] {
        state.withLock { Array($0.ledger.entries[min(max(0, index), $0.ledger.count)...]) }
    }

    /// Forgets every envelope (and which ones expectations have accounted for) and tells the watchers.
    public func clear() {
        let watchers = state.withLock { state in
            state.timestamps.removeAll()
            state.details.removeAll()
            state.consents.removeAll()
            state.otherStage.removeAll()
            return state.ledger.removeAll()
        }
        notify(watchers, count: 0)
    }

    /// Calls `watcher` with the new count after every change, from the changing thread, until it returns
    /// true. It is also called once right away with the current count.
    ///
    /// - Returns: a token for ``unwatch(_:)``.
    @discardableResult
    public func watch(_ watcher: @escaping @Sendable (Int) -> Bool) -> UInt64 {
        let (token, count) = state.withLock { $0.ledger.addWatcher(watcher) }
        if watcher(count) { unwatch(token) }
        return token
    }

    /// Stops calling a watcher.
    public func unwatch(_ token: UInt64) {
        state.withLock { $0.ledger.removeWatcher(token) }
    }

    private func notify(_ watchers: [UInt64: Ledger<Event>.Watcher]?, count: Int) {
        Ledger<Event>.notify(watchers, count: count, unwatch: unwatch)
    }

    // MARK: Accounting for "nothing else"

    /// Marks the envelopes at `indices` as accounted for by an expectation.
    package func accountFor(_ indices: [Int]) {
        state.withLock { $0.ledger.accountFor(indices) }
    }

    /// Marks the envelopes in `indices` as accounted for by an expectation.
    package func accountFor(_ indices: Range<Int>) {
        state.withLock { $0.ledger.accountFor(indices) }
    }

    /// Marks the envelope at `index` as accounted for by an expectation.
    package func accountFor(_ index: Int) {
        state.withLock { $0.ledger.accountFor(index) }
    }

    /// Whether exhaustive mode checks the recorder this log belongs to (see `EventRecorder.isExhaustive`).
    package var isExhaustive: Bool {
        get { exhaustive.current }
        set { exhaustive.withLock { $0 = newValue } }
    }

    /// Every event and, by index, whether an expectation has accounted for it (indices past the end of
    /// `accounted` are not). Cheap: both arrays are shared, not copied.
    package var snapshot: (events: [Event], accounted: [Bool]) {
        state.withLock { ($0.ledger.entries, $0.ledger.accountedFlags) }
    }

    /// ``snapshot``, each envelope's `Envelope.consent` (an array that may be shorter than the events: the
    /// rest are nil), and the positions recorded at the other stage than ``stage``, taken together.
    package var deliveredSnapshot:
        (events: [Event], accounted: [Bool], consents: [DeliveredConsent?], otherStage: Set<Int>)
    {
        state.withLock { ($0.ledger.entries, $0.ledger.accountedFlags, $0.consents, $0.otherStage) }
    }
}
