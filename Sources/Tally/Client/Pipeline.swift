import Foundation

/// What travels through the client's queues: events, and flush requests that keep their place in line.
enum QueueItem {
    /// An event and the sequence number it was stamped with (kept apart from the envelope so that a
    /// processor rewriting the message id cannot escape an opt-out).
    case event(Envelope, sequence: UInt64)
    case flush(FlushBarrier)
    /// The user signed out: destinations forget their vendor identity, in order with the events.
    case reset
}

/// The engine behind ``AnalyticsClient``: the callers' queue, the worker thread, identity and consent.
///
/// `@unchecked Sendable`: the state below `monitor` is only touched with `monitor` held; the worker-only
/// state (`processors`, `lanes`, `limits`) is written in `init` and then only read by the worker thread.
final class Pipeline: @unchecked Sendable {
    private let processors: [(processor: any Processor, context: ProcessingContext)]
    private let lanes: [DestinationLane]
    private let limits: InputLimits
    private let now: @Sendable () -> Date
    private let identityStore: any IdentityStore
    private let center: DiagnosticsCenter
    private let prefix: UInt64

    // Guarded by `monitor`.
    private let monitor = Monitor()
    private var pending: [QueueItem] = []
    private var pendingEvents = 0
    private let buffering: Buffering
    private var workerWaiting = false
    private var stopping = false
    private var workerExited = false
    private var sequence: UInt64 = 0
    private var identity: Identity
    private var granted: Bool
    private var isShutdown = false
    private var reportedAfterShutdown = false
    private var overflowing = false
    private var tracked = 0
    private var callerDrops: [DropReason: Int] = [:]
    private var blockedCallers = 0
    private var blockedCallerWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(processors: [any Processor], destinations: [any Destination], configuration: AnalyticsClient.Configuration) {
        let center = DiagnosticsCenter(historyLimit: configuration.problemHistoryLimit, onProblem: configuration.onProblem)
        self.center = center
        self.processors = processors.map { processor in
            (processor, ProcessingContext(processor: processor.name) { center.report($0) })
        }
        self.limits = configuration.inputLimits
        self.now = configuration.now
        self.identityStore = configuration.identityStore
        self.buffering = configuration.buffering
        var generator = SystemRandomNumberGenerator()
        self.prefix = generator.next()
        self.granted = configuration.startsOptedIn
        if let saved = configuration.identityStore.load() {
            identity = saved
        } else {
            identity = .anonymous()
            configuration.identityStore.save(identity)
        }
        pending.reserveCapacity(min(buffering.capacity, 1024))

        var used: Set<String> = []
        var lanes: [DestinationLane] = []
        for destination in destinations {
            var name = destination.name
            if used.contains(name) {
                var suffix = 2
                while used.contains("\(destination.name)#\(suffix)") { suffix += 1 }
                name = "\(destination.name)#\(suffix)"
                center.report(
                    Problem(
                        .duplicateDestinationName,
                        "Two destinations are named \"\(destination.name)\"; this one is called \"\(name)\" in this client",
                        outcome: .reported, destination: name))
            }
            used.insert(name)
            lanes.append(
                DestinationLane(
                    destination: destination, name: name,
                    buffering: configuration.bufferingByDestination[name] ?? configuration.destinationBuffering,
                    center: center))
        }
        self.lanes = lanes

        let thread = Thread { [self] in self.run() }
        thread.name = "tally.pipeline"
        thread.start()
    }

    var destinationNames: [String] { lanes.map(\.name) }

    // MARK: Caller side

    /// The caller's path: stamp, lock, append, maybe wake the worker.
    ///
    /// Shutdown and consent are checked again after every wait for room, so a caller held back by the
    /// `.block` policy never slips an event in after `optOut()` or `shutdown()`. An event counts as tracked
    /// once it is queued or dropped, so the diagnostics never see it half-way.
    func enqueue(_ event: Event) {
        let timestamp = now()
        monitor.lock()
        while true {
            if isShutdown || workerExited {
                tracked += 1
                callerDrops[.afterShutdown, default: 0] += 1
                let first = !reportedAfterShutdown
                reportedAfterShutdown = true
                monitor.unlock()
                if first {
                    center.report(
                        Problem(
                            .trackedAfterShutdown,
                            "An event was tracked after shutdown(); it and any later ones are ignored",
                            outcome: .dropped, eventName: event.problemName))
                }
                return
            }
            guard granted else {
                tracked += 1
                callerDrops[.optedOut, default: 0] += 1
                monitor.unlock()
                return
            }
            if pendingEvents < buffering.capacity { break }
            // Never wait on one of the client's own threads (a destination or `onProblem` tracking): only
            // those threads could make room, so waiting there would deadlock.
            if buffering.whenFull == .block, !stopping, !Self.isClientThread {
                blockedCallers += 1
                resumeBlockedCallerWaiters()
                monitor.wait(.notFull)
                blockedCallers -= 1
                continue
            }
            tracked += 1
            callerDrops[.bufferFull, default: 0] += 1
            let first = !overflowing
            overflowing = true
            monitor.unlock()
            if first {
                center.report(
                    Problem(
                        .bufferFull,
                        "The client's queue is full (\(buffering.capacity) events); new events are dropped until the worker catches up",
                        outcome: .dropped, eventName: event.problemName))
            }
            return
        }
        tracked += 1
        sequence += 1
        var envelope = Envelope(
            event: event, messageId: MessageID(prefix: prefix, sequence: sequence), timestamp: timestamp,
            userId: identity.userId, anonymousId: identity.anonymousId)
        if event.kind != .track && event.kind != .screen { updateIdentity(for: event, envelope: &envelope) }
        pending.append(.event(envelope, sequence: sequence))
        pendingEvents += 1
        if workerWaiting { monitor.signal(.notEmpty) }
        monitor.unlock()
    }

    /// Returns once at least `count` callers are waiting for room in a full `.block` queue. For tests of
    /// what happens to a caller held back while something else changes.
    package func waitForBlockedCallers(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            monitor.withLock {
                if blockedCallers >= count {
                    continuation.resume()
                } else {
                    blockedCallerWaiters.append((count, continuation))
                }
            }
        }
    }

    /// Resumes the tests waiting for this many blocked callers. Called with the lock held.
    private func resumeBlockedCallerWaiters() {
        guard !blockedCallerWaiters.isEmpty else { return }
        let ready = blockedCallerWaiters.filter { $0.count <= blockedCallers }
        blockedCallerWaiters.removeAll { $0.count <= blockedCallers }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Marks the calling thread as one of a client's own (its worker or a destination's thread).
    static func markClientThread() { Thread.current.threadDictionary[clientThreadKey] = true }

    /// Whether the calling thread is one of a client's own threads. Read only when a full queue would
    /// make the caller wait.
    static var isClientThread: Bool { Thread.current.threadDictionary[clientThreadKey] != nil }

    private static let clientThreadKey = "tally.clientThread"

    /// Identify and alias change who later events come from. Called with the lock held.
    private func updateIdentity(for event: Event, envelope: inout Envelope) {
        guard limits.acceptsName(event.subject) else { return }  // the input limits drop this event later
        switch event.kind {
        case .identify:
            identity.userId = event.userId
            identity.traits.merge(event.traits) { _, new in new }
            envelope.userId = event.userId
        case .alias:
            identity.userId = event.userId
        default:
            return
        }
        identityStore.save(identity)
    }

    func resetIdentity() {
        monitor.withLock {
            identity = .anonymous()
            identityStore.save(identity)
            guard !isShutdown else { return }
            pending.append(.reset)
            if workerWaiting { monitor.signal(.notEmpty) }
        }
    }

    var currentIdentity: Identity { monitor.withLock { identity } }

    var consentGranted: Bool { monitor.withLock { granted } }

    func setConsent(_ newValue: Bool) {
        monitor.withLock {
            granted = newValue
            if !newValue { for lane in lanes { lane.optOut(below: sequence) } }
        }
    }

    // MARK: Flush and shutdown

    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let barrier = FlushBarrier(parties: lanes.count, continuation: continuation)
            monitor.lock()
            guard !workerExited else {
                monitor.unlock()
                barrier.resolveNow()
                return
            }
            pending.append(.flush(barrier))
            if workerWaiting { monitor.signal(.notEmpty) }
            monitor.unlock()
        }
    }

    func shutdown() async {
        monitor.withLock { isShutdown = true }
        await flush()
        stop()
    }

    /// Lets the worker drain what is queued, stop its destinations and exit.
    func stop() {
        monitor.withLock {
            stopping = true
            monitor.signal(.notEmpty)
            monitor.broadcast(.notFull)
        }
    }

    // MARK: Worker

    private func run() {
        Self.markClientThread()
        var batch: [QueueItem] = []
        batch.reserveCapacity(min(buffering.capacity, 1024))
        var laneBatches = [[LaneItem]](repeating: [], count: lanes.count)
        while true {
            monitor.lock()
            while pending.isEmpty && !stopping {
                workerWaiting = true
                monitor.wait(.notEmpty)
                workerWaiting = false
            }
            if pending.isEmpty {
                workerExited = true
                monitor.unlock()
                break
            }
            swap(&pending, &batch)
            pendingEvents = 0
            overflowing = false
            if buffering.whenFull == .block { monitor.broadcast(.notFull) }
            monitor.unlock()

            process(batch, into: &laneBatches)
            batch.removeAll(keepingCapacity: true)
        }
        for lane in lanes { lane.stop() }
    }

    private func process(_ batch: [QueueItem], into laneBatches: inout [[LaneItem]]) {
        var drops: [DropReason: Int] = [:]
        var routedAway = [Int](repeating: 0, count: lanes.count)
        var events = [Int](repeating: 0, count: lanes.count)
        for item in batch {
            switch item {
            case .flush(let barrier):
                for index in lanes.indices { laneBatches[index].append(.flush(barrier)) }
            case .reset:
                for index in lanes.indices { laneBatches[index].append(.reset) }
            case .event(let stamped, let sequence):
                guard let envelope = prepare(stamped, drops: &drops) else { continue }
                let delivery = Delivery(envelope, sequence: sequence)
                for (index, lane) in lanes.enumerated() {
                    if let allowed = envelope.destinations, !allowed.contains(lane.name) {
                        routedAway[index] += 1
                    } else {
                        laneBatches[index].append(.event(delivery))
                        events[index] += 1
                    }
                }
            }
        }
        // Counts are committed before the batch (and any flush barrier in it) moves on, so a flush sees them.
        if !drops.isEmpty { center.count(drops) }
        for (index, lane) in lanes.enumerated() {
            lane.enqueue(&laneBatches[index], events: events[index], routedAway: routedAway[index])
        }
        if lanes.isEmpty {
            for case .flush(let barrier) in batch { barrier.resolveNow() }
        }
    }

    /// Input limits, then processors. Nil when the event is dropped.
    private func prepare(_ stamped: Envelope, drops: inout [DropReason: Int]) -> Envelope? {
        var envelope = stamped
        let (event, problems) = limits.sanitize(envelope.event)
        for problem in problems { center.report(problem) }
        guard let event else {
            drops[.invalidEvent, default: 0] += 1
            return nil
        }
        if !problems.isEmpty { envelope.event = event }
        for (processor, context) in processors {
            guard let next = processor.process(envelope, context: context) else {
                drops[.filtered(by: processor.name), default: 0] += 1
                return nil
            }
            envelope = next
        }
        return envelope
    }

    // MARK: Diagnostics

    var diagnostics: Diagnostics {
        var snapshot = Diagnostics()
        monitor.withLock {
            snapshot.tracked = tracked
            snapshot.dropped = callerDrops
        }
        center.fill(&snapshot)
        for lane in lanes { snapshot.destinations[lane.name] = lane.diagnostics }
        return snapshot
    }
}

/// The sequence number up to which events must not be delivered: everything stamped before the latest
/// opt-out. Each destination lane has its own, so the check it makes for every event takes a lock no
/// other thread contends for except during an opt-out.
final class ConsentCutoff: Sendable {
    private let cutoff = Locked<UInt64?>(nil)

    func optOut(below sequence: UInt64) { cutoff.withLock { $0 = sequence } }

    /// Whether an event stamped with `sequence` may still be delivered.
    @inline(__always)
    func allows(_ sequence: UInt64) -> Bool {
        cutoff.withLock { cutoff in cutoff.map { sequence > $0 } ?? true }
    }
}

/// Resumes a flush once every destination has passed it.
final class FlushBarrier: Sendable {
    private let state: Locked<(parties: Int, continuation: CheckedContinuation<Void, Never>?)>

    init(parties: Int, continuation: CheckedContinuation<Void, Never>) {
        state = Locked((parties, continuation))
    }

    /// One destination has delivered everything before the barrier.
    func arrive() {
        let continuation: CheckedContinuation<Void, Never>? = state.withLock { state in
            state.parties -= 1
            guard state.parties <= 0 else { return nil }
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }

    /// Nothing to wait for.
    func resolveNow() {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}
