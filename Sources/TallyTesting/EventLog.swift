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
        var events: [Event] = []
        var timestamps: [Date] = []
        /// The rest of each envelope, or empty while every envelope so far was appended with
        /// ``EventLog/append(_:stampedAt:)`` (whose rest follows from its position).
        var details: [Details] = []
        var claimed: [Bool] = []
        var watchers: [UInt64: @Sendable (Int) -> Bool] = [:]
        var nextWatcher: UInt64 = 0
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

    /// Creates an empty log.
    public init() {
        stampedAnonymousId = ""
    }

    /// Creates an empty log whose envelopes appended with ``append(_:stampedAt:)`` carry `anonymousId`.
    package init(stampedAnonymousId: String) {
        self.stampedAnonymousId = stampedAnonymousId
    }

    /// Appends an envelope and tells the watchers.
    public func append(_ envelope: Envelope) {
        let (count, watchers) = state.withLock { state in
            fillDetails(&state)
            state.events.append(envelope.event)
            state.timestamps.append(envelope.timestamp)
            state.details.append(Details(envelope))
            return (state.events.count, state.watchers.isEmpty ? nil : state.watchers)
        }
        if let watchers { notify(watchers, count: count) }
    }

    /// Appends `event` stamped with only a time, and tells the watchers. Its envelope is
    /// ``stampedEnvelope(_:position:timestamp:)``: the message id is its one-based position in the log, the
    /// anonymous id the log's, and nothing else is set.
    ///
    /// - Returns: the envelope's position.
    @discardableResult
    package func append(_ event: Event, stampedAt timestamp: Date) -> Int {
        let (count, watchers) = state.withLock { state in
            state.events.append(event)
            state.timestamps.append(timestamp)
            if !state.details.isEmpty {
                state.details.append(
                    Details(stampedEnvelope(event, position: state.events.count, timestamp: timestamp)))
            }
            return (state.events.count, state.watchers.isEmpty ? nil : state.watchers)
        }
        if let watchers { notify(watchers, count: count) }
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
        let (count, watchers) = state.withLock { state in
            fillDetails(&state)
            for envelope in envelopes {
                state.events.append(envelope.event)
                state.timestamps.append(envelope.timestamp)
                state.details.append(Details(envelope))
            }
            return (state.events.count, state.watchers)
        }
        notify(watchers, count: count)
    }

    /// Gives the stamped envelopes so far their details, before an envelope with details of its own joins
    /// them.
    private func fillDetails(_ state: inout State) {
        guard state.details.count < state.events.count else { return }
        state.details.reserveCapacity(state.events.count + 1)
        for position in state.details.count..<state.events.count {
            state.details.append(
                Details(
                    stampedEnvelope(
                        state.events[position], position: position + 1, timestamp: state.timestamps[position])))
        }
    }

    /// Everything appended, in order. The envelopes are assembled on each read (the log stores events
    /// apart from the rest), so read this once rather than in a loop; ``events`` is a plain copy.
    public var envelopes: [Envelope] { envelopes(from: 0) }

    /// What the app said, in order.
    public var events: [Event] { state.withLock { $0.events } }

    /// How many envelopes the log holds.
    public var count: Int { state.withLock { $0.events.count } }

    /// Envelopes from `index` on: what arrived since a count was taken.
    public func envelopes(from index: Int) -> [Envelope] {
        let (events, timestamps, details, start) = state.withLock { state in
            (state.events, state.timestamps, state.details, min(max(0, index), state.events.count))
        }
        return (start..<events.count).map { position in
            guard position < details.count else {
                return stampedEnvelope(events[position], position: position + 1, timestamp: timestamps[position])
            }
            let rest = details[position]
            return Envelope(
                event: events[position], messageId: rest.messageId, timestamp: timestamps[position],
                userId: rest.userId, anonymousId: rest.anonymousId, context: rest.context,
                destinations: rest.destinations)
        }
    }

    /// Events from `index` on: what the app said since a count was taken.
    package func events(from index: Int) -> [Event] {
        state.withLock { Array($0.events[min(max(0, index), $0.events.count)...]) }
    }

    /// Forgets every envelope (and which ones expectations have accounted for) and tells the watchers.
    public func clear() {
        let watchers = state.withLock { state in
            state.events.removeAll()
            state.timestamps.removeAll()
            state.details.removeAll()
            state.claimed.removeAll()
            return state.watchers
        }
        notify(watchers, count: 0)
    }

    /// Calls `watcher` with the new count after every change, from the changing thread, until it returns
    /// true. It is also called once right away with the current count.
    ///
    /// - Returns: a token for ``unwatch(_:)``.
    @discardableResult
    public func watch(_ watcher: @escaping @Sendable (Int) -> Bool) -> UInt64 {
        let (token, count) = state.withLock { state in
            state.nextWatcher += 1
            state.watchers[state.nextWatcher] = watcher
            return (state.nextWatcher, state.events.count)
        }
        if watcher(count) { unwatch(token) }
        return token
    }

    /// Stops calling a watcher.
    public func unwatch(_ token: UInt64) {
        _ = state.withLock { $0.watchers.removeValue(forKey: token) }
    }

    private func notify(_ watchers: [UInt64: @Sendable (Int) -> Bool], count: Int) {
        for (token, watcher) in watchers where watcher(count) { unwatch(token) }
    }

    // MARK: Accounting for "nothing else"

    /// Marks the envelopes at `indices` as accounted for by an expectation.
    package func claim(_ indices: [Int]) {
        claiming { claimed in
            for index in indices where index < claimed.count { claimed[index] = true }
        }
    }

    /// Marks the envelopes in `indices` as accounted for by an expectation.
    package func claim(_ indices: Range<Int>) {
        claiming { claimed in
            for index in indices.clamped(to: 0..<claimed.count) { claimed[index] = true }
        }
    }

    /// Marks the envelope at `index` as accounted for by an expectation.
    package func claim(_ index: Int) {
        claiming { claimed in
            if claimed.indices.contains(index) { claimed[index] = true }
        }
    }

    /// Runs `mark` on the claimed flags, one for each envelope. Concrete rather than generic over the
    /// indices: this module is not specialized for its callers, and an unspecialized sequence costs an
    /// allocation per index.
    private func claiming(_ mark: (inout [Bool]) -> Void) {
        state.withLock { state in
            if state.claimed.count < state.events.count {
                state.claimed.append(contentsOf: repeatElement(false, count: state.events.count - state.claimed.count))
            }
            mark(&state.claimed)
        }
    }

    /// Whether exhaustive mode checks the recorder this log belongs to (see `EventRecorder.isExhaustive`).
    package var isExhaustive: Bool {
        get { exhaustive.current }
        set { exhaustive.withLock { $0 = newValue } }
    }

    /// Every event and, by index, whether an expectation has accounted for it (indices past the end of
    /// `claimed` are not). Cheap: both arrays are shared, not copied.
    package var snapshot: (events: [Event], claimed: [Bool]) {
        state.withLock { ($0.events, $0.claimed) }
    }
}
