/// A thread-safe, ordered list of envelopes that can be watched: the storage behind
/// ``InMemoryDestination``, and behind TallyTesting's spies and recordings.
///
/// Any thread may append and read at any time. Watchers registered with ``watch(_:)`` are told after each
/// change, which lets tests wait for events without polling.
public final class EventLog: Sendable {
    private struct State {
        var envelopes: [Envelope] = []
        var claimed: [Bool] = []
        var watchers: [UInt64: @Sendable (Int) -> Bool] = [:]
        var nextWatcher: UInt64 = 0
    }

    private let state = Locked(State())

    /// Creates an empty log.
    public init() {}

    /// Appends an envelope and tells the watchers.
    public func append(_ envelope: Envelope) {
        let (count, watchers) = state.withLock { state in
            state.envelopes.append(envelope)
            return (state.envelopes.count, state.watchers.isEmpty ? nil : state.watchers)
        }
        if let watchers { notify(watchers, count: count) }
    }

    /// Appends the envelope `make` builds from its one-based position in the log, under the log's lock, so
    /// positions and order agree without a second lock.
    package func append(making make: (Int) -> Envelope) {
        let (count, watchers) = state.withLock { state in
            state.envelopes.append(make(state.envelopes.count + 1))
            return (state.envelopes.count, state.watchers.isEmpty ? nil : state.watchers)
        }
        if let watchers { notify(watchers, count: count) }
    }

    /// Appends several envelopes at once and tells the watchers once.
    public func append(contentsOf envelopes: some Sequence<Envelope>) {
        let (count, watchers) = state.withLock { state in
            state.envelopes.append(contentsOf: envelopes)
            return (state.envelopes.count, state.watchers)
        }
        notify(watchers, count: count)
    }

    /// Everything appended, in order.
    public var envelopes: [Envelope] { state.withLock { $0.envelopes } }

    /// What the app said, in order.
    public var events: [Event] { state.withLock { $0.envelopes.map(\.event) } }

    /// How many envelopes the log holds.
    public var count: Int { state.withLock { $0.envelopes.count } }

    /// Envelopes from `index` on: what arrived since a count was taken.
    public func envelopes(from index: Int) -> [Envelope] {
        state.withLock { Array($0.envelopes[min(max(0, index), $0.envelopes.count)...]) }
    }

    /// Forgets every envelope (and which ones expectations have accounted for) and tells the watchers.
    public func clear() {
        let watchers = state.withLock { state in
            state.envelopes.removeAll()
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
            return (state.nextWatcher, state.envelopes.count)
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
            if state.claimed.count < state.envelopes.count {
                state.claimed.append(contentsOf: repeatElement(false, count: state.envelopes.count - state.claimed.count))
            }
            mark(&state.claimed)
        }
    }

    /// Every envelope and, by index, whether an expectation has accounted for it (indices past the end of
    /// `claimed` are not). Cheap: both arrays are shared, not copied.
    package var snapshot: (envelopes: [Envelope], claimed: [Bool]) {
        state.withLock { ($0.envelopes, $0.claimed) }
    }
}
