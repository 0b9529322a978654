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
        pthread_cond_init(conditions, nil)
        pthread_cond_init(conditions + 1, nil)
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
