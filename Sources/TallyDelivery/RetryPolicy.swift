#if Delivery
import Foundation
import Tally

/// What an ``SegmentAPIDestination`` does with each answer from the server: Segment's rules for its SDKs.
///
/// | answer | what happens |
/// |---|---|
/// | 2xx | the batch's events are removed from the queue |
/// | 408, 410, 429, 460, any 5xx but 501 and 505, or no answer (refused, reset, timeout) | the batch stays queued and is sent again after a wait |
/// | 400 | the batch is split in halves, each sent alone, until the event the server refuses is alone; that one is dropped (`DropReason.refusedByServer`), the others are delivered |
/// | 413 | the batch is halved and each half sent alone; a single event refused as too large is dropped; the next batches start at the size that fitted |
/// | anything else (401, 403, 404, 422, 501, 505, 3xx…) | the batch is dropped (`DropReason.refusedByServer`) and reported |
///
/// The wait before a retry: the server's `Retry-After` (seconds or an HTTP date) when it sends one with a
/// retried status, at most ``maximumRetryAfter``; such waits do not count as attempts. Otherwise
/// exponential back-off: ``baseDelay`` doubled at each attempt, at most ``maximumDelay``, times a random
/// factor between 1 − ``jitter`` and 1 + ``jitter`` (and still at most ``maximumDelay``). After
/// ``maximumAttempts`` backed-off retries of one batch, the batch is dropped
/// (`DropReason.retriesExhausted`). Every request carries `X-Retry-Count`: 0 for the first
/// attempt, then how many attempts of the same batch came before.
///
/// ```swift
/// var configuration = SegmentAPIDestination.Configuration(endpoint: url, writeKey: key)
/// configuration.retry.maximumDelay = 30
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// The first back-off, in seconds. Default: 0.5.
    public var baseDelay: Double
    /// The longest back-off, in seconds. Default: 60.
    public var maximumDelay: Double
    /// The spread of the random factor applied to each back-off, between 0 and 1. Default: 0.1 (±10 %).
    public var jitter: Double
    /// The longest `Retry-After` honoured, in seconds; longer ones are cut to this. Default: 300.
    public var maximumRetryAfter: Double
    /// Backed-off retries of one batch before it is dropped. Default: 1,000 (with a 60-second cap, about
    /// 16 hours of failures).
    public var maximumAttempts: Int

    /// Creates a policy; every parameter has the documented default.
    public init(
        baseDelay: Double = 0.5, maximumDelay: Double = 60, jitter: Double = 0.1, maximumRetryAfter: Double = 300,
        maximumAttempts: Int = 1_000
    ) {
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.jitter = min(max(jitter, 0), 1)
        self.maximumRetryAfter = maximumRetryAfter
        self.maximumAttempts = maximumAttempts
    }

    /// Segment's rules, as above.
    public static let `default` = RetryPolicy()

    /// What to do with a batch after an answer.
    public enum Decision: Sendable, Hashable {
        /// Delivered: remove the events.
        case delivered
        /// Send the same batch again later.
        case retry
        /// Split the batch to find the event the server refuses (400).
        case isolateRefused
        /// Halve the batch: it was too large (413).
        case halve
        /// Drop the batch: the server refuses it for good.
        case refuse
    }

    /// The decision for an HTTP status code, or for no answer at all when `statusCode` is nil.
    public static func decision(for statusCode: Int?) -> Decision {
        guard let statusCode else { return .retry }
        switch statusCode {
        case 200..<300: return .delivered
        case 400: return .isolateRefused
        case 413: return .halve
        case 408, 410, 429, 460: return .retry
        case 501, 505: return .refuse
        case 500..<600: return .retry
        default: return .refuse
        }
    }

    /// The back-off before retry number `attempt` (0 for the first retry), with `random` in 0..<1.
    public func backoff(attempt: Int, random: Double) -> Double {
        let exponent = Double(min(max(attempt, 0), 62))
        let delay = min(maximumDelay, baseDelay * pow(2, exponent))
        let factor = 1 - jitter + 2 * jitter * min(max(random, 0), 1)
        return min(maximumDelay, max(0, delay * factor))
    }

    /// The wait a `Retry-After` value asks for, in seconds, at most ``maximumRetryAfter``; nil when the value
    /// is neither a number of seconds nor an HTTP date.
    ///
    /// - Parameters:
    ///   - value: the header's value, such as `120` or `Wed, 21 Oct 2026 07:28:00 GMT`.
    ///   - now: the current time as seconds since 1970, for an HTTP date.
    public func retryAfter(_ value: String, now: Double) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds.isFinite, seconds >= 0 {
            return min(seconds, maximumRetryAfter)
        }
        guard let date = Self.httpDate.withLock({ $0.date(from: trimmed) }) else { return nil }
        return min(max(0, date.timeIntervalSince1970 - now), maximumRetryAfter)
    }

    /// An HTTP date (RFC 9110's IMF-fixdate), such as `Wed, 21 Oct 2026 07:28:00 GMT`.
    private static let httpDate: Locked<DateFormatter> = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return Locked(formatter)
    }()
}
#endif
