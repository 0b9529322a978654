/// An event ready for the destinations, boxed once by the worker for every lane to read.
///
/// The envelope is a `let`: a lane hands it to its destination straight from the box, without copying it
/// (a copy retains and releases every field, and the lanes would do it at once, on the same objects, from
/// several threads).
final class EnvelopeBox: Sendable {
    let envelope: Envelope
    /// The sequence number the event was stamped with, kept apart from the envelope so that a processor
    /// rewriting the message id cannot escape an opt-out.
    let sequence: UInt64

    init(_ envelope: consuming Envelope, sequence: UInt64) {
        self.envelope = envelope
        self.sequence = sequence
    }
}

/// What a destination's lane reads from one of the worker's batches.
enum LaneItem {
    /// An event, held by the batch (see ``Batch``); lanes read it through `_withUnsafeGuaranteedRef`, which
    /// touches no reference count.
    case event(Unmanaged<EnvelopeBox>)
    /// Everything before it must reach the destination before the flush returns.
    case flush(FlushBarrier)
    /// The user signed out: the destination forgets its vendor identity, in order with the events.
    case reset

    /// Whether this is an event that the destination called `name` should receive.
    func isDelivered(to name: String) -> Bool {
        guard case .event(let box) = self else { return false }
        return box._withUnsafeGuaranteedRef { box in
            box.envelope.destinations.map { $0.contains(name) } ?? true
        }
    }
}

/// One of the worker's batches as the destinations see it, shared by every lane, and handed back to the
/// worker when the last lane is done with it, so that no batch allocates (or page-faults in) a buffer of
/// its own.
///
/// `@unchecked Sendable`: `items` is written by the worker before the batch is shared and by the last
/// lane after everyone else is done with it (the `holders` count, under its lock, decides who is last);
/// in between every lane only reads it.
final class Batch: @unchecked Sendable {
    /// The events and markers, in order. The batch holds one reference to each event's box.
    var items: [LaneItem] = []
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

    /// A lane is done with one chunk of the batch. The last one lets the events go (their envelopes end on
    /// the lane's thread) and gives the emptied batch back to the pool.
    func release() {
        let last = holders.withLock { holders in
            holders -= 1
            return holders == 0
        }
        guard last else { return }
        for case .event(let box) in items { box.release() }
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
