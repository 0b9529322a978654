#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A mutex with two condition variables, the building block of the client's queues.
///
/// The core targets iOS 15 and macOS 12, where `Synchronization.Mutex` is unavailable, so this wraps
/// pthreads directly. It is `@unchecked Sendable` because every access to the guarded state goes through
/// `lock()`/`unlock()`, which pthreads makes safe across threads.
package final class Monitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let conditions = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 2)

    /// The two conditions a bounded queue needs.
    package enum Condition: Int {
        case notEmpty = 0
        case notFull = 1
    }

    package init() {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        #if canImport(Darwin)
        pthread_cond_init(conditions, nil)
        pthread_cond_init(conditions + 1, nil)
        #else
        // Timed waits measure time on the monotonic clock, which a change of the wall clock does not move.
        var conditionAttributes = pthread_condattr_t()
        pthread_condattr_init(&conditionAttributes)
        pthread_condattr_setclock(&conditionAttributes, CLOCK_MONOTONIC)
        pthread_cond_init(conditions, &conditionAttributes)
        pthread_cond_init(conditions + 1, &conditionAttributes)
        pthread_condattr_destroy(&conditionAttributes)
        #endif
    }

    deinit {
        pthread_cond_destroy(conditions)
        pthread_cond_destroy(conditions + 1)
        pthread_mutex_destroy(mutex)
        conditions.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits on `condition`; the lock must be held and is held again on return. Spurious wake-ups are
    /// possible, so callers wait in a loop on their own predicate.
    package func wait(_ condition: Condition) {
        pthread_cond_wait(conditions + condition.rawValue, mutex)
    }

    /// Waits on `condition` for at most `nanoseconds` (less than a second) of monotonic time; the lock must
    /// be held and is held again on return. It may return early (a signal, or spuriously): callers look at
    /// their own state again.
    package func wait(_ condition: Condition, nanoseconds: Int) {
        #if canImport(Darwin)
        // Relative to now, on a clock the wall clock's changes do not move.
        var interval = timespec(tv_sec: 0, tv_nsec: nanoseconds)
        pthread_cond_timedwait_relative_np(conditions + condition.rawValue, mutex, &interval)
        #else
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        deadline.tv_nsec += nanoseconds
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        pthread_cond_timedwait(conditions + condition.rawValue, mutex, &deadline)
        #endif
    }

    package func signal(_ condition: Condition) { pthread_cond_signal(conditions + condition.rawValue) }
    package func broadcast(_ condition: Condition) { pthread_cond_broadcast(conditions + condition.rawValue) }

    @inline(__always)
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A value guarded by a lock.
///
/// `@unchecked Sendable`: the value is only reached through `withLock`, under the monitor's mutex. It lives
/// behind a pointer rather than in a stored `var`, so that reaching it costs no dynamic exclusivity check:
/// the lock already makes every access exclusive.
package final class Locked<Value>: @unchecked Sendable {
    private let monitor = Monitor()
    private let value: UnsafeMutablePointer<Value>

    package init(_ value: Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
    }

    @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        monitor.lock()
        defer { monitor.unlock() }
        return try body(&value.pointee)
    }

    package var current: Value { withLock { $0 } }
}
