#if Delivery
import Foundation
import GRDB

extension SegmentAPIDestination {
    /// Where an ``SegmentAPIDestination`` sends, where it keeps its queue, and its limits and timers.
    ///
    /// Every property has a documented default; only the endpoint and the write key have to be given.
    ///
    /// ```swift
    /// var configuration = SegmentAPIDestination.Configuration(
    ///     endpoint: URL(string: "https://api.segment.io/v1/batch")!, writeKey: "YOUR_WRITE_KEY",
    ///     database: applicationSupport.appendingPathComponent("tally-queue.sqlite"))
    /// configuration.flushAt = 50
    /// let destination = SegmentAPIDestination(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The batch endpoint, such as `https://api.segment.io/v1/batch`.
        public var endpoint: URL
        /// The source's write key, sent as the user name of HTTP Basic authentication with an empty password.
        public var writeKey: String
        /// The SQLite file of the queue, created when missing; nil keeps the queue in memory (events then do
        /// not survive the process). Default: nil.
        ///
        /// Beside it, `<name>.ledger` names the events the file should hold, so that events it loses outside
        /// the app are reported at the next launch; delete it with the file (and its `-wal` and `-shm`) to
        /// empty the queue on purpose.
        public var database: URL?

        /// The most events the queue holds; past it the oldest are dropped (`DropReason.queueFull`).
        /// Default: 10,000.
        public var maximumQueuedEvents: Int
        /// The most bytes of JSON the queue holds; past it the oldest events are dropped
        /// (`DropReason.queueFull`). Default: 16 MB (16,000,000 bytes).
        public var maximumQueuedBytes: Int
        /// The largest event, in bytes of JSON; a larger one is rejected when received and counted as
        /// `DropReason.rejected`. Default: 32 KB (32,768 bytes), Segment's limit.
        public var maximumEventBytes: Int
        /// The largest request body before compression, in bytes. Default: 500 KB (500,000 bytes),
        /// Segment's limit.
        public var maximumBatchBytes: Int
        /// The most events in one request. Default: 100, as Segment's server libraries (fewer events to send
        /// twice when the app dies before the server's answer arrives).
        public var maximumBatchEvents: Int

        /// Send as soon as this many events are queued. Default: 20, as Segment's SDKs.
        public var flushAt: Int
        /// Send what is queued at least this often, in seconds. Default: 30, as Segment's SDKs.
        public var flushInterval: Double
        /// The longest a ``SegmentAPIDestination/flush()`` (and so the client's `flush()` and `shutdown()`) waits
        /// for uploads, in seconds of ``clock``. Default: 10.
        public var flushTimeout: Double
        /// The longest one request may take, in seconds (the transport's own timer). Default: 15.
        public var requestTimeout: Double
        /// The retry rules. Default: Segment's, see ``RetryPolicy``.
        public var retry: RetryPolicy
        /// Whether request bodies are gzip-compressed (`Content-Encoding: gzip`). Default: true.
        public var gzip: Bool
        /// Extra headers for every request, such as a proxy's token. Default: none.
        public var headers: [String: String]

        /// How requests are sent. Default: ``HTTPTransport/urlSession(_:)``.
        public var transport: HTTPTransport
        /// ``clock``, stored without `Clock`, which iOS 15 lacks; nil for the default.
        private var storedClock: (any Sendable)?
        /// The wall clock for `sentAt`. Default: `Date.init`.
        public var now: @Sendable () -> Date

        /// Called on the destination's writer thread after each group of events is committed, with the
        /// number of events committed so far by this destination. A seam for this package's tests.
        package var onCommit: (@Sendable (Int) -> Void)?
        /// Runs on every database connection as it opens. A seam for this package's tests (a full or
        /// read-only database).
        package var prepareDatabase: (@Sendable (Database) throws -> Void)?

        /// Creates a configuration; every parameter but the first two has the documented default.
        public init(
            endpoint: URL, writeKey: String, database: URL? = nil,
            maximumQueuedEvents: Int = 10_000, maximumQueuedBytes: Int = 16_000_000,
            maximumEventBytes: Int = 32_768, maximumBatchBytes: Int = 500_000, maximumBatchEvents: Int = 100,
            flushAt: Int = 20, flushInterval: Double = 30, flushTimeout: Double = 10, requestTimeout: Double = 15,
            retry: RetryPolicy = .default, gzip: Bool = true, headers: [String: String] = [:],
            transport: HTTPTransport = .urlSession(),
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.endpoint = endpoint
            self.writeKey = writeKey
            self.database = database
            self.maximumQueuedEvents = maximumQueuedEvents
            self.maximumQueuedBytes = maximumQueuedBytes
            self.maximumEventBytes = maximumEventBytes
            self.maximumBatchBytes = maximumBatchBytes
            self.maximumBatchEvents = maximumBatchEvents
            self.flushAt = flushAt
            self.flushInterval = flushInterval
            self.flushTimeout = flushTimeout
            self.requestTimeout = requestTimeout
            self.retry = retry
            self.gzip = gzip
            self.headers = headers
            self.transport = transport
            self.now = now
        }

        /// The clock of every timer: the send interval, retry back-off, `Retry-After` waits, the storage's
        /// retries and the flush deadline (``flushInterval``, ``flushTimeout`` and the ``retry`` waits are
        /// seconds of this clock). Default: `ContinuousClock()`.
        ///
        /// Tests give a `ManualClock` from TallyTesting and advance it, so a 60-second back-off takes no
        /// time and no test sleeps:
        ///
        /// ```swift
        /// let clock = ManualClock()
        /// var configuration = SegmentAPIDestination.Configuration(endpoint: url, writeKey: "test")
        /// configuration.clock = clock
        /// ```
        ///
        /// The destination never blocks a thread on the clock: each timer is a task sleeping on it. Only the
        /// destination's timers use it; a request's own timeout (``requestTimeout``) is the transport's, in
        /// real time. Before iOS 16 and macOS 13, which have no `Clock`, the timers run on the system's
        /// monotonic clock.
        @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
        public var clock: any Clock<Duration> {
            get { storedClock as? any Clock<Duration> ?? ContinuousClock() }
            set { storedClock = newValue }
        }

        /// The engine's timers on ``clock``, or on Dispatch where the platform has no `Clock`. Each call
        /// starts a new time scale: the engine takes them once.
        var timers: DeliveryTimers {
            if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
                let clock: any Clock<Duration> = self.clock
                return DeliveryTimers.on(clock)
            }
            return .dispatch()
        }

        /// The same configuration with every limit raised to a workable minimum: at least one event queued
        /// and per batch, a batch and a queue that hold the largest event, positive timers.
        var clamped: Configuration {
            var copy = self
            copy.maximumEventBytes = max(64, maximumEventBytes)
            copy.maximumBatchBytes = max(
                copy.maximumEventBytes + SegmentMessage.batchOverhead(messages: 1), maximumBatchBytes)
            copy.maximumQueuedEvents = max(1, maximumQueuedEvents)
            copy.maximumQueuedBytes = max(copy.maximumEventBytes, maximumQueuedBytes)
            copy.maximumBatchEvents = max(1, maximumBatchEvents)
            copy.flushAt = max(1, flushAt)
            copy.flushInterval = flushInterval > 0 ? flushInterval : 30
            copy.flushTimeout = max(0, flushTimeout)
            copy.requestTimeout = requestTimeout > 0 ? requestTimeout : 15
            return copy
        }
    }
}
#endif
