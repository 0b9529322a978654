/// What ``AnalyticsClient/flush()`` or ``AnalyticsClient/shutdown()`` achieved before it returned.
///
/// Both wait until every event tracked before the call has reached every destination, or until their
/// deadline passes, or until the calling task is cancelled, whichever comes first. The result says which
/// it was and, when delivery did not finish, what is still on its way:
///
/// ```swift
/// let result = await analytics.shutdown(timeout: .seconds(2))
/// if !result.isComplete {
///     logger.warning("analytics: \(result)")   // "timed out; still held: vendor 120 events"
/// }
/// ```
///
/// A destination that does not finish by the deadline is also reported as a
/// ``Problem/Code/destinationStuck`` problem.
public struct FlushResult: Sendable, Hashable, CustomStringConvertible {
    /// Why the call returned.
    public enum Status: String, Sendable, Hashable {
        /// Every event tracked before the call reached every destination, and each destination's own
        /// ``Destination/flush()`` returned.
        case completed
        /// The deadline passed first.
        case timedOut
        /// The calling task was cancelled first.
        case cancelled
    }

    /// Why the call returned.
    public var status: Status
    /// The destinations that had not finished, by name, with how many events each still held (queued for
    /// it or being received). A destination stuck in its own ``Destination/flush()`` appears with the
    /// events queued behind it, possibly 0. Empty when ``status`` is ``Status/completed``.
    public var unfinished: [String: Int]
    /// Events still in the client's own queue or worker, not yet handed to any destination. More than 0
    /// only when the worker is held back: by a slow processor, or by a full destination queue under
    /// ``Buffering/OverflowPolicy/block``.
    public var queued: Int

    /// Creates a result.
    public init(status: Status, unfinished: [String: Int] = [:], queued: Int = 0) {
        self.status = status
        self.unfinished = unfinished
        self.queued = queued
    }

    /// Whether everything was delivered: ``status`` is ``Status/completed``.
    public var isComplete: Bool { status == .completed }

    /// One line, such as `completed` or `timed out; still held: vendor 120 events, console 0 events`.
    public var description: String {
        let reason =
            switch status {
            case .completed: "completed"
            case .timedOut: "timed out"
            case .cancelled: "cancelled"
            }
        var held = unfinished.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value) events" }
        if queued > 0 { held.insert("the client's queue \(queued) events", at: 0) }
        return held.isEmpty ? reason : "\(reason); still held: \(held.joined(separator: ", "))"
    }
}

/// Resumes a flush once every destination's lane has passed it, or at its deadline, or on cancellation:
/// whichever comes first decides the status.
final class FlushBarrier: Sendable {
    private struct State {
        /// For each lane, whether it has passed the barrier.
        var passed: [Bool]
        var remaining: Int
        var status: FlushResult.Status?
        var continuation: CheckedContinuation<FlushResult.Status, Never>?
    }

    private let state: Locked<State>

    /// A barrier for `lanes` lanes; with none, the worker resolves it when it reaches it.
    init(lanes: Int) {
        state = Locked(State(passed: [Bool](repeating: false, count: lanes), remaining: lanes))
    }

    /// Lane `lane` has delivered everything before the barrier and flushed its destination.
    func arrive(_ lane: Int) {
        let done = state.withLock { state in
            guard !state.passed[lane] else { return false }
            state.passed[lane] = true
            state.remaining -= 1
            return state.remaining == 0
        }
        if done { resolve(.completed) }
    }

    /// Ends the wait with `status`, unless it has ended already.
    func resolve(_ status: FlushResult.Status) {
        let continuation: CheckedContinuation<FlushResult.Status, Never>? = state.withLock { state in
            guard state.status == nil else { return nil }
            state.status = status
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: status)
    }

    /// The lanes that have not passed the barrier yet.
    var unfinishedLanes: [Int] {
        state.withLock { state in state.passed.indices.filter { !state.passed[$0] } }
    }

    /// Waits until the barrier is resolved, by the lanes, `sleep` returning (the deadline) or the task's
    /// cancellation.
    ///
    /// - Parameter sleep: sleeps until the deadline on the client's clock; nil for no deadline.
    func wait(sleep: (@Sendable () async throws -> Void)?) async -> FlushResult.Status {
        await withTaskCancellationHandler {
            guard let sleep else { return await resolution() }
            return await withTaskGroup(of: Void.self) { group in
                group.addTask { [self] in
                    // Thrown when the flush ends first and cancels the timer.
                    guard (try? await sleep()) != nil else { return }
                    resolve(.timedOut)
                }
                let status = await resolution()
                group.cancelAll()
                return status
            }
        } onCancel: {
            resolve(.cancelled)
        }
    }

    private func resolution() async -> FlushResult.Status {
        await withCheckedContinuation { (continuation: CheckedContinuation<FlushResult.Status, Never>) in
            let status: FlushResult.Status? = state.withLock { state in
                if state.status == nil { state.continuation = continuation }
                return state.status
            }
            if let status { continuation.resume(returning: status) }
        }
    }
}
