import Tally

/// A clock whose time moves only when a test advances it.
///
/// Inject it wherever code takes a `Clock` (such as `SDKBridge.call(timeout:clock:start:cleanup:)` in
/// Tally) so tests exercise timeouts without sleeping. Sleepers are resumed, in deadline order, when
/// ``advance(by:)`` or ``advance(to:)`` moves ``now`` to or past their deadline; a sleeping task that is
/// cancelled throws `CancellationError` at once. Safe to use from any thread.
///
/// Code under test usually starts its sleep on another task, so advancing right away would race with
/// it. ``waitForSleepers(count:)`` waits, without polling, until that sleep is registered:
///
/// ```swift
/// let clock = ManualClock()
/// let call = Task { try await bridge.call(timeout: .seconds(5), clock: clock) { _ in } }
/// try await clock.waitForSleepers(count: 1)     // the bridge's timer is now asleep
/// clock.advance(by: .seconds(5))
/// await #expect(throws: BridgeError.timedOut(after: 5)) { try await call.value }
/// ```
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public final class ManualClock: Clock, Sendable {
    /// A point in a ``ManualClock``'s time: how far it is from the clock's zero.
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The time since the clock's zero.
        public var offset: Duration

        /// Creates the instant `offset` after the clock's zero.
        public init(offset: Duration = .zero) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        public var description: String { "ManualClock.Instant(\(offset))" }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct SleeperObserver {
        var count: Int
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct DeadlineObserver {
        var predicate: @Sendable (Instant) -> Bool
        var continuation: CheckedContinuation<Instant, any Error>
    }

    private struct State {
        var now: Instant
        var nextID: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
        var observers: [UInt64: SleeperObserver] = [:]
        var deadlineObservers: [UInt64: DeadlineObserver] = [:]

        /// The observers that a sleeper until `deadline`, just registered, satisfies, removed from the state
        /// and ready to resume.
        mutating func takeSatisfiedObservers(deadline: Instant) -> [() -> Void] {
            let ready = observers.filter { $0.value.count <= sleepers.count }
            for id in ready.keys { observers.removeValue(forKey: id) }
            let matched = deadlineObservers.filter { $0.value.predicate(deadline) }
            for id in matched.keys { deadlineObservers.removeValue(forKey: id) }
            return ready.map { observer in { observer.value.continuation.resume() } }
                + matched.map { observer in { observer.value.continuation.resume(returning: deadline) } }
        }
    }

    private let state: Locked<State>

    /// Creates a clock that reads `now` until it is advanced.
    public init(now: Instant = Instant()) {
        state = Locked(State(now: now))
    }

    /// The current time. It changes only through ``advance(by:)`` and ``advance(to:)``.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: a manual clock has no granularity.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on this clock right now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The deadlines of the tasks sleeping on this clock right now, earliest first.
    public var sleeperDeadlines: [Instant] { state.withLock { $0.sleepers.values.map(\.deadline).sorted() } }

    /// Suspends until ``now`` reaches `deadline` through an advance. Returns at once if it already has.
    ///
    /// - Parameters:
    ///   - deadline: the instant to wake at.
    ///   - tolerance: ignored; the sleeper wakes on the advance that reaches its deadline.
    /// - Throws: `CancellationError` if the task is cancelled before the deadline is reached; the sleeper
    ///   is then removed from the clock.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Now { case wake, cancel, sleep([() -> Void]) }
                let now: Now = state.withLock { state in
                    // Checked under the lock the cancellation handler takes too: either the handler runs
                    // after the sleeper is registered and removes it, or the flag is already set here.
                    if Task.isCancelled { return .cancel }
                    if deadline <= state.now { return .wake }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return .sleep(state.takeSatisfiedObservers(deadline: deadline))
                }
                switch now {
                case .wake: continuation.resume()
                case .cancel: continuation.resume(throwing: CancellationError())
                case .sleep(let observers): observers.forEach { $0() }
                }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?
                .continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration` and wakes every sleeper whose deadline has been reached, earliest
    /// deadline first.
    ///
    /// Woken tasks run afterwards, on their own executors: await what they do (a call's result, a
    /// continuation) rather than expecting it to have happened when this returns.
    /// - Precondition: `duration` is not negative.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "ManualClock cannot go back in time (advance(by: \(duration)))")
        wake { $0.now = $0.now.advanced(by: duration) }
    }

    /// Moves time forward to `instant` and wakes every sleeper whose deadline has been reached, earliest
    /// deadline first. Does nothing to the time if `instant` is not after ``now``.
    public func advance(to instant: Instant) {
        wake { $0.now = max($0.now, instant) }
    }

    /// Returns once at least `count` tasks are sleeping on this clock.
    ///
    /// Use it before ``advance(by:)`` when the sleep is started by another task, so the advance cannot
    /// happen before the sleep is registered.
    /// - Throws: `CancellationError` if the waiting task is cancelled.
    public func waitForSleepers(count: Int = 1) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Now { case ready, cancel, wait }
                let now: Now = state.withLock { state in
                    if Task.isCancelled { return .cancel }
                    if state.sleepers.count >= count { return .ready }
                    state.observers[id] = SleeperObserver(count: count, continuation: continuation)
                    return .wait
                }
                switch now {
                case .ready: continuation.resume()
                case .cancel: continuation.resume(throwing: CancellationError())
                case .wait: break
                }
            }
        } onCancel: {
            state.withLock { $0.observers.removeValue(forKey: id) }?
                .continuation.resume(throwing: CancellationError())
        }
    }

    /// Returns the deadline of a task sleeping on this clock that `predicate` accepts, once there is one
    /// (it may already be asleep).
    ///
    /// Use it when several timers share the clock and the test needs a particular one, such as a retry's
    /// back-off among the other timers of the code under test:
    ///
    /// ```swift
    /// let start = clock.now
    /// let retry = try await clock.waitForSleeper { start.duration(to: $0) >= .seconds(1) }
    /// clock.advance(to: retry)
    /// ```
    /// - Parameter predicate: accepts the deadline of the sleeper to wait for.
    /// - Returns: the first deadline found that `predicate` accepts.
    /// - Throws: `CancellationError` if the waiting task is cancelled.
    @discardableResult
    public func waitForSleeper(where predicate: @escaping @Sendable (Instant) -> Bool) async throws -> Instant {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Instant, any Error>) in
                enum Now { case ready(Instant), cancel, wait }
                let now: Now = state.withLock { state in
                    if Task.isCancelled { return .cancel }
                    if let found = state.sleepers.values.map(\.deadline).sorted().first(where: predicate) {
                        return .ready(found)
                    }
                    state.deadlineObservers[id] = DeadlineObserver(predicate: predicate, continuation: continuation)
                    return .wait
                }
                switch now {
                case .ready(let deadline): continuation.resume(returning: deadline)
                case .cancel: continuation.resume(throwing: CancellationError())
                case .wait: break
                }
            }
        } onCancel: {
            state.withLock { $0.deadlineObservers.removeValue(forKey: id) }?
                .continuation.resume(throwing: CancellationError())
        }
    }

    private func wake(after move: (inout State) -> Void) {
        let due: [CheckedContinuation<Void, any Error>] = state.withLock { state in
            move(&state)
            let due = state.sleepers
                .filter { $0.value.deadline <= state.now }
                .sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
            for (id, _) in due { state.sleepers.removeValue(forKey: id) }
            return due.map(\.value.continuation)
        }
        due.forEach { $0.resume() }
    }
}
