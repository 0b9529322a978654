import Foundation

/// A part of one of the worker's batches, queued for one destination. Every lane's chunks share the
/// batch's buffer: handing a batch to several destinations copies no envelope.
struct LaneChunk {
    /// The worker's batch; the chunk holds it (see ``Batch/hold()``).
    var batch: Batch
    /// The part of `items` this chunk covers.
    var range: Range<Int>
    /// False for the part of a batch dropped because the destination's queue was full: its markers (flush,
    /// reset) still go through, its events do not.
    var deliversEvents = true
}

/// One destination behind its own bounded queue and thread, so that a slow, throwing or blocking
/// destination holds back neither the caller nor the other destinations.
///
/// `@unchecked Sendable`: `destination` is only called from the lane's own thread; everything else is
/// immutable or `Sendable`.
final class DestinationLane: @unchecked Sendable {
    /// The destination's name in the client.
    let name: String
    /// The lane's position among the client's destinations.
    let index: Int
    /// Its counts.
    let ledger: DestinationLedger
    private let destination: any Destination
    private let context: DestinationContext
    private let queue: BoundedQueue<LaneChunk>
    private let problems: ProblemLog
    /// The purposes the destination may receive; nil for every purpose.
    private let purposes: Set<ConsentPurpose>?
    /// Whether the lane's thread has ended, and who waits for it to.
    private let exit = Locked<(ended: Bool, waiters: [@Sendable () -> Void])>((false, []))

    init(
        destination: any Destination, index: Int, ledger: DestinationLedger, buffering: Buffering,
        purposes: Set<ConsentPurpose>?, problems: ProblemLog, qualityOfService: QualityOfService
    ) {
        self.purposes = purposes
        self.destination = destination
        self.index = index
        self.name = ledger.name
        self.ledger = ledger
        self.problems = problems
        self.queue = BoundedQueue(
            capacity: buffering.capacity, policy: buffering.whenFull, reserve: 16,
            linger: BoundedQueue<LaneChunk>.batchingLinger)
        self.context = DestinationContext(
            destination: ledger.name, report: { problems.report($0, depth: FeedbackDepth.current) },
            countDropped: { [ledger] count, reason in ledger.droppedAfterDelivery(count, reason) })
        let thread = Thread { [self] in self.run() }
        thread.name = "tally.destination.\(name)"
        thread.qualityOfService = qualityOfService
        thread.start()
    }

    // MARK: The worker's side

    /// Queues the worker's `batch`, of which `events` events are for this destination, and counts
    /// `routedAway` events routed elsewhere.
    ///
    /// The whole batch is one element of the lane's queue when it fits, which is the rule when the
    /// destination keeps up. Otherwise the part that fits is queued; the rest waits for room under the
    /// `.block` policy, or its events are dropped (its markers still go through).
    func take(_ batch: Batch, events: Int, routedAway: Int) {
        if routedAway > 0 { ledger.received(0, routedAway: routedAway, full: 0) }
        batch.hold()
        var chunk = LaneChunk(batch: batch, range: batch.items.indices)
        var weight = events
        var episode = false
        let ledger = ledger
        while true {
            // A chunk with more items than events carries a marker (a flush, a reset) or events routed
            // elsewhere: the lane takes it at once rather than after its linger.
            let offer = queue.offer(
                chunk, weight: weight, mayWait: true, urgent: chunk.range.count > weight,
                stamp: { _ in ledger.received(weight, routedAway: 0, full: 0) },
                onFirstWait: { [name] _ in
                    problems.report(
                        Problem(
                            .waitingForRoom,
                            "The destination's queue is full (\(queue.capacity) events); the client's worker waits for room (the block policy), holding back every destination",
                            outcome: .reported, destination: name),
                        depth: nil)
                })
            switch offer {
            case .accepted:
                return
            case .refused, .closed:
                // A lane is closed only after the worker's last batch, and its offers admit everything.
                batch.release()
                return
            case .full(let rest, let room, let startsEpisode) where room > 0:
                episode = episode || startsEpisode
                let split = splitIndex(in: batch.items, range: rest.range, after: room)
                // Room only grows while the worker, the only producer, is here: the head fits.
                batch.hold()
                _ = queue.offer(
                    LaneChunk(batch: batch, range: rest.range.lowerBound..<split), weight: room, mayWait: false,
                    urgent: split - rest.range.lowerBound > room,
                    stamp: { _ in ledger.received(room, routedAway: 0, full: 0) })
                chunk = LaneChunk(batch: batch, range: split..<rest.range.upperBound)
                weight -= room
            case .full(let rest, _, let startsEpisode):
                ledger.received(0, routedAway: 0, full: weight)
                if episode || startsEpisode {
                    problems.report(
                        Problem(
                            .bufferFull,
                            "The destination's queue is full (\(queue.capacity) events); events are dropped until it catches up (\(weight) so far in this batch)",
                            outcome: .dropped, eventName: firstEvent(in: batch.items, range: rest.range),
                            destination: name),
                        depth: nil)
                    episode = false
                }
                chunk = LaneChunk(batch: batch, range: rest.range, deliversEvents: false)
                weight = 0
            }
        }
    }

    /// The index just after the `count`-th event for this destination in `range`.
    private func splitIndex(in batch: [LaneItem], range: Range<Int>, after count: Int) -> Int {
        var seen = 0
        for index in range where batch[index].isDelivered(to: name) {
            seen += 1
            if seen == count { return index + 1 }
        }
        return range.upperBound
    }

    private func firstEvent(in batch: [LaneItem], range: Range<Int>) -> String? {
        guard let index = range.first(where: { batch[$0].isDelivered(to: name) }),
            case .event(let box) = batch[index]
        else { return nil }
        return box._withUnsafeGuaranteedRef { $0.envelope.reportName }
    }

    /// Lets the lane deliver what it holds, then exit.
    func close() { queue.close() }

    /// Calls `body` once the lane's thread has delivered everything and ended (at once if it has): how a
    /// flush after shutdown waits for a destination.
    func whenEnded(_ body: @escaping @Sendable () -> Void) {
        let ended = exit.withLock { exit in
            if !exit.ended { exit.waiters.append(body) }
            return exit.ended
        }
        if ended { body() }
    }

    // MARK: The lane's thread

    private func run() {
        FeedbackDepth.set(0)
        var chunks: [LaneChunk] = []
        chunks.reserveCapacity(16)
        while queue.drain(into: &chunks) {
            for chunk in chunks {
                deliver(chunk)
                chunk.batch.release()
            }
            chunks.removeAll(keepingCapacity: true)
        }
        let waiters = exit.withLock { exit in
            exit.ended = true
            defer { exit.waiters = [] }
            return exit.waiters
        }
        for waiter in waiters { waiter() }
    }

    /// Hands each event of `chunk` to the destination, settling each in the ledger as it goes: the
    /// previous event's outcome and the next event's consent check take one lock together.
    private func deliver(_ chunk: LaneChunk) {
        chunk.batch.items.withUnsafeBufferPointer { items in
            // Whether the previous event was delivered and waits to be settled with the next one.
            var delivered = false
            var depth = 0
            for position in chunk.range {
                switch items[position] {
                case .event(let box):
                    guard chunk.deliversEvents else { continue }
                    // The batch holds the box until every lane is done with it: no retain needed to read it.
                    box._withUnsafeGuaranteedRef { box in
                        if let allowed = box.envelope.destinations, !allowed.contains(name) { return }
                        let admitted = ledger.settle(deliveredPrevious: delivered, thenAdmit: box.sequence)
                        delivered = false
                        guard admitted else { return }
                        if let purposes, !purposes.contains(box.envelope.event.purpose) {
                            ledger.settle(.dropped(.purposeNotAllowed))
                            return
                        }
                        let eventDepth = box.envelope.origin == .app ? 0 : 1
                        if eventDepth != depth {
                            depth = eventDepth
                            FeedbackDepth.set(depth)
                        }
                        delivered = receive(box)
                    }
                case .flush(let barrier):
                    if delivered { ledger.settle(.delivered) }
                    delivered = false
                    destination.flush()
                    barrier.arrive(index)
                case .reset:
                    destination.reset()
                }
            }
            if delivered { ledger.settle(.delivered) }
            if depth != 0 { FeedbackDepth.set(0) }
        }
    }

    /// Calls the destination with the boxed envelope, which it reads in place. A failure is settled and
    /// reported at once (so `onProblem` sees the counts include it); a delivery (true) is settled with the
    /// next event.
    @inline(__always)
    private func receive(_ box: EnvelopeBox) -> Bool {
        do {
            try destination.receive(box.envelope, context: context)
            return true
        } catch var problem as Problem {
            ledger.settle(.dropped(.rejected))
            problem.outcome = .dropped
            if problem.eventName == nil { problem.eventName = box.envelope.reportName }
            context.report(problem)
        } catch {
            ledger.settle(.dropped(.failed))
            context.report(
                Problem(
                    .destinationFailed, "The destination threw \(String(reflecting: error))", outcome: .dropped,
                    eventName: box.envelope.reportName))
        }
        return false
    }
}
