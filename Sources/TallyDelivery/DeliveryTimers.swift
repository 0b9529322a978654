#if Delivery
import Dispatch
import Foundation
import Tally

/// The engine's view of ``SegmentAPIDestination/Configuration/clock``: the time in seconds since the engine
/// started, and wake-ups at a deadline on that scale.
///
/// The writer and sender threads never wait on the clock: they ask for a wake-up and wait for it or for new
/// work, whichever comes first. A wake-up is a task sleeping on the clock (`Clock.sleep(until:)`), so a
/// `ManualClock` from TallyTesting runs it when a test advances past its deadline, and no thread blocks.
/// Before iOS 16 and macOS 13, where `Clock` does not exist, wake-ups run on a Dispatch queue in real time.
///
/// Each engine has its own timers, and ``cancelAll`` ends them when it closes: no task stays asleep for a
/// closed engine (for ever, on a `ManualClock` nobody advances any more), and no wake-up runs into it.
struct DeliveryTimers: Sendable {
    /// The current time, in seconds since the timers were created; never goes backwards.
    let now: @Sendable () -> Double
    /// Runs `action` once, on any thread, at or after `deadline` (a time on ``now``'s scale), unless
    /// ``cancelAll`` runs first. An action whose deadline has passed runs soon. The engine ignores a wake-up
    /// it no longer needs; an action must hold the engine weakly, so that a pending one never keeps it alive.
    let schedule: @Sendable (_ deadline: Double, _ action: @escaping @Sendable () -> Void) -> Void
    /// Cancels every pending wake-up, none of whose actions runs afterwards, and makes ``schedule`` do
    /// nothing from then on.
    let cancelAll: @Sendable () -> Void

    /// Timers on `clock`, counted from its current instant.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func on(_ clock: some Clock<Duration>) -> DeliveryTimers {
        let origin = clock.now
        let pending = PendingWakeUps()
        return DeliveryTimers(
            now: { seconds(origin.duration(to: clock.now)) },
            schedule: { deadline, action in
                let instant = origin.advanced(by: durationReaching(deadline))
                pending.add { id in
                    let task = Task.detached {
                        // Only cancelAll cancels the task; then the sleep ends at once and nothing runs.
                        do { try await clock.sleep(until: instant, tolerance: nil) } catch {}
                        if pending.remove(id) { action() }
                    }
                    return { task.cancel() }
                }
            },
            cancelAll: { pending.cancelAll() })
    }

    /// Timers on the system's monotonic clock, with wake-ups on a Dispatch queue: the fallback where the
    /// platform has no `Clock`.
    static func dispatch() -> DeliveryTimers {
        let start = DispatchTime.now().uptimeNanoseconds
        let now: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        let pending = PendingWakeUps()
        return DeliveryTimers(
            now: now,
            schedule: { deadline, action in
                pending.add { id in
                    dispatchQueue.asyncAfter(deadline: dispatchTime(after: deadline - now())) {
                        if pending.remove(id) { action() }
                    }
                    // A block on a Dispatch queue cannot be taken back; once cancelled, it does nothing.
                    return {}
                }
            },
            cancelAll: { pending.cancelAll() })
    }

    /// The queue of every Dispatch wake-up.
    private static let dispatchQueue = DispatchQueue(label: "tally.delivery.timers")

    private init(
        now: @escaping @Sendable () -> Double,
        schedule: @escaping @Sendable (_ deadline: Double, _ action: @escaping @Sendable () -> Void) -> Void,
        cancelAll: @escaping @Sendable () -> Void
    ) {
        self.now = now
        self.schedule = schedule
        self.cancelAll = cancelAll
    }

    /// `duration` in seconds.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// `seconds` within what `Duration` holds: NaN and negative times as 0, at most 10^9 seconds (32 years).
    static func bounded(_ seconds: Double) -> Double {
        seconds.isNaN ? 0 : min(max(seconds, 0), 1e9)
    }
}

/// The wake-ups of one ``DeliveryTimers`` that have not run yet, each with a way to cancel it.
private final class PendingWakeUps: Sendable {
    private let state = Locked((cancelled: false, nextID: UInt64(0), cancels: [UInt64: @Sendable () -> Void]()))

    /// Starts a wake-up with `start` (given its id; it returns how to cancel it) and keeps it until
    /// ``remove(_:)``, unless ``cancelAll()`` already ran: then nothing starts.
    func add(_ start: (UInt64) -> @Sendable () -> Void) {
        state.withLock { state in
            guard !state.cancelled else { return }
            let id = state.nextID
            state.nextID += 1
            // Under the lock, so that cancelAll() finds every wake-up started before it.
            state.cancels[id] = start(id)
        }
    }

    /// Forgets wake-up `id` as it runs; returns whether its action may run (false after ``cancelAll()``).
    func remove(_ id: UInt64) -> Bool {
        state.withLock { state in
            state.cancels.removeValue(forKey: id)
            return !state.cancelled
        }
    }

    /// Cancels every pending wake-up; ``add(_:)`` starts none afterwards.
    func cancelAll() {
        let cancels = state.withLock { state in
            state.cancelled = true
            defer { state.cancels.removeAll() }
            return Array(state.cancels.values)
        }
        cancels.forEach { $0() }
    }
}

/// The shortest duration, to the nanosecond, that ``DeliveryTimers/seconds(_:)`` reads as `deadline` seconds or
/// more (`deadline` bounded as ``DeliveryTimers/bounded(_:)`` does).
///
/// A wake-up sleeps until this duration after the timers' origin, so when it runs, `now()` is at or past its
/// deadline. `Duration.seconds(_:)` alone does not promise that: about 3 % of back-off deadlines come back
/// from `Duration` a few attoseconds early, and on a clock that stopped exactly there (a `ManualClock`
/// advanced to the sleeper's deadline) the sender woke, found its back-off not yet over, and waited for a
/// wake-up that had already happened.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
package func durationReaching(_ deadline: Double) -> Duration {
    let target = DeliveryTimers.bounded(deadline)
    var duration = Duration.seconds(target)
    var step = Duration.nanoseconds(1)
    while DeliveryTimers.seconds(duration) < target {
        duration += step
        step *= 2
    }
    return duration
}

/// The Dispatch time `delay` seconds from now (negative and NaN delays as 0, at most 10^7 seconds), counted in
/// `UInt64` nanoseconds. Not in `Int`: on a watch (arm64_32) `Int` has 32 bits, and a delay over 2.1 seconds
/// in nanoseconds would overflow it and stop the app.
package func dispatchTime(after delay: Double, from now: DispatchTime = .now()) -> DispatchTime {
    let seconds = delay.isNaN ? 0 : min(max(delay, 0), 1e7)
    return DispatchTime(uptimeNanoseconds: now.uptimeNanoseconds + UInt64(seconds * 1e9))
}
#endif
