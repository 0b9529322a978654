/// One of the worker's batches: the buffer the client's queue filled, shared by every destination's lane
/// once the worker has processed it, and handed back to the worker when the last lane is done, so that no
/// batch allocates (or page-faults in) a buffer of its own.
///
/// `@unchecked Sendable`: `items` is written by the worker before the batch is shared and by the last
/// lane after everyone else is done with it (the `holders` count, under its lock, decides who is last);
/// in between every lane only reads it.
final class Batch: @unchecked Sendable {
    /// The events and markers, in order.
    var items: [QueueItem] = []
    /// Chunks that still refer to the batch.
    private let holders = Locked(0)
    /// Where an emptied batch goes back to.
    private let pool: BatchPool

    init(pool: BatchPool, capacity: Int) {
        self.pool = pool
        items.reserveCapacity(capacity)
    }

    /// One more chunk refers to the batch. Called by the worker before it hands the chunk to a lane.
    func hold() {
        holders.withLock { $0 += 1 }
    }

    /// A lane is done with one chunk of the batch. The last one empties it (the envelopes end on the lane's
    /// thread, as before) and gives it back to the pool.
    func release() {
        let last = holders.withLock { holders in
            holders -= 1
            return holders == 0
        }
        guard last else { return }
        items.removeAll(keepingCapacity: true)
        pool.recycle(self)
    }
}

/// Emptied batches, for the worker to fill again. Holds a few; a batch beyond that is freed.
final class BatchPool: Sendable {
    private let spare = Locked<[Batch]>([])
    /// How many batches the pool keeps: enough for the worker's next batch while the lanes hold the last
    /// few.
    private static let limit = 4

    /// An empty batch with room for at least `capacity` items, recycled when one is free.
    func take(capacity: Int) -> Batch {
        if let batch = spare.withLock({ $0.popLast() }) {
            batch.items.reserveCapacity(capacity)
            return batch
        }
        return Batch(pool: self, capacity: capacity)
    }

    fileprivate func recycle(_ batch: Batch) {
        spare.withLock { spare in
            if spare.count < Self.limit { spare.append(batch) }
        }
    }
}
