#if Delivery
import Dispatch
import Foundation

/// The clock behind every timer of an ``SegmentAPIDestination``: the send interval, retry back-off, `Retry-After`
/// waits and the flush deadline.
///
/// A clock tells the time and runs an action once a deadline has passed. The destination never sleeps: it
/// schedules a wake-up and waits for it or for new work, whichever comes first. Tests inject a clock they
/// advance by hand, so a 60-second back-off takes no time and no test sleeps.
///
/// ```swift
/// var configuration = SegmentAPIDestination.Configuration(endpoint: url, writeKey: key)
/// configuration.clock = .system  // the default
/// ```
///
/// Only the destination's timers use this clock. A request's own timeout
/// (``SegmentAPIDestination/Configuration/requestTimeout``) is the transport's, in real time.
public struct DeliveryClock: Sendable {
    /// The current time, in seconds since an arbitrary origin; never goes backwards.
    public var now: @Sendable () -> Double
    /// Runs `action` once, on any thread, at or after `deadline` (a time on ``now``'s scale). An action
    /// whose deadline has passed runs soon. Actions are never cancelled: the destination ignores a
    /// wake-up it no longer needs.
    public var schedule: @Sendable (_ deadline: Double, _ action: @escaping @Sendable () -> Void) -> Void

    /// Creates a clock from its two operations.
    ///
    /// - Parameters:
    ///   - now: the current time in seconds, monotonic.
    ///   - schedule: runs an action once its deadline has passed.
    public init(
        now: @escaping @Sendable () -> Double,
        schedule: @escaping @Sendable (_ deadline: Double, _ action: @escaping @Sendable () -> Void) -> Void
    ) {
        self.now = now
        self.schedule = schedule
    }

    /// The system's monotonic clock, with timers on a Dispatch queue.
    public static let system: DeliveryClock = {
        let queue = DispatchQueue(label: "tally.delivery.timers")
        let now: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
        return DeliveryClock(now: now) { deadline, action in
            queue.asyncAfter(deadline: dispatchTime(after: deadline - now()), execute: action)
        }
    }()
}

/// The Dispatch time `delay` seconds from now (negative and NaN delays as 0, at most 10^7 seconds), counted in
/// `UInt64` nanoseconds. Not in `Int`: on a watch (arm64_32) `Int` has 32 bits, and a delay over 2.1 seconds
/// in nanoseconds would overflow it and stop the app.
package func dispatchTime(after delay: Double, from now: DispatchTime = .now()) -> DispatchTime {
    let seconds = delay.isNaN ? 0 : min(max(delay, 0), 1e7)
    return DispatchTime(uptimeNanoseconds: now.uptimeNanoseconds + UInt64(seconds * 1e9))
}
#endif
