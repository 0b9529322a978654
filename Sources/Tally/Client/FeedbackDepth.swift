#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// What the calling thread is doing for a client, so that `track` can tell app code from the client's own
/// machinery and cut feedback loops.
///
/// App code runs at no depth (nil). While a client handles an event (a processor on the worker, a
/// destination on its lane) or a problem (`onProblem`, on any thread), the thread is at the depth of
/// that event: 0 for an event the app tracked, 1 for a feedback event. An event tracked at depth `d` is a
/// feedback event of depth `d + 1`; the client delivers depth 1 (``Envelope/Origin/feedback``) and drops
/// anything deeper (``DropReason/feedbackLoop``).
///
/// Kept in one pthread key as an integer (depth + 1; 0 for app code): reading it costs `track` a few
/// instructions and no allocation, and the client's threads write it only when the depth changes.
enum FeedbackDepth {
    /// The deepest feedback the client delivers: events tracked while handling an app event.
    static let deepestDelivered = 1

    /// The calling thread's depth; nil for app code.
    static var current: Int? {
        let raw = Int(bitPattern: pthread_getspecific(key))
        return raw == 0 ? nil : raw - 1
    }

    /// Sets the calling thread's depth; nil for app code.
    static func set(_ depth: Int?) {
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: depth.map { $0 + 1 } ?? 0))
    }

    /// Runs `body` at `depth`, or deeper if the thread already is, then restores the thread's depth.
    static func with<Result>(_ depth: Int, _ body: () throws -> Result) rethrows -> Result {
        let saved = current
        set(max(depth, saved ?? 0))
        defer { set(saved) }
        return try body()
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "Tally could not create a thread-specific key (\(status))")
        return key
    }()
}
