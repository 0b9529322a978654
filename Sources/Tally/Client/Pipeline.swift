import Foundation

/// What travels through the client's queue: an event (or nothing, once it is dropped or boxed) or a
/// marker that keeps its place in line.
struct QueueItem {
    enum Kind {
        case event
        /// Dropped by the input limits or a processor (counted by the worker).
        case dropped
        /// Everything before it must reach every destination before the flush returns.
        case flush(FlushBarrier)
        /// The user signed out: destinations forget their vendor identity, in order with the events.
        case reset
        /// The user answered for a purpose: the worker applies it to the events after it (see
        /// ``ConsentGate``).
        case consent(ConsentPurpose, ConsentStatus)
        /// The client shuts down: nothing follows, and what still waits for consent is dropped.
        case shutdown
    }

    var kind: Kind
    /// The event's envelope, changed in place by the worker, then moved into its box (see ``EnvelopeBox``);
    /// nil for markers.
    var envelope: Envelope?
    /// The sequence number the event was stamped with, kept apart from the envelope so that a processor
    /// rewriting the message id cannot escape an opt-out.
    var sequence: UInt64

}

extension QueueItem {
    init(marker: Kind) {
        self.init(kind: marker, envelope: nil, sequence: 0)
    }
}

/// The engine behind ``AnalyticsClient``: the callers' side of the client's queue (identity, consent,
/// shutdown), and the worker thread that runs the input limits and the processors and hands each batch to
/// the destinations' lanes.
///
/// `@unchecked Sendable`: the callers' state (`intake`) is only touched under the queue's lock, inside its
/// `withLock` or an offer's closures; it lives behind a pointer so that reaching it costs no dynamic
/// exclusivity check. The worker-only state (`processors`, `limits`) is written in `init` and then only
/// read by the worker thread.
final class Pipeline: @unchecked Sendable {
    let lanes: [DestinationLane]
    let accounting: Accounting
    let queue: BoundedQueue<QueueItem>
    /// The processors, each with its context, in order. Kept in memory of the worker's own, which it
    /// reaches `inout` (see `Pipeline.run(_:on:)`), so that calling one copies neither.
    let stages: UnsafeMutableBufferPointer<Stage>
    let limits: InputLimits
    private let now: @Sendable () -> Date
    private let identityStore: any IdentityStore
    private let prefix: UInt64
    private let consentStore: any ConsentStore
    /// The worker's consent gate as the client starts.
    let initialConsent: ConsentGate
    /// Events the worker has handed to every lane or dropped; the rest of those the queue accepted are
    /// still in the queue or in the worker's hands.
    private let handled = Locked(0)

    /// What the callers' side keeps, guarded by the queue's lock.
    private struct Intake {
        var sequence: UInt64 = 0
        var identity: Identity
        var granted: Bool
        var isShutdown = false
        /// The purposes that wait for an answer when there is none, and the answers given.
        let consentRequired: Set<ConsentPurpose>
        var consentAnswers: [ConsentPurpose: ConsentStatus]
    }

    private let intake: UnsafeMutablePointer<Intake>

    init(processors: [any Processor], destinations: [any Destination], configuration: AnalyticsClient.Configuration) {
        let processors = configuration.processors(after: processors)
        let names = Self.uniqueNames(destinations.map(\.name))
        let accounting = Accounting(
            destinations: names, problemHistoryLimit: configuration.problemHistoryLimit,
            onProblem: configuration.onProblem, atomics: configuration.ledgersUseAtomics)
        self.accounting = accounting
        let problems = accounting.problems
        stages = .allocate(capacity: processors.count)
        _ = stages.initialize(
            from: processors.map { processor in
                Stage(
                    processor: processor,
                    context: ProcessingContext(processor: processor.name) {
                        problems.report($0, depth: FeedbackDepth.current)
                    })
            })
        self.limits = configuration.inputLimits
        self.now = configuration.now
        self.identityStore = configuration.identityStore
        self.queue = BoundedQueue(
            capacity: configuration.buffering.capacity, policy: configuration.buffering.whenFull, reserve: 1024,
            linger: BoundedQueue<QueueItem>.batchingLinger)
        var generator = SystemRandomNumberGenerator()
        self.prefix = generator.next()
        let identity: Identity
        if let saved = configuration.identityStore.load() {
            identity = saved
        } else {
            identity = .anonymous()
            configuration.identityStore.save(identity)
        }
        self.consentStore = configuration.consentStore
        let answers = configuration.consentStore.load()
        initialConsent = ConsentGate(
            required: configuration.gatedPurposes, answers: answers, capacity: configuration.consentHoldCapacity)
        intake = .allocate(capacity: 1)
        intake.initialize(
            to: Intake(
                identity: identity, granted: configuration.startsOptedIn,
                consentRequired: configuration.gatedPurposes, consentAnswers: answers))
        for name in configuration.destinationsNotPlanned(names) {
            let planned = configuration.rules?.purposesByDestination.keys.sorted().joined(separator: ", ") ?? ""
            problems.report(
                Problem(
                    .destinationNotPlanned,
                    "The plan's rules name no destination \"\(name)\" (they name \(planned)): it receives every purpose; name it as the plan does (PlannedEvents.Destinations), or give it its purposes in purposesByDestination",
                    outcome: .reported, destination: name),
                depth: nil)
        }
        for (destination, name) in zip(destinations, names) where name != destination.name {
            problems.report(
                Problem(
                    .duplicateDestinationName,
                    "Two destinations are named \"\(destination.name)\"; this one is called \"\(name)\" in this client",
                    outcome: .reported, destination: name),
                depth: nil)
        }
        let qualityOfService = Self.workerQualityOfService(configuration)
        lanes = zip(destinations, accounting.destinations).enumerated().map { index, pair in
            DestinationLane(
                destination: pair.0, index: index, ledger: pair.1,
                buffering: configuration.bufferingByDestination[pair.1.name] ?? configuration.destinationBuffering,
                purposes: configuration.purposes(ofDestination: pair.1.name), problems: problems,
                qualityOfService: qualityOfService)
        }

        let thread = Thread { [self] in self.run() }
        thread.name = "tally.pipeline"
        thread.qualityOfService = qualityOfService
        thread.start()
    }

    /// The quality of service of the worker threads: `.userInitiated` when a queue of the client waits when
    /// full (``Buffering/OverflowPolicy/block``), the system's default otherwise.
    ///
    /// Under `.block` a `track` call waits for the worker, and the worker for a destination's thread, and a
    /// caller may be on the main thread despite the policy's advice. Darwin does not lend a waiting thread's
    /// priority to the thread it waits for through a condition variable, so workers at the default quality
    /// would keep an interactive caller waiting behind background work: a priority inversion. Under
    /// `.dropNewest` nothing waits for them, and they stay out of the app's way at the default.
    static func workerQualityOfService(_ configuration: AnalyticsClient.Configuration) -> QualityOfService {
        let blocks =
            configuration.buffering.whenFull == .block || configuration.destinationBuffering.whenFull == .block
            || configuration.bufferingByDestination.values.contains { $0.whenFull == .block }
        return blocks ? .userInitiated : .default
    }

    deinit {
        intake.deinitialize(count: 1)
        intake.deallocate()
        stages.deinitialize()
        stages.deallocate()
    }

    /// A processor and its context.
    struct Stage {
        var processor: any Processor
        let context: ProcessingContext
    }

    /// Names made unique with a `#2`, `#3`… suffix that no other destination has.
    private static func uniqueNames(_ names: [String]) -> [String] {
        var used: Set<String> = []
        return names.map { name in
            var unique = name
            var suffix = 2
            while used.contains(unique) {
                unique = "\(name)#\(suffix)"
                suffix += 1
            }
            used.insert(unique)
            return unique
        }
    }

    var destinationNames: [String] { lanes.map(\.name) }

    // MARK: Caller side

    /// The caller's path: stamp, lock, append, and wake the worker if it is parked.
    ///
    /// Shutdown and consent are checked again after every wait for room, so a caller held back by the
    /// `.block` policy never slips an event in after `optOut()` or `shutdown()`.
    ///
    /// The envelope is made once, under the lock, with every stamped value in place: building it before the
    /// lock and stamping it through the queue item's optional copied its bytes several times and retained and
    /// released the fields it overwrote (issue 39). The event stays the caller's until then, so a refused
    /// event is named from it and never boxed.
    func enqueue(_ event: consuming Event) {
        let depth = FeedbackDepth.current
        if let depth, depth >= FeedbackDepth.deepestDelivered {
            refuse(.feedbackLoop, name: event.reportName, depth: depth)
            return
        }
        let intake = intake
        let prefix = prefix
        let kind = event.kind
        let timestamp = now()
        let origin: Envelope.Origin = depth == nil ? .app : .feedback
        var refusal = DropReason.optedOut
        let admission = queue.offer(
            event, weight: 1, mayWait: depth == nil,
            admit: {
                if intake.pointee.isShutdown {
                    refusal = .afterShutdown
                    return false
                }
                return intake.pointee.granted
            },
            make: { event in
                intake.pointee.sequence += 1
                let sequence = intake.pointee.sequence
                var envelope = Envelope(
                    origin: origin, event: event, messageId: MessageID(prefix: prefix, sequence: sequence),
                    timestamp: timestamp, userId: intake.pointee.identity.userId,
                    anonymousId: intake.pointee.identity.anonymousId, context: .init(), destinations: nil)
                // (`.init()` is the empty dictionary's shared storage, inline; a `static let` costs a `swift_once`
                // and a retain per event, and `[:]` a call.)
                if kind != .track && kind != .screen { updateIdentity(for: &envelope) }
                return QueueItem(kind: .event, envelope: envelope, sequence: sequence)
            },
            onFirstWait: { waiting in
                accounting.problems.report(
                    Problem(
                        .waitingForRoom,
                        "The client's queue is full (\(queue.capacity) events); callers of track wait for room (the block policy)",
                        outcome: .reported, eventName: Self.unstampedName(of: waiting)),
                    depth: depth)
            })
        switch admission {
        case .accepted:
            return
        case .refused(let event) where refusal == .afterShutdown, .closed(let event):
            refuse(.afterShutdown, name: Self.unstampedName(of: event), depth: depth)
        case .refused:
            refuse(.optedOut, name: nil, depth: depth)
        case .full(let event, _, let startsEpisode):
            accounting.refused(.bufferFull)
            guard startsEpisode else { return }
            accounting.problems.report(
                Problem(
                    .bufferFull,
                    "The client's queue is full (\(queue.capacity) events); new events are dropped until the worker catches up",
                    outcome: .dropped, eventName: Self.unstampedName(of: event)),
                depth: depth)
        }
    }

    /// How reports name an event the queue did not take: as its envelope before stamping names it (for an
    /// alias, with no previous id).
    private static func unstampedName(of event: Event) -> String {
        let envelope = Envelope(
            event: event, messageId: MessageID(prefix: 0, sequence: 0), timestamp: Date(timeIntervalSince1970: 0),
            anonymousId: "")
        return envelope.reportName
    }

    /// Counts a caller's event dropped before the queue, and reports the first of some kinds.
    private func refuse(_ reason: DropReason, name: String?, depth: Int?) {
        accounting.refused(reason)
        switch reason {
        case .afterShutdown:
            accounting.problems.reportOnce(
                Problem(
                    .trackedAfterShutdown, "An event was tracked after shutdown(); it and any later ones are ignored",
                    outcome: .dropped, eventName: name),
                depth: depth)
        case .feedbackLoop:
            accounting.problems.reportOnce(
                Problem(
                    .feedbackLoop,
                    "An event was tracked while the client handled a feedback event (one tracked from a destination, a processor or onProblem); it and any later ones are dropped",
                    outcome: .dropped, eventName: name),
                depth: depth)
        default:
            return
        }
    }

    /// Identify and alias change who later events come from. Called with the queue's lock held.
    private func updateIdentity(for envelope: inout Envelope) {
        let event = envelope.event
        guard limits.acceptsName(event.subject) else { return }  // the input limits drop this event later
        switch event.kind {
        case .identify:
            intake.pointee.identity.userId = event.userId
            intake.pointee.identity.traits.merge(event.traits.dictionary) { _, new in new }
            envelope.userId = event.userId
        case .alias:
            intake.pointee.identity.userId = event.userId
        default:
            return
        }
        identityStore.save(intake.pointee.identity)
    }

    func resetIdentity() {
        let intake = intake
        let offer = queue.offer(
            QueueItem(marker: .reset), weight: 0, mayWait: false,
            admit: {
                // The new identity and the marker, under one lock: events tracked after the reset carry the
                // new identity and reach each destination after its reset.
                intake.pointee.identity = .anonymous()
                identityStore.save(intake.pointee.identity)
                return !intake.pointee.isShutdown
            })
        if case .closed = offer {
            queue.withLock {
                intake.pointee.identity = .anonymous()
                identityStore.save(intake.pointee.identity)
            }
        }
    }

    var currentIdentity: Identity { queue.withLock { intake.pointee.identity } }

    var optedIn: Bool { queue.withLock { intake.pointee.granted } }

    func setOptedIn(_ newValue: Bool) {
        queue.withLock {
            intake.pointee.granted = newValue
            if !newValue {
                for ledger in accounting.destinations { ledger.optOut(below: intake.pointee.sequence) }
            }
        }
        // Callers waiting for room under the block policy look at consent again.
        if !newValue { queue.wakeProducers() }
    }

    /// The user's answer for `purpose` as the next event will see it.
    func consent(for purpose: ConsentPurpose) -> ConsentStatus {
        queue.withLock { Self.status(of: purpose, in: intake.pointee) }
    }

    private static func status(of purpose: ConsentPurpose, in intake: Intake) -> ConsentStatus {
        intake.consentAnswers[purpose] ?? (intake.consentRequired.contains(purpose) ? .notAsked : .granted)
    }

    /// Records the user's answer, saves it, and queues it for the worker, so that it applies to exactly the
    /// events tracked after it.
    func setConsent(_ status: ConsentStatus, for purpose: ConsentPurpose) {
        let intake = intake
        let store = consentStore
        let record = {
            intake.pointee.consentAnswers[purpose] = status
            store.save(intake.pointee.consentAnswers)
        }
        let offer = queue.offer(
            QueueItem(marker: .consent(purpose, status)), weight: 0, mayWait: false,
            admit: {
                // The answer and its marker under one lock: events tracked after this call are behind it.
                record()
                return !intake.pointee.isShutdown
            })
        if case .closed = offer { queue.withLock { record() } }
    }

    // MARK: Flush and shutdown

    /// Waits until every event tracked before the call has reached every destination, or `sleep` returns
    /// (the deadline), or the task is cancelled.
    func flush(sleep: (@Sendable () async throws -> Void)?) async -> FlushResult {
        let barrier = FlushBarrier(lanes: lanes.count)
        if case .closed = queue.offer(QueueItem(marker: .flush(barrier)), weight: 0, mayWait: false) {
            // After shutdown nothing more passes through the queue: wait for each lane to deliver what it
            // still holds and end.
            for lane in lanes { lane.whenEnded { [index = lane.index] in barrier.arrive(index) } }
            if lanes.isEmpty { barrier.resolve(.completed) }
        }
        let status = await barrier.wait(sleep: sleep)
        let result = result(status, unfinished: barrier.unfinishedLanes)
        if result.status == .timedOut {
            for (name, held) in result.unfinished.sorted(by: { $0.key < $1.key }) {
                accounting.problems.report(
                    Problem(
                        .destinationStuck,
                        "The destination did not finish a flush by its deadline; it still holds \(held) events",
                        outcome: .reported, destination: name),
                    depth: nil)
            }
        }
        return result
    }

    /// The result of a flush that ended with `status` while the lanes at `unfinished` had not passed it.
    private func result(_ status: FlushResult.Status, unfinished: [Int]) -> FlushResult {
        guard status != .completed, !unfinished.isEmpty else { return FlushResult(status: .completed) }
        let queued = queue.acceptedCount - handled.withLock { $0 }
        var held: [String: Int] = [:]
        for index in unfinished { held[lanes[index].name] = lanes[index].ledger.held }
        return FlushResult(status: status, unfinished: held, queued: queued)
    }

    /// Stops accepting events, then flushes. Returns what the flush achieved; the client is shut down
    /// either way.
    func shutdown(sleep: (@Sendable () async throws -> Void)?) async -> FlushResult {
        let first = queue.withLock {
            defer { intake.pointee.isShutdown = true }
            return !intake.pointee.isShutdown
        }
        queue.wakeProducers()
        // Behind every accepted event and ahead of the flush, so that its result counts what it drops.
        if first { _ = queue.offer(QueueItem(marker: .shutdown), weight: 0, mayWait: false) }
        let result = await flush(sleep: sleep)
        if first { stop() }
        return result
    }

    /// The worker has handed `events` more events to every lane, or dropped them.
    func markHandled(_ events: Int) { handled.withLock { $0 += events } }

    /// Lets the worker hand on what is queued, then stop its lanes and exit.
    func stop() { queue.close() }

    // MARK: Statistics

    var statistics: Statistics { accounting.snapshot(accepted: queue.acceptedCount) }
}
