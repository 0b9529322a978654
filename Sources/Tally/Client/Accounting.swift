#if canImport(Synchronization)
import Synchronization
#endif

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

    /// - Parameter atomics: false keeps every ledger on its lock, as on Apple systems without atomics (see
    ///   ``DestinationLedger/init(name:atomics:)``).
    init(
        destinations: [String], problemHistoryLimit: Int, onProblem: (@Sendable (Problem) -> Void)?,
        atomics: Bool = true
    ) {
        self.destinations = destinations.map { DestinationLedger(name: $0, atomics: atomics) }
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
/// The lane settles every event as it goes, so the counts are exact at any moment (a delivery is settled
/// when the lane takes the next event, or at the end of its chunk, before any marker in it), and ``held``
/// says how many events a stuck destination still holds. Every event is checked against the opt-out
/// cutoff just before the lane hands it to the destination.
///
/// Where the `Synchronization` module's atomics exist (Linux; Apple's systems from macOS 15, iOS 18,
/// tvOS 18, watchOS 11) the lane's per-event work takes no lock: the cutoff is one atomic word, read for
/// each event (sequentially consistent, as the opt-out writes it, so an opt-out is seen by every event
/// checked after it, as under a lock), and the deliveries another, added to without a lock. Everything
/// else, and on older Apple systems everything, is under the ledger's lock.
///
/// `@unchecked Sendable`: `words` points to the two atomic words (or to unused memory), which every thread
/// only reaches through atomic operations.
final class DestinationLedger: @unchecked Sendable {
    /// What became of one event at the destination.
    enum Outcome {
        case delivered
        case dropped(DropReason)
    }

    /// The destination's name in the client.
    let name: String

    private struct State {
        /// The counts; with atomics, without the deliveries (see ``DestinationLedger/words``).
        var counts = DestinationStatistics()
        /// Events handed to the lane's queue.
        var received = 0
        /// Events settled at the lane: delivered (without atomics), or dropped there.
        var settled = 0
        /// Events stamped up to this sequence number are not delivered (the latest opt-out).
        var cutoff: UInt64?
    }

    private let state = Locked(State())
    /// Two `Atomic<UInt64>` where they exist: the opt-out cutoff plus one (0 for none), and the events
    /// delivered. Allocated on every system (16 bytes), initialized only where the atomics exist.
    private let words = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 8)
    /// Whether `words` hold the atomics: false on systems without them, and where the ledger was made with
    /// `atomics: false`.
    private let usesAtomics: Bool

    /// - Parameter atomics: false keeps the ledger on its lock even where the atomics exist: the path of
    ///   Apple systems older than the atomics, for tests on systems that have them.
    init(name: String, atomics: Bool = true) {
        self.name = name
        #if canImport(Synchronization)
        if atomics, #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            let atomics = words.bindMemory(to: Atomic<UInt64>.self, capacity: 2)
            atomics.initialize(to: Atomic(0))
            (atomics + 1).initialize(to: Atomic(0))
            usesAtomics = true
        } else {
            usesAtomics = false
        }
        #else
        usesAtomics = false
        #endif
    }

    deinit {
        #if canImport(Synchronization)
        if usesAtomics, #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            atomics.deinitialize(count: 2)
        }
        #endif
        words.deallocate()
    }

    #if canImport(Synchronization)
    /// The cutoff word, then the deliveries word.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    private var atomics: UnsafeMutablePointer<Atomic<UInt64>> {
        words.assumingMemoryBound(to: Atomic<UInt64>.self)
    }
    #endif

    /// The deliveries counted outside the lock (0 without atomics).
    private var deliveredOutsideLock: Int {
        #if canImport(Synchronization)
        if usesAtomics, #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            return Int(truncatingIfNeeded: atomics[1].load(ordering: .acquiring))
        }
        #endif
        return 0
    }

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
        #if canImport(Synchronization)
        if usesAtomics, #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            if deliveredPrevious { atomics[1].wrappingAdd(1, ordering: .relaxed) }
            // Sequentially consistent, as `optOut(below:)` stores it: the one order of the two is the
            // order the ledger's lock would give them.
            guard sequence < atomics[0].load(ordering: .sequentiallyConsistent) else { return true }
            droppedForOptOut()
            return false
        }
        #endif
        return state.withLock { state in
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

    /// Settles an event as dropped for the opt-out: out of line, so that the lane's check inlines small.
    @inline(never)
    private func droppedForOptOut() {
        state.withLock { Self.record(.dropped(.optedOut), in: &$0) }
    }

    /// Records what became of the last event of a batch.
    func settle(_ outcome: Outcome) {
        #if canImport(Synchronization)
        if usesAtomics, #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *),
            case .delivered = outcome
        {
            atomics[1].wrappingAdd(1, ordering: .relaxed)
            return
        }
        #endif
        state.withLock { Self.record(outcome, in: &$0) }
    }

    /// Stops delivering events stamped up to `sequence`, including those already queued.
    func optOut(below sequence: UInt64) {
        state.withLock { state in
            state.cutoff = sequence
            #if canImport(Synchronization)
            if usesAtomics, #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                // Plus one, so that 0 means no cutoff; a cutoff at the last sequence number cuts everything.
                atomics[0].store(sequence == .max ? .max : sequence + 1, ordering: .sequentiallyConsistent)
            }
            #endif
        }
    }

    /// Events the destination had taken and dropped afterwards
    /// (``DestinationContext/reportDropped(_:reason:problem:)``), from any thread.
    func droppedAfterDelivery(_ count: Int, _ reason: DropReason) {
        state.withLock { $0.counts.droppedAfterDelivery[reason, default: 0] += count }
    }

    /// Events handed to the lane and not yet settled: queued, or being received.
    ///
    /// The deliveries counted outside the lock are read first: they only grow, so the figure may lag by
    /// a delivery in progress, but is never below the truth.
    var held: Int {
        let delivered = deliveredOutsideLock
        return state.withLock { $0.received - $0.settled } - delivered
    }

    /// The destination's counts now.
    var counts: DestinationStatistics {
        let delivered = deliveredOutsideLock
        var counts = state.withLock { $0.counts }
        counts.delivered += delivered
        return counts
    }

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
