import Foundation

/// What a destination's queue holds. The worker boxes each event once in a ``Delivery`` that every lane
/// shares, so handing it to several queues retains one object instead of copying every field of the
/// envelope, on threads that would all touch the same reference counts.
enum LaneItem {
    case event(Delivery)
    case flush(FlushBarrier)
    case reset
}

/// An event ready for the destinations, with the sequence number it was stamped with.
final class Delivery: Sendable {
    let envelope: Envelope
    let sequence: UInt64

    init(_ envelope: Envelope, sequence: UInt64) {
        self.envelope = envelope
        self.sequence = sequence
    }
}

/// One destination behind its own bounded queue and thread.
///
/// `@unchecked Sendable`: the queue and counters are only touched with `monitor` held; `destination` is
/// only called from the lane's own thread.
final class DestinationLane: @unchecked Sendable {
    let name: String
    private let destination: any Destination
    private let context: DeliveryContext
    private let consent = ConsentCutoff()
    private let center: DiagnosticsCenter
    private let buffering: Buffering
    private let lateDrops: LateDropCounter

    // Guarded by `monitor`.
    private let monitor = Monitor()
    private var pending: [LaneItem] = []
    private var pendingEvents = 0
    private var workerWaiting = false
    private var stopping = false
    private var overflowing = false
    private var stats = DestinationDiagnostics()

    init(
        destination: any Destination, name: String, buffering: Buffering, center: DiagnosticsCenter
    ) {
        self.destination = destination
        self.name = name
        self.buffering = buffering
        self.center = center
        let lateDrops = LateDropCounter()
        self.lateDrops = lateDrops
        self.context = DeliveryContext(
            destination: name, report: { [center] in center.report($0) },
            countDropped: { count, reason in lateDrops.add(count, reason) })
        pending.reserveCapacity(min(buffering.capacity, 1024))
        let thread = Thread { [self] in self.run() }
        thread.name = "tally.destination.\(name)"
        thread.start()
    }

    /// Called by the client's worker with one batch holding `events` events; leaves `items` empty (with
    /// its capacity) for the worker's next batch. Flush and reset markers always fit; events follow the
    /// overflow policy.
    ///
    /// When the whole batch fits, which is the rule when the destination keeps up, it is handed over
    /// without copying: swapped in when the queue is empty, appended in one go otherwise.
    func enqueue(_ items: inout [LaneItem], events: Int, routedAway: Int) {
        guard !items.isEmpty || routedAway > 0 else { return }
        monitor.lock()
        stats.routedAway += routedAway
        if pendingEvents + events <= buffering.capacity {
            if pending.isEmpty {
                swap(&pending, &items)
            } else {
                pending.append(contentsOf: items)
                items.removeAll(keepingCapacity: true)
            }
            pendingEvents += events
            if workerWaiting { monitor.signal(.notEmpty) }
            monitor.unlock()
            return
        }
        var dropped = 0
        var firstDropped: String?
        for item in items {
            if case .event(let delivery) = item {
                while pendingEvents >= buffering.capacity && buffering.whenFull == .block && !stopping {
                    if workerWaiting { monitor.signal(.notEmpty) }
                    monitor.wait(.notFull)
                }
                if pendingEvents >= buffering.capacity {
                    dropped += 1
                    if firstDropped == nil { firstDropped = delivery.envelope.event.problemName }
                    continue
                }
                pendingEvents += 1
            }
            pending.append(item)
        }
        items.removeAll(keepingCapacity: true)
        // One problem per overflow episode: from the first drop until the lane empties its queue again.
        let firstOfEpisode = dropped > 0 && !overflowing
        if dropped > 0 {
            stats.dropped[.bufferFull, default: 0] += dropped
            overflowing = true
        }
        if workerWaiting { monitor.signal(.notEmpty) }
        monitor.unlock()
        if firstOfEpisode {
            center.report(
                Problem(
                    .bufferFull,
                    "The destination's queue is full (\(buffering.capacity) events); events are dropped until it catches up (\(dropped) so far in this batch)",
                    outcome: .dropped, eventName: firstDropped, destination: name))
        }
    }

    /// Stops delivering events stamped up to `sequence`, including those already queued.
    func optOut(below sequence: UInt64) { consent.optOut(below: sequence) }

    /// Lets the lane deliver what it holds and exit.
    func stop() {
        monitor.withLock {
            stopping = true
            monitor.signal(.notEmpty)
            monitor.broadcast(.notFull)
        }
    }

    var diagnostics: DestinationDiagnostics {
        var snapshot = monitor.withLock { stats }
        snapshot.droppedAfterDelivery = lateDrops.counts
        return snapshot
    }

    private func run() {
        Pipeline.markClientThread()
        var batch: [LaneItem] = []
        while true {
            monitor.lock()
            while pending.isEmpty && !stopping {
                workerWaiting = true
                monitor.wait(.notEmpty)
                workerWaiting = false
            }
            if pending.isEmpty {
                monitor.unlock()
                return
            }
            swap(&pending, &batch)
            pendingEvents = 0
            overflowing = false
            if buffering.whenFull == .block { monitor.broadcast(.notFull) }
            monitor.unlock()

            deliver(batch)
            batch.removeAll(keepingCapacity: true)
        }
    }

    private func deliver(_ batch: [LaneItem]) {
        var tally = DestinationDiagnostics()
        for item in batch {
            switch item {
            case .event(let delivery):
                guard consent.allows(delivery.sequence) else {
                    tally.dropped[.optedOut, default: 0] += 1
                    continue
                }
                do {
                    try destination.receive(delivery.envelope, context: context)
                    tally.delivered += 1
                } catch var problem as Problem {
                    tally.dropped[.rejected, default: 0] += 1
                    problem.outcome = .dropped
                    if problem.eventName == nil { problem.eventName = delivery.envelope.event.problemName }
                    context.report(problem)
                } catch {
                    tally.dropped[.failed, default: 0] += 1
                    context.report(
                        Problem(
                            .destinationFailed, "The destination threw \(String(reflecting: error))", outcome: .dropped,
                            eventName: delivery.envelope.event.problemName))
                }
            case .flush(let barrier):
                commit(&tally)
                destination.flush()
                barrier.arrive()
            case .reset:
                destination.reset()
            }
        }
        commit(&tally)
    }

    private func commit(_ tally: inout DestinationDiagnostics) {
        guard tally.delivered > 0 || !tally.dropped.isEmpty else { return }
        monitor.withLock {
            stats.delivered += tally.delivered
            stats.dropped.merge(tally.dropped, uniquingKeysWith: +)
        }
        tally = DestinationDiagnostics()
    }
}

/// Events a destination dropped after it had received them (``DeliveryContext/reportDropped(_:reason:problem:)``),
/// counted from any thread.
final class LateDropCounter: Sendable {
    private let state = Locked([DropReason: Int]())
    func add(_ count: Int, _ reason: DropReason) { state.withLock { $0[reason, default: 0] += count } }
    var counts: [DropReason: Int] { state.current }
}

/// Client-wide drop counts and recent problems.
final class DiagnosticsCenter: Sendable {
    private struct State {
        var dropped: [DropReason: Int] = [:]
        var problems: [Problem] = []
        var nextSlot = 0
    }

    private let state = Locked(State())
    private let historyLimit: Int
    private let onProblem: (@Sendable (Problem) -> Void)?

    init(historyLimit: Int, onProblem: (@Sendable (Problem) -> Void)?) {
        self.historyLimit = max(0, historyLimit)
        self.onProblem = onProblem
    }

    func report(_ problem: Problem) {
        if historyLimit > 0 {
            state.withLock { state in
                if state.problems.count < historyLimit {
                    state.problems.append(problem)
                } else {
                    state.problems[state.nextSlot] = problem
                    state.nextSlot = (state.nextSlot + 1) % historyLimit
                }
            }
        }
        onProblem?(problem)
    }

    func count(_ drops: [DropReason: Int]) {
        state.withLock { $0.dropped.merge(drops, uniquingKeysWith: +) }
    }

    func fill(_ snapshot: inout Diagnostics) {
        state.withLock { state in
            snapshot.dropped.merge(state.dropped, uniquingKeysWith: +)
            snapshot.recentProblems = Array(state.problems[state.nextSlot...] + state.problems[..<state.nextSlot])
        }
    }
}
