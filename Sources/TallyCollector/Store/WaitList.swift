#if Collector
import Tally

/// The long-polls in progress: each waits until enough events match its filter, and is woken by the insert
/// that brings them, never by polling.
///
/// A waiter first counts the matching events already stored (one read, which also gives the last id then
/// stored), while every insert committed meanwhile is remembered; from then on each commit adds its own
/// matches. Nothing is counted twice or missed: an insert counts only if its ids are past the read's last
/// id. A deletion makes every waiter count again.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
final class WaitList: Sendable {
    private struct Waiter {
        var filter: EventFilter
        var wanted: Int
        /// Matches counted so far; nil until the first read is done.
        var counted: Int?
        /// The last id the first read saw.
        var baseline: Int64 = 0
        /// Ids of matching events committed while the first read ran.
        var early: [Int64] = []
        var continuation: CheckedContinuation<Bool, Never>?
        var finished: Bool?
    }

    private struct State {
        var waiters: [UInt64: Waiter] = [:]
        var next: UInt64 = 0
        var closed = false
        /// Those suspended in ``waitForWaiters(_:)``: how many suspended waits each wants.
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())
    private let store: EventStore
    private let tasks: CollectorTasks

    init(store: EventStore, tasks: CollectorTasks) {
        self.store = store
        self.tasks = tasks
    }

    /// How many requests are waiting.
    var count: Int { state.withLock { $0.waiters.count } }

    /// Suspends until `wanted` events match `filter`, `timeout` passes, or the list is closed.
    ///
    /// - Returns: true when enough events matched; false on timeout or close.
    func wait(for filter: EventFilter, count wanted: Int, timeout: Duration) async -> Bool {
        let token = state.withLock { state -> UInt64? in
            guard !state.closed else { return nil }
            state.next += 1
            state.waiters[state.next] = Waiter(filter: filter, wanted: wanted)
            return state.next
        }
        guard let token else { return false }
        let timer = tasks.spawn {
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { self.finish(token, satisfied: false) }
        }
        defer { timer.cancel() }
        await recount(token)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let done = state.withLock { state -> Bool? in
                    guard var waiter = state.waiters[token] else { return false }
                    if let finished = waiter.finished {
                        state.waiters[token] = nil
                        return finished
                    }
                    waiter.continuation = continuation
                    state.waiters[token] = waiter
                    return nil
                }
                if let done { continuation.resume(returning: done) } else { wakeWatchers() }
            }
        } onCancel: {
            self.finish(token, satisfied: false)
        }
    }

    /// Counts the stored matches of one waiter, then adds what was committed meanwhile.
    private func recount(_ token: UInt64) async {
        guard
            let filter = state.withLock({ state -> EventFilter? in
                guard state.waiters[token]?.finished == nil else { return nil }
                state.waiters[token]?.counted = nil
                state.waiters[token]?.early = []
                return state.waiters[token]?.filter
            })
        else { return }
        let stored: (count: Int, lastId: Int64)
        do {
            stored = try await store.count(filter)
        } catch {
            finish(token, satisfied: false)
            return
        }
        let satisfied = state.withLock { state -> Bool in
            guard var waiter = state.waiters[token], waiter.finished == nil else { return false }
            waiter.baseline = stored.lastId
            waiter.counted = stored.count + waiter.early.filter { $0 > stored.lastId }.count
            waiter.early = []
            state.waiters[token] = waiter
            return waiter.counted! >= waiter.wanted
        }
        if satisfied { finish(token, satisfied: true) }
    }

    /// Counts a commit's events for every waiter and wakes those that have enough.
    func committed(_ events: [StoredEvent]) {
        let ready = state.withLock { state -> [UInt64] in
            var ready: [UInt64] = []
            for (token, var waiter) in state.waiters where waiter.finished == nil {
                let matching = events.filter { waiter.filter.matches($0) }
                guard !matching.isEmpty else { continue }
                if let counted = waiter.counted {
                    waiter.counted = counted + matching.count { $0.id > waiter.baseline }
                    if waiter.counted! >= waiter.wanted { ready.append(token) }
                } else {
                    waiter.early += matching.map(\.id)
                }
                state.waiters[token] = waiter
            }
            return ready
        }
        for token in ready { finish(token, satisfied: true) }
    }

    /// Suspends until at least `count` requests are suspended waiting: a test's way of knowing that what it
    /// sends next wakes a waiter rather than being counted when the wait starts.
    func waitForWaiters(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if Self.suspended(state) >= count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private static func suspended(_ state: State) -> Int {
        state.waiters.values.count { $0.continuation != nil }
    }

    private func wakeWatchers() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            let suspended = Self.suspended(state)
            let ready = state.watchers.filter { $0.count <= suspended }.map(\.continuation)
            state.watchers.removeAll { $0.count <= suspended }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Makes every waiter count again, after a deletion.
    func deleted() async {
        let tokens = state.withLock { Array($0.waiters.keys) }
        for token in tokens { await recount(token) }
    }

    /// Ends every wait (unsatisfied) and refuses new ones: the collector is stopping.
    func close() {
        let tokens = state.withLock { state -> [UInt64] in
            state.closed = true
            return Array(state.waiters.keys)
        }
        for token in tokens { finish(token, satisfied: false) }
    }

    private func finish(_ token: UInt64, satisfied: Bool) {
        let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard var waiter = state.waiters[token], waiter.finished == nil else { return nil }
            guard let continuation = waiter.continuation else {
                waiter.finished = satisfied
                state.waiters[token] = waiter
                return nil
            }
            state.waiters[token] = nil
            return continuation
        }
        continuation?.resume(returning: satisfied)
    }
}
#endif
