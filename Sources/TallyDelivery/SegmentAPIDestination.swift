#if Delivery
import Foundation
import Tally

/// Delivers events to any endpoint that speaks Segment's HTTP tracking API (`POST /v1/batch`): Segment,
/// RudderStack, `tally collect`, or your own backend, through a durable queue that survives the app being
/// killed.
///
/// Each event is encoded as a Segment message (see the article <doc:HowDeliveryWorks>) on the
/// destination's own thread, never the caller's. A writer thread commits the events to a SQLite queue (WAL,
/// through GRDB) in groups; a sender thread posts the oldest events in batches, gzip-compressed, with the
/// write key as HTTP Basic authentication, and removes them from the queue only after a 2xx for their batch.
/// Failed batches are retried by Segment's rules (``RetryPolicy``).
///
/// What is guaranteed: every event committed to the queue is delivered at least once, across crashes and
/// restarts, unless it is dropped for a counted reason: the queue's bounds
/// (`DropReason.queueFull`), a server that refuses it for good (`DropReason.refusedByServer`),
/// exhausted retries (`DropReason.retriesExhausted`), or storage that fails (`DropReason.storageFull`,
/// `DropReason.storageFailed`; see <doc:HowDeliveryWorks#Storage-faults>). A message sent twice keeps its `messageId`,
/// which the server uses to drop the copy.
///
/// ```swift
/// import Tally
/// import TallyDelivery
///
/// let segment = SegmentAPIDestination(
///     configuration: .init(
///         endpoint: URL(string: "https://api.segment.io/v1/batch")!, writeKey: "YOUR_WRITE_KEY",
///         database: applicationSupport.appendingPathComponent("analytics-queue.sqlite")))
/// let analytics = AnalyticsClient(destinations: [segment])
/// analytics.track("menu_item_ordered", ["item_name": "Pizza"])
/// ```
public final class SegmentAPIDestination: Destination {
    /// The destination's name in the client. Default: `http`.
    public let name: String
    /// The configuration it was created with (limits raised to workable minimums).
    public var configuration: SegmentAPIDestination.Configuration { engine.configuration }
    private let engine: DeliveryEngine

    /// Opens the queue (creating its file when needed) and starts the writer and sender threads. Events
    /// that an earlier run left in the queue are sent first.
    ///
    /// A database that is damaged or cannot be opened does not stop the app: it is set aside as
    /// `<name>.damaged-<timestamp>` and replaced by a new queue holding the events that could still be read
    /// (in memory when no new file can be created), and a `Problem.Code.storageFailed` problem is reported
    /// with the first event. Events the database lost since the last launch (the file emptied or cut short
    /// outside the app, its `-wal` damaged) are counted as dropped (`DropReason.storageFailed`) with that
    /// problem: the ledger beside the file, `<name>.ledger`, says which events it should hold. Events that
    /// were sent or dropped and that such a fault brought back into the file are removed again, neither sent
    /// nor counted a second time.
    ///
    /// - Parameters:
    ///   - configuration: where to send, where to queue, limits and timers.
    ///   - name: the destination's name in the client. Default: `http`.
    public init(configuration: SegmentAPIDestination.Configuration, name: String = "http") {
        self.name = name
        self.engine = DeliveryEngine(configuration: configuration, name: name)
    }

    deinit {
        engine.stop()
    }

    /// Encodes the event and hands it to the writer thread; returns without waiting for the commit.
    ///
    /// - Throws: a `Problem` (so the client counts the event as `DropReason.rejected`) when its
    ///   JSON is larger than ``Configuration/maximumEventBytes``, or after ``close()``.
    public func receive(_ envelope: Envelope, context: DestinationContext) throws {
        let payload = SegmentMessage.encode(envelope)
        guard payload.count <= engine.configuration.maximumEventBytes else {
            throw Problem(
                .eventTooLarge,
                "The event is \(payload.count) bytes of JSON, over the limit of \(engine.configuration.maximumEventBytes) bytes per event",
                outcome: .dropped)
        }
        guard engine.stage(payload, context: context) else {
            throw Problem(.destinationClosed, "The destination was closed", outcome: .dropped)
        }
    }

    /// Commits every event received so far, then sends the queue, and returns when the server has
    /// acknowledged it, when a failure calls for a retry later (the destination keeps retrying on its
    /// own), or after ``Configuration/flushTimeout`` on the clock, whichever comes first.
    ///
    /// The client calls it on the destination's thread from its own `flush()` and `shutdown()`.
    ///
    /// During a back-off (after a failed request, until its retry is due on ``Configuration/clock``, or
    /// until a `Retry-After` has passed), a flush commits what was received and returns at once, without
    /// a request: nothing is sent before the wait ends, so waiting could only end at the deadline, and an
    /// app flushing at shutdown would block for ``Configuration/flushTimeout``. The events stay queued
    /// (``Statistics/queuedEvents``, not ``Statistics/delivered``) and are sent when the wait ends, or by
    /// the next destination opened on the same database.
    ///
    /// When it returns, what the requests it waited for caused is counted in ``statistics`` and reported.
    ///
    /// ```swift
    /// destination.flush()
    /// if destination.statistics.queuedEvents > 0 {
    ///     // Not delivered yet: the server failed or the destination is waiting to retry. The events stay
    ///     // queued, and the destination sends them on its own.
    /// }
    /// ```
    public func flush() {
        engine.flush()
    }

    /// Stops the destination: commits what it received, lets the request in progress finish, and returns
    /// when its threads have ended and its database is closed. What stays queued is sent by the next
    /// destination opened on the same database. Events received afterwards are rejected.
    public func close() {
        engine.close()
    }

    /// The destination's own counters: what is queued, committed, delivered and dropped.
    public var statistics: Statistics { engine.snapshot }
}

extension SegmentAPIDestination {
    /// What an ``SegmentAPIDestination`` did since it was created.
    public struct Statistics: Sendable, Hashable {
        /// Events in the queue now, including those an earlier run left.
        public var queuedEvents = 0
        /// Bytes of JSON in the queue now.
        public var queuedBytes = 0
        /// Events received and waiting for the writer (more than a few only while the database fails).
        public var staged = 0
        /// Events committed to the queue.
        public var committed = 0
        /// Events the server acknowledged with a 2xx.
        public var delivered = 0
        /// Batches the server acknowledged with a 2xx.
        public var batchesDelivered = 0
        /// Requests made, retries included.
        public var requests = 0
        /// Requests whose batch stayed queued to be sent again (retryable status, no answer).
        public var retries = 0
        /// Events dropped after they were received, by reason.
        public var dropped: [DropReason: Int] = [:]
        /// Whether the queue is in a file (false when it had to fall back to memory).
        public var isDurable = false

        init(isDurable: Bool) { self.isDurable = isDurable }
    }
}

extension Problem.Code {
    /// An event's JSON was larger than ``SegmentAPIDestination/Configuration/maximumEventBytes``. It is dropped.
    public static let eventTooLarge = Problem.Code("event_too_large")
    /// The destination's queue reached its bounds and dropped its oldest events.
    public static let queueFull = Problem.Code("queue_full")
    /// The server refused events for good (400 for one event, 413 for one event, or a status that is not
    /// retried). They are dropped.
    public static let refusedByServer = Problem.Code("refused_by_server")
    /// A batch failed every retry the ``RetryPolicy`` allows. It is dropped.
    public static let retriesExhausted = Problem.Code("retries_exhausted")
    /// Sending failed and will be retried (reported once per run of failures), or works again.
    public static let sendFailed = Problem.Code("send_failed")
    /// The queue's database could not be opened, written or read; what happens instead is in the message.
    public static let storageFailed = Problem.Code("storage_failed")
    /// An event reached a destination after ``SegmentAPIDestination/close()``. It is dropped.
    public static let destinationClosed = Problem.Code("destination_closed")
}
#endif
