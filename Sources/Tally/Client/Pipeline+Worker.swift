extension Pipeline {
    /// The worker thread: drains the client's queue a batch at a time, runs the input limits and the
    /// processors on each event in place, boxes each event that survives once, and hands one batch of
    /// boxes to every destination's lane.
    ///
    /// The worker's own buffer goes back to the client's queue for the next batch; the lanes share the
    /// batch of boxes, and the last one to finish hands it back (see ``Batch``): in the steady state no
    /// batch allocates.
    func run() {
        FeedbackDepth.set(0)
        let pool = BatchPool()
        var batch: [QueueItem] = []
        batch.reserveCapacity(1024)
        var drops: [DropReason: Int] = [:]
        var gate = initialConsent
        var releases: [Release] = []
        var validName: String?
        while queue.drain(into: &batch) {
            let (events, kept, routed) = process(
                &batch, drops: &drops, gate: &gate, releases: &releases, validName: &validName)
            if !drops.isEmpty {
                accounting.dropped(drops)
                drops.removeAll(keepingCapacity: true)
            }
            // Before the lanes get the batch, so that the counts are exact when a flush in it returns.
            if !gate.isOpen { accounting.holding(gate.held.count) }
            if !lanes.isEmpty && (kept > 0 || batch.count > events) {
                let shared = pool.take(capacity: kept + batch.count - events)
                box(&batch, into: shared, releases: releases)
                hand(shared, kept: kept, routed: routed)
            }
            batch.removeAll(keepingCapacity: true)
            releases.removeAll(keepingCapacity: true)
            if events > 0 { markHandled(events) }
        }
        let unanswered = gate.dropAll()
        if unanswered > 0 {
            accounting.dropped([.consentNotGiven: unanswered])
            accounting.holding(0)
        }
        for lane in lanes { lane.close() }
    }

    /// Events the user's consent released, to go out at the place of the answer's marker in the batch.
    struct Release {
        /// The marker's index in the batch.
        var index: Int
        var events: [ConsentGate.HeldEvent]
    }

    /// Moves each kept event of `batch` into a box of its own in `shared`, and copies the markers; the events
    /// of each release go in at the place of the answer that released them.
    private func box(_ batch: inout [QueueItem], into shared: Batch, releases: [Release]) {
        // Filled as a local, so that appending costs no exclusivity check on the batch's property.
        var boxed: [LaneItem] = []
        swap(&boxed, &shared.items)
        defer { swap(&boxed, &shared.items) }
        batch.withUnsafeMutableBufferPointer { items in
            for index in items.indices {
                switch items[index].kind {
                case .event:
                    // Moves the envelope into its box; the slot is left empty.
                    let box = EnvelopeBox(items[index].envelope.take()!, sequence: items[index].sequence)
                    boxed.append(.event(Unmanaged.passRetained(box)))
                case .flush(let barrier):
                    boxed.append(.flush(barrier))
                case .reset:
                    boxed.append(.reset)
                case .shutdown:
                    continue
                case .consent:
                    for release in releases where release.index == index {
                        for held in release.events {
                            boxed.append(
                                .event(Unmanaged.passRetained(EnvelopeBox(held.envelope, sequence: held.sequence))))
                        }
                    }
                case .dropped:
                    continue
                }
            }
        }
    }

    /// Runs the input limits and the processors on every event of `batch`, marking the dropped ones, then
    /// the consent gate: an event whose purpose the user has not answered moves into the gate's hold, and an
    /// answer releases or drops the events waiting for it.
    ///
    /// - Returns: how many events the batch held, how many are kept (released ones included), and whether
    ///   any kept event is routed to some destinations only.
    /// `validName` is the last name the input limits accepted (see ``InputLimits/apply(to:validName:report:)``).
    private func process(
        _ batch: inout [QueueItem], drops: inout [DropReason: Int], gate: inout ConsentGate,
        releases: inout [Release], validName: inout String?
    ) -> (events: Int, kept: Int, routed: Bool) {
        var events = 0
        var kept = 0
        var routed = false
        var depth = 0
        batch.withUnsafeMutableBufferPointer { items in
            for index in items.indices {
                switch items[index].kind {
                case .event:
                    break
                case .flush(let barrier):
                    // With no destination, the flush is done once the events before it were processed.
                    if lanes.isEmpty { barrier.resolve(.completed) }
                    continue
                case .consent(let purpose, let status):
                    let settled = gate.answer(status, for: purpose)
                    guard !settled.isEmpty else { continue }
                    if status == .granted {
                        kept += settled.count
                        if settled.contains(where: { $0.envelope.destinations != nil }) { routed = true }
                        releases.append(Release(index: index, events: settled))
                    } else {
                        drops[.consentDenied, default: 0] += settled.count
                    }
                    continue
                case .shutdown:
                    let unanswered = gate.dropAll()
                    if unanswered > 0 { drops[.consentNotGiven, default: 0] += unanswered }
                    continue
                case .reset:
                    // What waits was tracked for the user who signed out: never released after their reset.
                    let unanswered = gate.dropAll()
                    if unanswered > 0 { drops[.resetWhileHeld, default: 0] += unanswered }
                    continue
                case .dropped:
                    continue
                }
                events += 1
                // In place, through `inout`: reading the envelope through the optional's `!` made the
                // optimizer copy it whole (retaining and releasing every field), and moving it out and
                // back copied its bytes several times.
                switch examine(&items[index].envelope!, depth: &depth, gate: &gate, validName: &validName) {
                case .kept(let isRouted):
                    kept += 1
                    if isRouted { routed = true }
                case .held:
                    // Not a drop: the event is in the consent hold, counted there.
                    gate.hold(items[index].envelope.take()!, sequence: items[index].sequence)
                    items[index].kind = .dropped
                case .dropped(let reason):
                    items[index].kind = .dropped
                    drops[reason, default: 0] += 1
                }
            }
        }
        if depth != 0 { FeedbackDepth.set(0) }
        return (events, kept, routed)
    }

    /// Sets the feedback depth for the event, then applies the input limits, the processors and the consent
    /// gate: what becomes of it.
    @inline(__always)
    private func examine(
        _ envelope: inout Envelope, depth: inout Int, gate: inout ConsentGate, validName: inout String?
    ) -> Fate {
        let eventDepth = envelope.origin == .app ? 0 : 1
        if eventDepth != depth {
            depth = eventDepth
            FeedbackDepth.set(depth)
        }
        if let reason = prepare(&envelope, validName: &validName) { return .dropped(reason) }
        let fate: Fate = gate.isOpen ? .kept(routed: false) : consent(&envelope, gate: &gate)
        guard case .kept = fate else { return fate }
        return .kept(routed: envelope.destinations != nil)
    }

    /// What becomes of one event of a batch.
    private enum Fate {
        /// It goes on to the destinations; `routed` when to some of them only.
        case kept(routed: Bool)
        /// It goes into the consent hold: not a drop, it waits for the user's answer.
        case held
        /// It is dropped, and counted under the reason.
        case dropped(DropReason)
    }

    /// Lets the event through when the user granted its purpose or nothing gates it (``Fate/kept``, with
    /// what the client knew in ``Envelope/consent``), drops it when they denied it, or says it waits in the
    /// hold (``Fate/held``: the caller moves it there) while they have not answered, or drops it when the
    /// hold is full. Only called once the app uses consent (``ConsentGate/isOpen`` is false).
    private func consent(_ envelope: inout Envelope, gate: inout ConsentGate) -> Fate {
        let answer = gate.answer(for: envelope.event.purpose)
        switch answer {
        case .granted, .notRequired:
            envelope.consent = answer
            return .kept(routed: false)
        case .denied:
            return .dropped(.consentDenied)
        case .notAsked:
            if gate.isFull {
                accounting.problems.reportOnce(
                    Problem(
                        .consentHoldFull,
                        "The consent hold is full (\(gate.capacity) events); events waiting for the user's answer are dropped until the user answers",
                        outcome: .dropped, eventName: envelope.reportName),
                    depth: FeedbackDepth.current)
                return .dropped(.consentHoldFull)
            }
            return .held
        }
    }

    /// Applies the input limits, then the processors, in place. Returns why the event is dropped, or nil.
    @inline(__always)
    private func prepare(_ envelope: inout Envelope, validName: inout String?) -> DropReason? {
        let problems = accounting.problems
        guard
            limits.apply(
                to: &envelope.event, validName: &validName,
                report: { problems.report($0, depth: FeedbackDepth.current) })
        else {
            return .invalidEvent
        }
        for index in stages.indices where Self.run(&stages[index], on: &envelope) == .drop {
            return .filtered(by: stages[index].processor.name)
        }
        return nil
    }

    /// Runs one processor. `stage` is `inout` although nothing changes it: an exclusive access lets the
    /// compiler call the processor without copying it and its context out of the buffer first. Only the
    /// worker thread reaches the stages.
    @inline(__always)
    private static func run(_ stage: inout Stage, on envelope: inout Envelope) -> ProcessingDecision {
        stage.processor.process(&envelope, context: stage.context)
    }

    /// Hands the processed batch to every lane: the same buffer to each, with the number of events it
    /// should receive.
    private func hand(_ batch: Batch, kept: Int, routed: Bool) {
        // Held once for the worker while it hands out chunks, so that a fast lane cannot recycle the batch
        // before the last lane has its chunk.
        batch.hold()
        for lane in lanes {
            var events = kept
            if routed {
                events = 0
                for item in batch.items where item.isDelivered(to: lane.name) { events += 1 }
            }
            lane.take(batch, events: events, routedAway: kept - events)
        }
        batch.release()
    }
}
