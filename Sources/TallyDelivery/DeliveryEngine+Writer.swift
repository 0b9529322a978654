#if Delivery
import Foundation
import Tally

extension DeliveryEngine {
    /// The writer thread: commits whatever was staged since its last commit in one transaction (a group
    /// commit: the busier the destination, the larger the groups), then keeps the queue within its bounds.
    func runWriter() {
        var group: [[UInt8]] = []
        while true {
            monitor.lock()
            var covered: [FlushRequest] = []
            while true {
                let now = clock.now()
                let storageReady = storageRetryAt.map { $0 <= now } ?? true
                if !staged.isEmpty && storageReady { break }
                if !flushesToCommit.isEmpty {
                    // Nothing to commit before them (or the storage is failing): they flush what is committed.
                    handOver(flushesToCommit)
                    flushesToCommit.removeAll()
                }
                if stopping {
                    let lost = staged.count
                    staged.removeAll()
                    let reason = storageDropReason
                    writerEnded = true
                    monitor.unlock()
                    if lost > 0 {
                        reportDropped(
                            lost, reason,
                            Problem(
                                .storageFailed,
                                "The destination closed while its database could not be written; \(lost) events were never committed",
                                outcome: .dropped))
                    }
                    return
                }
                writerWaiting = true
                monitor.wait(writerWakes)
                writerWaiting = false
            }
            if staged.count <= commitLimit {
                swap(&staged, &group)
            } else {
                // After a failed commit (a full disk, say), smaller groups commit what still fits.
                group.append(contentsOf: staged.prefix(commitLimit))
                staged.removeFirst(commitLimit)
            }
            swap(&flushesToCommit, &covered)
            monitor.unlock()

            commit(group, covering: covered)
            group.removeAll(keepingCapacity: true)
        }
    }

    /// Hands flushes to the sender, each to deliver up to what is committed now. Call with `monitor` held.
    ///
    /// An empty queue ends a flush here only when no batch is in flight (from the queue or from memory):
    /// otherwise the sender ends it once it has finished with that batch, so the batch has reached the
    /// server, and what it caused (a drop, a report) is counted, before the flush returns.
    private func handOver(_ flushes: [FlushRequest]) {
        guard !flushes.isEmpty else { return }
        for flush in flushes {
            flush.committed(through: lastCommittedId)
            // While the storage fails, what waits in memory is sent too before the flush returns.
            let inMemory = storageRetryAt != nil && !staged.isEmpty
            if queuedCount == 0 && inFlightThrough == 0 && !inMemory && !sendingFromMemory {
                flush.finish()
            } else {
                flushesToSend.append(flush)
            }
        }
        monitor.signal(senderWakes)
    }

    private func commit(_ group: [[UInt8]], covering flushes: [FlushRequest]) {
        let bytes = group.reduce(0) { $0 + $1.count }
        let lastId: Int64
        let generation: Int
        do {
            (lastId, generation) = try storage.append(group)
        } catch {
            storageFailed(group, flushes: flushes, error: error)
            return
        }
        monitor.lock()
        // A queue replaced since the append already counted this group in its totals.
        let counted = generation != storageGeneration
        let recovered = storageFailures > 0
        storageFailures = 0
        commitLimit = commitLimit > Int.max / 2 ? Int.max : commitLimit * 2
        storageRetryAt = nil
        if !counted {
            queuedCount += group.count
            queuedBytes += bytes
        }
        lastCommittedId = max(lastCommittedId, lastId)
        statistics.committed += group.count
        let committed = statistics.committed
        let excessCount = queuedCount - configuration.maximumQueuedEvents
        let excessBytes = queuedBytes - configuration.maximumQueuedBytes
        // Over its bounds, the oldest go before the flushes are handed over and the sender can choose a batch:
        // a flush then sends what the bounds keep, and no event the sender has read is counted as dropped too.
        let eviction =
            excessCount > 0 || excessBytes > 0
            ? evictHoldingMonitor(count: max(0, excessCount), bytes: max(0, excessBytes)) : nil
        handOver(flushes)
        monitor.signal(senderWakes)  // to send (flushAt reached) or to arm the interval
        monitor.unlock()

        if recovered {
            report(
                Problem(.storageFailed, "The queue's database works again; events are committed", outcome: .reported))
        }
        eviction?()
        configuration.onCommit?(committed)
    }

    /// Drops the oldest messages that are not being sent until the queue is within its bounds. Call with
    /// `monitor` held, so that the sender cannot choose a batch meanwhile; returns the report to make once
    /// the monitor is released.
    private func evictHoldingMonitor(count: Int, bytes: Int) -> (() -> Void)? {
        guard inFlightThrough != .max else { return nil }  // the sender is choosing a batch: at the next commit
        let evicted: (count: Int, bytes: Int)
        do {
            evicted = try storage.evictOldest(count: count, bytes: bytes, above: max(inFlightThrough, answeredThrough))
        } catch {
            return { [self] in
                report(
                    Problem(.storageFailed, "The queue could not drop its oldest events (\(error))", outcome: .reported)
                )
            }
        }
        guard evicted.count > 0 else { return nil }
        queuedCount -= evicted.count
        queuedBytes -= evicted.bytes
        let firstOfEpisode = !evicting
        evicting = true
        let limits =
            "\(configuration.maximumQueuedEvents) events or \(configuration.maximumQueuedBytes) bytes"
        return { [self] in
            reportDropped(
                evicted.count, .queueFull,
                firstOfEpisode
                    ? Problem(
                        .queueFull,
                        "The queue reached its bounds (\(limits)); its oldest events are dropped until it is sent (\(evicted.count) so far)",
                        outcome: .dropped) : nil)
        }
    }

    /// The group could not be committed: it goes back to the front of the staging buffer, and the writer
    /// tries again after a back-off on the clock. Memory stays bounded by ``stage(_:context:)``.
    private func storageFailed(_ group: [[UInt8]], flushes: [FlushRequest], error: any Error) {
        monitor.lock()
        staged.insert(contentsOf: group, at: 0)
        var overflow = 0
        if staged.count > configuration.maximumQueuedEvents {
            overflow = staged.count - configuration.maximumQueuedEvents
            staged.removeFirst(overflow)
        }
        storageFailures += 1
        storageDropReason = EventQueue.dropReason(for: error)
        let reason = storageDropReason
        commitLimit = max(1, group.count / 2)
        let firstFailure = storageFailures == 1
        let delay = configuration.retry.backoff(attempt: storageFailures - 1, random: Double.random(in: 0..<1))
        let retryAt = clock.now() + delay
        storageRetryAt = retryAt
        handOver(flushes)
        monitor.signal(senderWakes)  // to send what waits in memory
        monitor.unlock()
        wakeWriter(at: retryAt)
        if firstFailure {
            report(
                Problem(
                    .storageFailed,
                    "The queue's database could not be written (\(error)); events wait in memory (at most \(configuration.maximumQueuedEvents)), are sent from there while the server answers, and the write is retried",
                    outcome: .reported))
        }
        if overflow > 0 {
            reportDropped(
                overflow, reason,
                Problem(
                    .storageFailed,
                    "The queue could not be written and its memory buffer is full; the \(overflow) oldest events were dropped",
                    outcome: .dropped))
        }
    }
}
#endif
