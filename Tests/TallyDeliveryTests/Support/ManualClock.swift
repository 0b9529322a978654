#if Delivery
import Foundation
import Tally
import TallyDelivery

/// A clock that moves only when a test advances it: a 60-second back-off takes no time.
///
/// Tests wait for a timer to be scheduled (``timer(where:)``) instead of sleeping, then ``advance(by:)``
/// past it; due actions run on the advancing thread.
final class ManualClock: Sendable {
    private struct Timer {
        var deadline: Double
        var action: @Sendable () -> Void
    }

    private struct State {
        var now = 1_000.0
        var timers: [Timer] = []
        var scheduled: [Double] = []
        var waiters: [(predicate: @Sendable (Double) -> Bool, continuation: CheckedContinuation<Double, Never>)] = []
    }

    private let state = Locked(State())

    var now: Double { state.withLock { $0.now } }

    /// Every deadline scheduled so far, in order.
    var scheduled: [Double] { state.withLock { $0.scheduled } }

    var clock: DeliveryClock {
        DeliveryClock(now: { [state] in state.withLock { $0.now } }) { [self] deadline, action in
            schedule(deadline, action)
        }
    }

    private func schedule(_ deadline: Double, _ action: @escaping @Sendable () -> Void) {
        let ready: [CheckedContinuation<Double, Never>] = state.withLock { state in
            state.timers.append(Timer(deadline: deadline, action: action))
            state.scheduled.append(deadline)
            var ready: [CheckedContinuation<Double, Never>] = []
            state.waiters.removeAll { waiter in
                guard waiter.predicate(deadline) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        ready.forEach { $0.resume(returning: deadline) }
    }

    /// Returns the first deadline scheduled (before or after the call) that `predicate` accepts.
    @discardableResult
    func timer(where predicate: @escaping @Sendable (Double) -> Bool) async -> Double {
        await withCheckedContinuation { continuation in
            let found: Double? = state.withLock { state in
                if let deadline = state.scheduled.first(where: predicate) { return deadline }
                state.waiters.append((predicate, continuation))
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }

    /// Moves time forward and runs every action whose deadline has come.
    func advance(by seconds: Double) {
        let due: [Timer] = state.withLock { state in
            state.now += seconds
            let now = state.now
            let due = state.timers.filter { $0.deadline <= now }
            state.timers.removeAll { $0.deadline <= now }
            return due
        }
        due.forEach { $0.action() }
    }
}
#endif
