/// The one bounded queue of the client: between the callers of `track` and the worker, and between the
/// worker and each destination.
///
/// Producers ``offer(_:weight:mayWait:admit:stamp:onFirstWait:)`` elements; one consumer thread
/// ``drain(into:)``s everything queued in one go. Capacity counts *weight*: an event weighs 1, a part of a
/// batch handed to a destination weighs the number of events it holds for it, and markers (a flush, a
/// reset) weigh 0, so they always fit.
///
/// - An offer returns ``Offer/accepted``, ``Offer/full(_:room:startsEpisode:)`` (with what fits, for a
///   producer that can split its element), ``Offer/refused(_:)`` (its `admit` said no) or
///   ``Offer/closed(_:)``; every answer but the first hands the element back.
/// - Under ``Buffering/OverflowPolicy/block`` a producer that may wait does, until some room opens; one that
///   may not (the client's own threads) gets `.full`.
/// - One wake-up per batch: a producer signals the consumer only when the consumer is parked, and clears
///   the flag as it signals, so the producers that follow before the consumer runs do not signal again.
///   The consumer takes everything at once.
/// - A consumer that found the queue empty lingers for ``linger`` before it parks: events offered
///   meanwhile wake nobody and are taken in one batch when the linger ends. Without it a consumer as fast
///   as its producers parks after every element, and each offer pays a wake-up (a system call, and on a
///   quiet machine several times the cost of the offer itself). What must not wait wakes a lingering
///   consumer at once: a marker (weight 0, e.g. a flush), a queue half full, a producer waiting for room,
///   and closing.
///
/// `@unchecked Sendable`: the state behind `state` is only touched with `monitor` held. It lives behind a
/// pointer so that reaching it costs no dynamic exclusivity check (the lock makes each access exclusive).
/// The owner may guard state of its own with the same lock, through ``withLock(_:)`` and an offer's
/// `admit` and `stamp` closures.
final class BoundedQueue<Element>: @unchecked Sendable {
    /// What became of an offer.
    enum Offer {
        /// The element was added.
        case accepted
        /// Only `room` more units of weight fit right now, less than the element's weight. A producer that
        /// can split its element offers the part that fits. When nothing fits, `startsEpisode` is true for
        /// the first such answer since the consumer last emptied the queue, so that an overflow is reported
        /// once, not once per element.
        case full(Element, room: Int, startsEpisode: Bool)
        /// The offer's `admit` closure refused the element.
        case refused(Element)
        /// The queue is closed: it accepts nothing more.
        case closed(Element)
    }

    private struct State {
        var elements: [Element] = []
        var held = 0
        var accepted = 0
        var closed = false
        var consumerParked = false
        var consumerLingering = false
        var overflowing = false
        var waited = false
        var waitingProducers = 0
    }

    /// The most weight the queue holds.
    let capacity: Int
    /// What a full queue does to a producer that may wait.
    let policy: Buffering.OverflowPolicy
    /// The client's linger, for its queue and each destination's: 100 µs. Events that arrive while the
    /// consumer lingers reach it at most this late; a lone event does not wait (the consumer lingers only
    /// after a batch, when it found the queue empty).
    static var batchingLinger: Int { 100_000 }

    /// How long, in nanoseconds, the consumer waits for more elements after finding the queue empty, before
    /// it parks until a producer signals it. 0: it parks at once.
    let linger: Int
    /// Called, with the lock held, each time the consumer starts to linger (for tests).
    private let lingering: (@Sendable () -> Void)?

    private let monitor = Monitor()
    private let state: UnsafeMutablePointer<State>

    /// Creates an empty queue.
    ///
    /// - Parameters:
    ///   - capacity: the most weight it holds, at least 1.
    ///   - policy: what a full queue does to a producer that may wait.
    ///   - reserve: how many elements to make room for up front.
    ///   - linger: how long the consumer waits for more after finding the queue empty, in nanoseconds
    ///     (less than a second); 0 parks it at once.
    ///   - lingering: called, with the lock held, each time the consumer starts to linger (for tests).
    init(
        capacity: Int, policy: Buffering.OverflowPolicy, reserve: Int = 0, linger: Int = 0,
        lingering: (@Sendable () -> Void)? = nil
    ) {
        self.capacity = max(1, capacity)
        self.policy = policy
        self.linger = min(max(0, linger), 999_999_999)
        self.lingering = lingering
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        state.pointee.elements.reserveCapacity(min(reserve, self.capacity))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    // MARK: Producers

    /// What became of an offer whose element is made from `Input` only once it is admitted and fits (see
    /// ``offer(_:weight:mayWait:admit:make:onFirstWait:)``): ``Offer`` with the input handed back instead of
    /// the element, which was never made.
    enum Admission<Input> {
        case accepted
        case full(Input, room: Int, startsEpisode: Bool)
        case refused(Input)
        case closed(Input)
    }

    /// Offers `element`, of `weight` units.
    ///
    /// - Parameters:
    ///   - element: moved into the queue when accepted, handed back otherwise.
    ///   - weight: what it counts against the capacity; 0 always fits.
    ///   - mayWait: whether the producer may wait for room under the `.block` policy.
    ///   - admit: runs with the lock held before anything else and again after every wait; false refuses
    ///     the element.
    ///   - stamp: runs with the lock held once the element fits, just before it is added.
    ///   - onFirstWait: runs without the lock, with the element, before the first wait of an overflow
    ///     episode; the offer then starts over.
    ///   - urgent: wakes a lingering consumer, as a marker (weight 0) does: for an element that carries
    ///     a marker among its events.
    func offer(
        _ element: consuming Element, weight: Int, mayWait: Bool, urgent: Bool = false, admit: () -> Bool = { true },
        stamp: (inout Element) -> Void = { _ in }, onFirstWait: (borrowing Element) -> Void = { _ in }
    ) -> Offer {
        switch enter(weight: weight, mayWait: mayWait, admit: admit, onFirstWait: { onFirstWait(element) }) {
        case .accepted:
            stamp(&element)
            append(element, weight: weight, urgent: urgent)
            return .accepted
        case .full(_, let room, let startsEpisode):
            return .full(element, room: room, startsEpisode: startsEpisode)
        case .refused:
            return .refused(element)
        case .closed:
            return .closed(element)
        }
    }

    /// Offers the element `make` makes of `input`, of `weight` units, made with the lock held once it is
    /// admitted and fits: for a producer that stamps its element under the lock, so that the element is
    /// built once, with its final values, instead of built, handed in and changed in place (each change of a
    /// large element behind an optional or a closure's `inout` costs copies of its bytes and of its
    /// references).
    ///
    /// The parameters are those of ``offer(_:weight:mayWait:urgent:admit:stamp:onFirstWait:)``; `make`
    /// runs at most once, and only when the answer is ``Admission/accepted``; every other answer hands
    /// `input` back.
    @inline(__always)
    func offer<Input>(
        _ input: consuming Input, weight: Int, mayWait: Bool, admit: () -> Bool, make: (consuming Input) -> Element,
        onFirstWait: (borrowing Input) -> Void
    ) -> Admission<Input> {
        switch enter(weight: weight, mayWait: mayWait, admit: admit, onFirstWait: { onFirstWait(input) }) {
        case .accepted:
            append(make(input), weight: weight, urgent: false)
            return .accepted
        case .full(_, let room, let startsEpisode):
            return .full(input, room: room, startsEpisode: startsEpisode)
        case .refused:
            return .refused(input)
        case .closed:
            return .closed(input)
        }
    }

    /// Takes the lock and waits for room as the offers do. Returns ``Admission/accepted`` with the lock
    /// held (the caller then ``append(_:weight:urgent:)``s), every other answer with the lock released.
    @inline(__always)
    private func enter(
        weight: Int, mayWait: Bool, admit: () -> Bool, onFirstWait: () -> Void
    ) -> Admission<Void> {
        monitor.lock()
        while true {
            if state.pointee.closed {
                monitor.unlock()
                return .closed(())
            }
            guard admit() else {
                monitor.unlock()
                return .refused(())
            }
            let room = capacity - state.pointee.held
            if weight <= room { return .accepted }
            if policy == .block, mayWait, room == 0 {
                if !state.pointee.waited {
                    state.pointee.waited = true
                    monitor.unlock()
                    onFirstWait()
                    monitor.lock()
                    continue
                }
                wakeConsumer(now: true)
                state.pointee.waitingProducers += 1
                monitor.wait(.notFull)
                state.pointee.waitingProducers -= 1
                continue
            }
            let startsEpisode = room == 0 && !state.pointee.overflowing
            if room == 0 { state.pointee.overflowing = true }
            monitor.unlock()
            return .full((), room: room, startsEpisode: startsEpisode)
        }
    }

    /// Adds an admitted element, wakes the consumer if it must, and releases the lock ``enter`` took.
    @inline(__always)
    private func append(_ element: consuming Element, weight: Int, urgent: Bool) {
        state.pointee.elements.append(element)
        state.pointee.held += weight
        state.pointee.accepted += weight
        wakeConsumer(now: urgent || weight == 0 || state.pointee.held * 2 >= capacity)
        monitor.unlock()
    }

    /// Signals the consumer if it is parked, or, when `now`, lingering. Called with the lock held.
    @inline(__always)
    private func wakeConsumer(now: Bool = false) {
        if state.pointee.consumerParked {
            state.pointee.consumerParked = false
            monitor.signal(.notEmpty)
        } else if now && state.pointee.consumerLingering {
            state.pointee.consumerLingering = false
            monitor.signal(.notEmpty)
        }
    }

    /// Runs `body` with the queue's lock held, for state its owner guards with the same lock.
    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try monitor.withLock(body)
    }

    /// Wakes the producers waiting for room, so that they look again at what their `admit` closure reads.
    func wakeProducers() {
        monitor.withLock { monitor.broadcast(.notFull) }
    }

    /// Stops accepting elements. Producers waiting for room get ``Offer/closed(_:)``; the consumer drains
    /// what is left and then gets false from ``drain(into:)``.
    func close() {
        monitor.withLock {
            state.pointee.closed = true
            wakeConsumer(now: true)
            monitor.broadcast(.notFull)
        }
    }

    /// The weight accepted since the queue was made.
    var acceptedCount: Int { monitor.withLock { state.pointee.accepted } }

    // MARK: The consumer

    /// Waits until the queue holds something or is closed, then moves everything it holds into `batch`
    /// (which must be empty; its capacity is kept for the queue's next elements).
    ///
    /// - Returns: false when the queue is closed and empty: the consumer is done.
    func drain(into batch: inout [Element]) -> Bool {
        monitor.lock()
        if linger > 0 && state.pointee.elements.isEmpty && !state.pointee.closed {
            // Producers leave a lingering consumer be (unless something must not wait), so the elements
            // offered meanwhile cost them no wake-up.
            state.pointee.consumerLingering = true
            lingering?()
            monitor.wait(.notEmpty, nanoseconds: linger)
            state.pointee.consumerLingering = false
        }
        while state.pointee.elements.isEmpty {
            if state.pointee.closed {
                monitor.unlock()
                return false
            }
            state.pointee.consumerParked = true
            monitor.wait(.notEmpty)
        }
        state.pointee.consumerParked = false
        swap(&state.pointee.elements, &batch)
        state.pointee.held = 0
        state.pointee.overflowing = false
        state.pointee.waited = false
        if state.pointee.waitingProducers > 0 { monitor.broadcast(.notFull) }
        monitor.unlock()
        return true
    }
}
