#if Delivery
import Dispatch
import Foundation

/// The engine's view of ``SegmentAPIDestination/Configuration/clock``: the time in seconds since the engine
/// started, and wake-ups at a deadline on that scale.
///
/// The writer and sender threads never wait on the clock: they ask for a wake-up and wait for it or for new
/// work, whichever comes first. A wake-up is a task sleeping on the clock (`Clock.sleep(until:)`), so a
/// `ManualClock` from TallyTesting runs it when a test advances past its deadline, and no thread blocks.
/// Before iOS 16 and macOS 13, where `Clock` does not exist, wake-ups run on a Dispatch queue in real time.
struct DeliveryTimers: Sendable {
    /// The current time, in seconds since the timers were created; never goes backwards.
    let now: @Sendable () -> Double
    /// Runs `action` once, on any thread, at or after `deadline` (a time on ``now``'s scale). An action
    /// whose deadline has passed runs soon. Actions are never cancelled: the engine ignores a wake-up it no
    /// longer needs.
    let schedule: @Sendable (_ deadline: Double, _ action: @escaping @Sendable () -> Void) -> Void

    /// Timers on `clock`, counted from its current instant.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func on(_ clock: some Clock<Duration>) -> DeliveryTimers {
        let origin = clock.now
        return DeliveryTimers(now: { seconds(origin.duration(to: clock.now)) }) { deadline, action in
            let instant = origin.advanced(by: durationReaching(deadline))
            Task.detached {
                // Only cancellation ends a sleep early, and nothing cancels this task.
                try? await clock.sleep(until: instant, tolerance: nil)
                action()
            }
        }
    }

    /// Timers on the system's monotonic clock, with wake-ups on a Dispatch queue: the fallback where the
    /// platform has no `Clock`.
    static let dispatch: DeliveryTimers = {
        let queue = DispatchQueue(label: "tally.delivery.timers")
        let start = DispatchTime.now().uptimeNanoseconds
        let now: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        return DeliveryTimers(now: now) { deadline, action in
            queue.asyncAfter(deadline: dispatchTime(after: deadline - now()), execute: action)
        }
    }()

    private init(
        now: @escaping @Sendable () -> Double,
        schedule: @escaping @Sendable (_ deadline: Double, _ action: @escaping @Sendable () -> Void) -> Void
    ) {
        self.now = now
        self.schedule = schedule
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
