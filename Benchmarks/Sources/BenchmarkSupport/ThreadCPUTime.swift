#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The CPU time of the calling thread, which does not grow while the thread waits for a core: on a shared
/// machine it separates what the caller's code costs from the time other threads take the core away.
///
/// ```swift
/// let start = ThreadCPUTime.now()
/// for index in 0..<1_000 { analytics.track(SampleEvent.menuItemOrdered(index)) }
/// let perEvent = (ThreadCPUTime.now() - start) / 1_000
/// ```
public enum ThreadCPUTime {
    /// Nanoseconds of CPU time the calling thread has used so far.
    public static func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec)
    }
}
