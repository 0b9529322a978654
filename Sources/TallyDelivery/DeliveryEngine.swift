#if Delivery
import Dispatch
import Foundation
import Tally

/// The machinery behind an ``SegmentAPIDestination``: the staging buffer, the writer thread that commits it to
/// the queue in groups, and the sender thread that uploads batches.
///
/// `@unchecked Sendable`: every `var` below `monitor` is only touched with `monitor` held. The writer and
/// the sender each wait on their own condition of the monitor (`writerWakes`, `senderWakes`).
final class DeliveryEngine: @unchecked Sendable {
    let configuration: SegmentAPIDestination.Configuration
    let name: String
    let storage: EventQueue
    /// The timers on ``SegmentAPIDestination/Configuration/clock``, taken once.
    let clock: DeliveryTimers

    let monitor = Monitor()
    let writerWakes = Monitor.Condition.notEmpty
    let senderWakes = Monitor.Condition.notFull
    private let threads = DispatchGroup()

    // MARK: Guarded by `monitor`

    /// Encoded events received and not yet committed, oldest first.
    var staged: [[UInt8]] = []
    var writerWaiting = false
    /// When the writer may try again after the storage failed; nil while it works.
    var storageRetryAt: Double?
    var storageFailures = 0
    /// Why events lost to the failing storage are dropped: `storage_full` or `storage_failed`.
    var storageDropReason = DropReason.storageFailed
    /// Messages with ids up to this one were answered for (delivered or dropped) but may still be in the
    /// queue, because deleting them failed: they are never sent again, and deleted when the storage works.
    var answeredThrough: Int64 = 0
    var deletePending = false
    /// The writer has ended: events put back in memory can no longer be committed.
    var writerEnded = false
    /// Which queue file the counts describe: ``EventQueue/generation`` after the last recovery.
    var storageGeneration = 0
    /// The most events the sender reads for one batch: the size that fitted after a 413, growing back
    /// slowly (see ``noteDelivered(_:afterTooLarge:whole:)``).
    var batchLimit: Int
    var batchesAtLimit = 0
    /// The most events the writer commits in one transaction: halved after a failure, doubled after a success.
    var commitLimit = Int.max
    /// Flushes waiting for the writer to commit what came before them.
    var flushesToCommit: [FlushRequest] = []
    /// Flushes waiting for the sender to deliver the queue up to their target.
    var flushesToSend: [FlushRequest] = []
    /// Messages in the queue and their bytes.
    var queuedCount = 0
    var queuedBytes = 0
    var lastCommittedId: Int64 = 0
    /// Messages with ids up to this one are being sent and must not be evicted.
    var inFlightThrough: Int64 = 0
    /// A batch taken from memory (while the storage fails) is being sent: it is in no queue, so
    /// ``inFlightThrough`` does not show it, but a flush handed over meanwhile must wait for it.
    var sendingFromMemory = false
    /// No request before this time (back-off or `Retry-After`).
    var backoffUntil: Double?
    /// When the interval next asks for a send.
    var nextIntervalAt: Double
    var armedIntervalAt: Double?
    var stopping = false
    var statistics: SegmentAPIDestination.Statistics
    var evicting = false
    var sendFailing = false
    /// The client's context, from the first event received; reports wait here until then.
    var context: DestinationContext?
    var waitingReports: [(count: Int, reason: DropReason?, problem: Problem?)] = []

    /// The retry state of the oldest batch: its first id, attempts so far, backed-off attempts so far.
    var retryFirstId: Int64 = 0
    var retryCount = 0
    var backoffCount = 0

    init(configuration: SegmentAPIDestination.Configuration, name: String) {
        self.configuration = configuration.clamped
        self.name = name
        clock = configuration.timers
        let opened = EventQueue.open(
            file: configuration.database, prepare: configuration.prepareDatabase, stamp: Self.stamp(configuration.now())
        )
        let storage = opened.queue
        // Events the file lacked when it opened (see EventQueue.open) are dropped, and counted, here.
        let lost = Int(clamping: opened.lost)
        var openReports: [(count: Int, reason: DropReason?, problem: Problem?)] = []
        if let problem = opened.problem {
            openReports.append(
                lost > 0
                    ? (lost, .storageFailed, Problem(.storageFailed, problem, outcome: .dropped))
                    : (0, nil, Problem(.storageFailed, problem, outcome: .reported)))
        }
        var totals = (count: 0, bytes: 0, lastId: Int64(0))
        do {
            totals = try storage.totals()
        } catch {
            let unreadable = Problem(
                .storageFailed, "The queue's database could not be read (\(error))", outcome: .reported)
            openReports.append((0, nil, unreadable))
        }
        self.storage = storage
        batchLimit = self.configuration.maximumBatchEvents
        queuedCount = totals.count
        queuedBytes = totals.bytes
        lastCommittedId = totals.lastId
        statistics = SegmentAPIDestination.Statistics(isDurable: storage.isDurable)
        if lost > 0 { statistics.dropped[.storageFailed, default: 0] += lost }
        nextIntervalAt = clock.now() + self.configuration.flushInterval
        waitingReports = openReports

        for role in ["writer", "sender"] {
            threads.enter()
            let thread = Thread { [self] in
                if role == "writer" { runWriter() } else { runSender() }
                threads.leave()
            }
            thread.name = "tally.delivery.\(role).\(name)"
            thread.start()
        }
    }

    // MARK: Receiving

    /// Stages one encoded event for the writer; returns false after ``stop()``.
    func stage(_ payload: [UInt8], context: DestinationContext) -> Bool {
        monitor.lock()
        guard !stopping else {
            monitor.unlock()
            return false
        }
        var reports: [(count: Int, reason: DropReason?, problem: Problem?)] = []
        if self.context == nil {
            self.context = context
            swap(&reports, &waitingReports)
        }
        staged.append(payload)
        var overflow = 0
        if staged.count > configuration.maximumQueuedEvents {
            // Only when the writer cannot commit (storage failing): memory stays bounded too.
            overflow = staged.count - configuration.maximumQueuedEvents
            staged.removeFirst(overflow)
        }
        if writerWaiting { monitor.signal(writerWakes) }
        // While the storage fails, the sender sends what waits in memory.
        let storageFailing = storageRetryAt != nil
        if storageFailing { monitor.signal(senderWakes) }
        let reason = storageFailing ? storageDropReason : .queueFull
        monitor.unlock()
        for report in reports { deliver(report) }
        if overflow > 0 {
            reportDropped(
                overflow, reason,
                Problem(
                    storageFailing ? .storageFailed : .queueFull,
                    "The queue could not be written and its memory buffer is full (\(configuration.maximumQueuedEvents) events); the oldest were dropped",
                    outcome: .dropped))
        }
        return true
    }

    // MARK: Flushing and stopping

    /// Commits what was received, then delivers the queue up to it; returns when delivered, at the first
    /// failure that needs a wait, or after ``SegmentAPIDestination/Configuration/flushTimeout`` on the clock.
    ///
    /// A flush that the writer hands over while the sender waits out a back-off or a `Retry-After` returns
    /// as soon as it is committed: the sender ends it at once (the hand-over wakes it) and sends nothing
    /// before the wait ends. A flush that finds the queue empty while a batch is in flight returns once the
    /// sender has finished with that batch.
    func flush() {
        let request = FlushRequest()
        monitor.withLock {
            guard !stopping else { return request.finish() }
            flushesToCommit.append(request)
            monitor.signal(writerWakes)
        }
        clock.schedule(clock.now() + configuration.flushTimeout) { [weak request] in request?.finish() }
        request.wait()
    }

    /// Stops both threads: the writer commits what is staged first; the sender stops after the request it
    /// is making. Waiting flushes return.
    func stop() {
        monitor.withLock {
            stopping = true
            monitor.signal(writerWakes)
            monitor.signal(senderWakes)
        }
    }

    /// ``stop()``, waits for both threads to end, cancels the timers, then closes the queue's database: a
    /// destination opened next on the same file never waits for this one's connections, no wake-up runs into
    /// this engine any more, and no task stays asleep for it (for ever, on a clock that stopped moving).
    func close() {
        stop()
        threads.wait()
        // A flush that came before stop() and that the threads did not end would otherwise wait for its
        // deadline's timer, which is about to be cancelled.
        let flushes = monitor.withLock {
            defer {
                flushesToCommit.removeAll()
                flushesToSend.removeAll()
            }
            return flushesToCommit + flushesToSend
        }
        flushes.forEach { $0.finish() }
        clock.cancelAll()
        storage.close()
    }

    deinit {
        // Dropped without close(): the threads have ended (they hold the engine while they run).
        clock.cancelAll()
    }

    /// A snapshot of the counters.
    var snapshot: SegmentAPIDestination.Statistics {
        monitor.withLock {
            var copy = statistics
            copy.queuedEvents = queuedCount
            copy.queuedBytes = queuedBytes
            copy.staged = staged.count
            copy.isDurable = storage.isDurable
            return copy
        }
    }

    /// A timestamp for a set-aside file's name, such as `20261126T171600Z`.
    static func stamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        return formatter.string(from: date)
    }

    // MARK: Reporting

    /// Counts `count` events dropped for `reason` at the client and reports `problem`, or keeps both until
    /// the first event brings the client's context.
    func reportDropped(_ count: Int, _ reason: DropReason, _ problem: Problem?) {
        monitor.withLock { statistics.dropped[reason, default: 0] += count }
        report((count, reason, problem))
    }

    /// Reports a problem that drops nothing.
    func report(_ problem: Problem) { report((0, nil, problem)) }

    private func report(_ item: (count: Int, reason: DropReason?, problem: Problem?)) {
        let context: DestinationContext? = monitor.withLock {
            if self.context == nil && waitingReports.count < 1_000 { waitingReports.append(item) }
            return self.context
        }
        if context != nil { deliver(item) }
    }

    private func deliver(_ item: (count: Int, reason: DropReason?, problem: Problem?)) {
        guard let context = monitor.withLock({ self.context }) else { return }
        let problem = item.problem
        if let reason = item.reason {
            context.reportDropped(item.count, reason: reason, problem: problem)
        } else if let problem {
            context.report(problem)
        }
    }

    /// Wakes the sender at `deadline` on the clock.
    func wakeSender(at deadline: Double) {
        clock.schedule(deadline) { [weak self] in
            guard let self else { return }
            self.monitor.withLock { self.monitor.signal(self.senderWakes) }
        }
    }

    /// Wakes the writer at `deadline` on the clock.
    func wakeWriter(at deadline: Double) {
        clock.schedule(deadline) { [weak self] in
            guard let self else { return }
            self.monitor.withLock { self.monitor.signal(self.writerWakes) }
        }
    }
}
#endif
