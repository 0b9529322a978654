// How a call moves through the bridge. Everything below is guarded by the bridge's one lock, and every
// continuation is resumed outside it.
//
//   entering ──(slot free)──────────────► owning ──(start; install)──► awaitingResult
//      │ └───(busy, .queue)─► waiting ──(release hands over)──┘ │                │
//      │                         │                              │                │
//      └─ end(): cancellation, timeout, busy (.reject) ─────────┴──── end() ─────┴──► ended(result?)
//
// `end` is the only way into `ended`, and only the first `end` for a call changes anything: that is what
// makes "first answer wins" and "exactly one resume" hold whatever races. A call's entry is removed when
// `call` returns; a callback for an ended or removed call is ignored and counted.

extension SDKBridge {
    struct State {
        var phases: [UInt64: Phase] = [:]
        var nextID: UInt64 = 0
        /// The call holding the slot, from getting its turn until its cleanup has run.
        var owner: UInt64?
        /// Ids in arrival order from `queueHead` on; entries no longer `waiting` are skipped.
        var queue: [UInt64] = []
        var queueHead = 0
        var waitingCount = 0
        var ignoredCallbacks = 0
        /// Tests wait here for a number of waiting callers (see `waitUntilWaitingCallers`).
        var waitingObservers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    enum Phase {
        /// Made, not yet asked for the slot.
        case entering
        /// Queued; resumed with `true` when handed the slot, `false` when ended while waiting.
        case waiting(CheckedContinuation<Bool, Never>)
        /// Holds the slot; `start` may be running; nobody is waiting for the result yet.
        case owning
        /// Holds the slot; the caller is suspended until `end`.
        case awaitingResult(CheckedContinuation<Result<Success, any Error>, Never>)
        /// Decided. The result is kept until the caller takes it, then `nil`.
        case ended(Result<Success, any Error>?)
    }

    /// Whom an `end` must resume, outside the lock.
    private enum Wake {
        case nobody
        case waiter(CheckedContinuation<Bool, Never>)
        case caller(CheckedContinuation<Result<Success, any Error>, Never>)
    }

    /// Ends call `id` with `result` unless something ended it first.
    ///
    /// - Parameter isCallback: whether an ignored `end` counts in ``ignoredCallbacks`` (SDK answers and
    ///   a throwing `start` do; cancellation and timers do not).
    /// - Returns: whether this ended the call.
    @discardableResult
    func end(_ id: UInt64, with result: Result<Success, any Error>, isCallback: Bool) -> Bool {
        let wake: Wake? = state.withLock { state in
            switch state.phases[id] {
            case .entering?, .owning?:
                state.phases[id] = .ended(result)
                return .nobody
            case .waiting(let continuation)?:
                state.phases[id] = .ended(result)
                state.waitingCount -= 1
                return .waiter(continuation)
            case .awaitingResult(let continuation)?:
                state.phases[id] = .ended(nil)
                return .caller(continuation)
            case .ended?, nil:
                if isCallback { state.ignoredCallbacks += 1 }
                return nil
            }
        }
        switch wake {
        case nil: return false
        case .nobody?: return true
        case .waiter(let continuation)?:
            continuation.resume(returning: false)
            return true
        case .caller(let continuation)?:
            continuation.resume(returning: result)
            return true
        }
    }

    /// Runs one call: turn, start, result, cleanup, release.
    func perform(
        isolation: isolated (any Actor)?,
        timer makeTimer: ((UInt64) -> Task<Void, Never>)?,
        start: (Completion) throws -> Void,
        cleanup: () -> Void
    ) async throws -> Success {
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.phases[id] = .entering
            return id
        }
        defer { _ = state.withLock { $0.phases.removeValue(forKey: id) } }
        let timer = makeTimer?(id)
        defer { timer?.cancel() }

        let result = await withTaskCancellationHandler {
            await run(id, isolation: isolation, start: start, cleanup: cleanup)
        } onCancel: {
            end(id, with: .failure(CancellationError()), isCallback: false)
        }
        return try result.get()
    }

    private func run(
        _ id: UInt64,
        isolation: isolated (any Actor)?,
        start: (Completion) throws -> Void,
        cleanup: () -> Void
    ) async -> Result<Success, any Error> {
        guard await takeTurn(id) else { return takeResult(id) }

        // This call holds the slot now and must release it exactly once, after its cleanup.
        defer { release(id) }
        let mayStart = state.withLock { state in
            if case .owning? = state.phases[id] { return true }
            return false  // Cancelled or timed out between getting the turn and here.
        }
        guard mayStart else { return takeResult(id) }

        do {
            try start(Completion(bridge: self, id: id))
        } catch {
            end(id, with: .failure(error), isCallback: true)
        }
        let result = await withCheckedContinuation { continuation in
            let ready: Result<Success, any Error>? = state.withLock { state in
                switch state.phases[id] {
                case .ended(let result?)?:
                    state.phases[id] = .ended(nil)
                    return result
                case .owning?:
                    state.phases[id] = .awaitingResult(continuation)
                    return nil
                default:
                    preconditionFailure("SDKBridge: call \(id) lost its phase while owning the slot")
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
        cleanup()
        return result
    }

    /// Waits for the slot. Returns `false` if the call ended first (see `takeResult`).
    private func takeTurn(_ id: UInt64) async -> Bool {
        await withCheckedContinuation { continuation in
            let (now, observers): (Bool?, [CheckedContinuation<Void, Never>]) = state.withLock { state in
                guard case .entering? = state.phases[id] else { return (false, []) }
                if state.owner == nil {
                    state.owner = id
                    state.phases[id] = .owning
                    return (true, [])
                }
                switch busyPolicy {
                case .reject:
                    state.phases[id] = .ended(.failure(BridgeError.busy))
                    return (false, [])
                case .queue:
                    state.phases[id] = .waiting(continuation)
                    state.queue.append(id)
                    state.waitingCount += 1
                    return (nil, state.takeSatisfiedObservers())
                }
            }
            observers.forEach { $0.resume() }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Takes the stored result of an ended call that will not run (further).
    private func takeResult(_ id: UInt64) -> Result<Success, any Error> {
        state.withLock { state in
            guard case .ended(let result?)? = state.phases[id] else {
                preconditionFailure("SDKBridge: call \(id) has no result to take")
            }
            state.phases[id] = .ended(nil)
            return result
        }
    }

    /// Gives the slot to the first caller still waiting, or frees it.
    private func release(_ id: UInt64) {
        let next: CheckedContinuation<Bool, Never>? = state.withLock { state in
            precondition(state.owner == id, "SDKBridge: call \(id) released a slot it does not hold")
            defer { state.compactQueue() }
            while state.queueHead < state.queue.count {
                let candidate = state.queue[state.queueHead]
                state.queueHead += 1
                if case .waiting(let continuation)? = state.phases[candidate] {
                    state.waitingCount -= 1
                    state.owner = candidate
                    state.phases[candidate] = .owning
                    return continuation
                }
            }
            state.owner = nil
            return nil
        }
        next?.resume(returning: true)
    }

    /// Returns once at least `count` callers are waiting for their turn. For tests that need callers
    /// queued in a known order; not cancellable.
    func waitUntilWaitingCallers(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let satisfied = state.withLock { state in
                if state.waitingCount >= count { return true }
                state.waitingObservers.append((count, continuation))
                return false
            }
            if satisfied { continuation.resume() }
        }
    }
}

extension SDKBridge.State {
    fileprivate mutating func compactQueue() {
        if queueHead == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        } else if queueHead >= 64, queueHead * 2 >= queue.count {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
    }

    fileprivate mutating func takeSatisfiedObservers() -> [CheckedContinuation<Void, Never>] {
        guard !waitingObservers.isEmpty else { return [] }
        var satisfied: [CheckedContinuation<Void, Never>] = []
        waitingObservers.removeAll { observer in
            guard observer.count <= waitingCount else { return false }
            satisfied.append(observer.continuation)
            return true
        }
        return satisfied
    }
}
