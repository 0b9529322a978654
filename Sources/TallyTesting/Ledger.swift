/// The recording engine under every recorder of the test kit (``EventLog``'s events, ``CallRecorder``'s
/// calls): the entries in order, which of them an expectation has accounted for, and who is waiting for
/// more.
///
/// It is a value kept inside its owner's lock, so an owner appends an entry, reads its stubs and learns
/// whom to tell in one critical section. Watchers are called after the lock is released, with
/// ``notify(_:count:unwatch:)``.
package struct Ledger<Entry: Sendable>: Sendable {
    /// Called with the new count after each change until it returns true.
    package typealias Watcher = @Sendable (Int) -> Bool

    /// The entries, in the order they were recorded.
    package private(set) var entries: [Entry] = []
    /// Parallel to `entries`, grown on demand: whether an expectation has accounted for the entry.
    private var accounted: [Bool] = []
    private var watchers: [UInt64: Watcher] = [:]
    private var lastToken: UInt64 = 0

    package init() {}

    /// How many entries there are.
    package var count: Int { entries.count }

    /// Appends `entry`.
    ///
    /// - Returns: the watchers to tell (after releasing the lock), or nil when nobody waits.
    package mutating func append(_ entry: Entry) -> [UInt64: Watcher]? {
        entries.append(entry)
        return watchers.isEmpty ? nil : watchers
    }

    /// Appends `newEntries`.
    ///
    /// - Returns: the watchers to tell, or nil when nobody waits.
    package mutating func append(contentsOf newEntries: some Sequence<Entry>) -> [UInt64: Watcher]? {
        entries.append(contentsOf: newEntries)
        return watchers.isEmpty ? nil : watchers
    }

    /// Forgets every entry and what was accounted for.
    ///
    /// - Returns: the watchers to tell.
    /// Replaces the newest entry `matching` accepts with `update`'s result; false when there is none.
    package mutating func updateLast(where matching: (Entry) -> Bool, _ update: (Entry) -> Entry) -> Bool {
        guard let index = entries.lastIndex(where: matching) else { return false }
        entries[index] = update(entries[index])
        return true
    }

    package mutating func removeAll() -> [UInt64: Watcher] {
        entries.removeAll()
        accounted.removeAll()
        return watchers
    }

    // MARK: Accounting for "nothing else"

    /// Whether an expectation has accounted for the entry at `index`.
    package func isAccountedFor(_ index: Int) -> Bool {
        index < accounted.count && accounted[index]
    }

    /// The indices of the entries no expectation has accounted for, in order.
    package var unaccounted: [Int] {
        entries.indices.filter { !isAccountedFor($0) }
    }

    /// One flag per entry so far (possibly fewer: the rest are not accounted for).
    package var accountedFlags: [Bool] { accounted }

    /// Marks the entry at `index` as accounted for.
    package mutating func accountFor(_ index: Int) {
        grow()
        if accounted.indices.contains(index) { accounted[index] = true }
    }

    /// Marks the entries at `indices` as accounted for. Concrete rather than generic over the indices:
    /// this module is not specialized for its callers, and an unspecialized sequence costs an allocation
    /// per index.
    package mutating func accountFor(_ indices: [Int]) {
        grow()
        for index in indices where accounted.indices.contains(index) { accounted[index] = true }
    }

    /// Marks the entries in `indices` as accounted for.
    package mutating func accountFor(_ indices: Range<Int>) {
        grow()
        for index in indices.clamped(to: 0..<accounted.count) { accounted[index] = true }
    }

    private mutating func grow() {
        if accounted.count < entries.count {
            accounted.append(contentsOf: repeatElement(false, count: entries.count - accounted.count))
        }
    }

    // MARK: Waiting

    /// Adds a watcher.
    ///
    /// - Returns: its token, and the count to call it with right away (after releasing the lock).
    package mutating func addWatcher(_ watcher: @escaping Watcher) -> (token: UInt64, count: Int) {
        lastToken += 1
        watchers[lastToken] = watcher
        return (lastToken, entries.count)
    }

    /// Removes a watcher.
    package mutating func removeWatcher(_ token: UInt64) {
        watchers.removeValue(forKey: token)
    }

    /// Calls each of `watchers` with `count`, and `unwatch` with the token of each that is done. Call it
    /// outside the owner's lock: a watcher may read the owner.
    package static func notify(_ watchers: [UInt64: Watcher]?, count: Int, unwatch: (UInt64) -> Void) {
        guard let watchers else { return }
        for (token, watcher) in watchers where watcher(count) { unwatch(token) }
    }
}
