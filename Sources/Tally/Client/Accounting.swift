/// Every count ``Statistics`` reports, and the problems.
///
/// Each stage counts in its own ledger, behind its own lock, so that no stage waits for another: the
/// callers and the worker in the intake ledger (events dropped before the destinations), each destination's
/// lane in its ``DestinationLedger``. ``snapshot(accepted:)`` adds them up. Events the client's queue
/// accepted are counted by the queue itself, under the lock the caller holds anyway.
final class Accounting: Sendable {
    /// Each destination's ledger, in the client's order.
    let destinations: [DestinationLedger]
    /// Recent problems and the app's `onProblem`.
    let problems: ProblemLog

    private struct Intake {
        /// Tracked but never queued: the caller's event was dropped at once.
        var refused: [DropReason: Int] = [:]
        /// Queued, then dropped by the worker (input limits, processors).
        var dropped: [DropReason: Int] = [:]
    }

    private let intake = Locked(Intake())
    /// Events in the worker's consent hold.
    private let held = Locked(0)

    init(destinations: [String], problemHistoryLimit: Int, onProblem: (@Sendable (Problem) -> Void)?) {
        self.destinations = destinations.map(DestinationLedger.init(name:))
        self.problems = ProblemLog(limit: problemHistoryLimit, onProblem: onProblem)
    }

    /// A caller's event dropped before it reached the client's queue.
    func refused(_ reason: DropReason) {
        intake.withLock { $0.refused[reason, default: 0] += 1 }
    }

    /// Events the worker dropped from one batch, by reason.
    func dropped(_ drops: [DropReason: Int]) {
        intake.withLock { $0.dropped.merge(drops, uniquingKeysWith: +) }
    }

    /// The worker's consent hold now holds `count` events.
    func holding(_ count: Int) {
        held.withLock { $0 = count }
    }

    /// The counts now.
    ///
    /// - Parameter accepted: the events the client's queue has accepted so far.
    func snapshot(accepted: Int) -> Statistics {
        var snapshot = Statistics()
        intake.withLock { intake in
            snapshot.tracked = accepted + intake.refused.values.reduce(0, +)
            snapshot.dropped = intake.refused.merging(intake.dropped, uniquingKeysWith: +)
        }
        snapshot.heldForConsent = held.current
        for ledger in destinations { snapshot.destinations[ledger.name] = ledger.counts }
        snapshot.recentProblems = problems.recent
        return snapshot
    }
}

/// What happened at one destination: the events its lane received, and what became of each.
///
/// The lane settles every event under this ledger's lock as it goes, so the counts are exact at any
/// moment, and ``held`` says how many events a stuck destination still holds. The same lock guards the
/// opt-out cutoff, which the lane checks for every event.
final class DestinationLedger: Sendable {
    /// What became of one event at the destination.
    enum Outcome {
        case delivered
        case dropped(DropReason)
    }

    /// The destination's name in the client.
    let name: String

    private struct State {
        var counts = DestinationStatistics()
        /// Events handed to the lane's queue.
        var received = 0
        /// Events settled at the lane: delivered, or dropped there.
        var settled = 0
        /// Events stamped up to this sequence number are not delivered (the latest opt-out).
        var cutoff: UInt64?
    }

    private let state = Locked(State())

    init(name: String) { self.name = name }

    /// The worker handed `count` events to the lane, routed `routedAway` elsewhere and dropped `full`
    /// because the lane's queue was full.
    func received(_ count: Int, routedAway: Int, full: Int) {
        state.withLock { state in
            state.received += count
            state.counts.routedAway += routedAway
            if full > 0 { state.counts.dropped[.bufferFull, default: 0] += full }
        }
    }

    /// Records the previous event as delivered when `deliveredPrevious` (its failures are settled at once,
    /// so a delivery is all that waits for this call), and says whether the event stamped with `sequence`
    /// may be delivered; when it may not, it is settled as dropped for the opt-out.
    @inline(__always)
    func settle(deliveredPrevious: Bool, thenAdmit sequence: UInt64) -> Bool {
        state.withLock { state in
            if deliveredPrevious {
                state.settled += 1
                state.counts.delivered += 1
            }
            if let cutoff = state.cutoff, sequence <= cutoff {
                Self.record(.dropped(.optedOut), in: &state)
                return false
            }
            return true
        }
    }

    /// Records what became of the last event of a batch.
    func settle(_ outcome: Outcome) {
        state.withLock { Self.record(outcome, in: &$0) }
    }

    /// Stops delivering events stamped up to `sequence`, including those already queued.
    func optOut(below sequence: UInt64) {
        state.withLock { $0.cutoff = sequence }
    }

    /// Events the destination had taken and dropped afterwards
    /// (``DestinationContext/reportDropped(_:reason:problem:)``), from any thread.
    func droppedAfterDelivery(_ count: Int, _ reason: DropReason) {
        state.withLock { $0.counts.droppedAfterDelivery[reason, default: 0] += count }
    }

    /// Events handed to the lane and not yet settled: queued, or being received.
    var held: Int { state.withLock { $0.received - $0.settled } }

    /// The destination's counts now.
    var counts: DestinationStatistics { state.withLock { $0.counts } }

    @inline(__always)
    private static func record(_ outcome: Outcome, in state: inout State) {
        state.settled += 1
        switch outcome {
        case .delivered: state.counts.delivered += 1
        case .dropped(let reason): state.counts.dropped[reason, default: 0] += 1
        }
    }
}

/// The most recent problems, and the app's `onProblem`.
final class ProblemLog: Sendable {
    private struct State {
        var problems: [Problem] = []
        var nextSlot = 0
        var reportedOnce: Set<Problem.Code> = []
    }

    private let state = Locked(State())
    private let limit: Int
    private let onProblem: (@Sendable (Problem) -> Void)?

    init(limit: Int, onProblem: (@Sendable (Problem) -> Void)?) {
        self.limit = max(0, limit)
        self.onProblem = onProblem
    }

    /// Keeps `problem` and hands it to `onProblem`.
    ///
    /// - Parameter depth: the feedback depth of the event that caused the problem (see ``FeedbackDepth``),
    ///   or nil when no event did. `onProblem` runs at that depth, so what it tracks is a feedback event, and
    ///   what it tracks about a feedback event is dropped.
    func report(_ problem: Problem, depth: Int?) {
        if limit > 0 {
            state.withLock { state in
                if state.problems.count < limit {
                    state.problems.append(problem)
                } else {
                    state.problems[state.nextSlot] = problem
                    state.nextSlot = (state.nextSlot + 1) % limit
                }
            }
        }
        guard let onProblem else { return }
        FeedbackDepth.with(depth ?? 0) { onProblem(problem) }
    }

    /// Reports `problem` only if no problem with its code went through this method before.
    func reportOnce(_ problem: Problem, depth: Int?) {
        let first = state.withLock { $0.reportedOnce.insert(problem.code).inserted }
        if first { report(problem, depth: depth) }
    }

    /// The kept problems, oldest first.
    var recent: [Problem] {
        state.withLock { state in Array(state.problems[state.nextSlot...] + state.problems[..<state.nextSlot]) }
    }
}
