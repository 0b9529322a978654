import Dispatch
import Tally
import Testing

/// Runs under ThreadSanitizer in CI: `swift test --sanitize=thread --filter Concurrency`.
@Suite struct BridgeConcurrencyTests {
    /// What a stress call's SDK does. The kind follows from the call's index, so counts are known ahead.
    enum Kind: CaseIterable {
        /// Every callback succeeds with the index.
        case succeed
        /// Every callback fails with `StressError(index)`.
        case fail
        /// Callbacks alternate success and failure, racing: the caller must get the winner's outcome.
        case mixed
        /// `start` cancels its own task before any callback, which then all arrive late.
        case cancelDuringStart
        /// `start` throws `StressError(index)` and sends no callback.
        case throwFromStart
        /// Another thread cancels the task at any moment (mostly while it waits for its turn).
        case racingCancellation
        /// Another thread cancels the task once `start` has run, racing the callbacks.
        case cancellationRacingCallbacks
    }

    struct Plan {
        let index: Int
        var kind: Kind {
            switch index % 10 {
            case 0, 1, 2: return .succeed
            case 3, 4: return .fail
            case 5, 6: return .mixed
            case 7: return .cancelDuringStart
            case 8: return .throwFromStart
            default: return (index / 10).isMultiple(of: 2) ? .racingCancellation : .cancellationRacingCallbacks
            }
        }
        /// How many times the SDK answers: one to three.
        var callbacks: Int { kind == .throwFromStart ? 0 : (index / 10) % 3 + 1 }
    }

    struct StressError: Error, Equatable {
        let index: Int
    }

    enum Outcome: Equatable {
        case success(Int)
        case failure(Int)
        case cancelled
    }

    struct Ledger {
        var active = 0
        var maxActive = 0
        var starts: Set<Int> = []
        var cleanups: [Int: Int] = [:]
        /// Per call, the callbacks that ended it (`true` for a success).
        var winners: [Int: [Bool]] = [:]
        var callbacksSent = 0
        var callbacksIgnored = 0
        var outcomes: [Int: Outcome] = [:]
        var outcomesRecordedTwice = 0
    }

    @Test func eightGroupsOfAThousandQueuedCallsAnsweredFromRandomThreads() async throws {
        let groups = 8
        let callsPerGroup = 1_000
        let bridge = SDKBridge<Int>(whenBusy: .queue)
        let ledger = Locked(Ledger())
        let inFlightCallbacks = DispatchGroup()
        let tasks = Locked<[Int: Task<Int, any Error>]>([:])

        @Sendable func start(_ plan: Plan, _ completion: SDKBridge<Int>.Completion) throws {
            ledger.withLock { ledger in
                ledger.active += 1
                ledger.maxActive = max(ledger.maxActive, ledger.active)
                ledger.starts.insert(plan.index)
            }
            switch plan.kind {
            case .throwFromStart:
                throw StressError(index: plan.index)
            case .cancelDuringStart:
                withUnsafeCurrentTask { $0?.cancel() }
            default:
                break
            }
            // Half of the racing cancellations are sent before the callbacks, half after, so both sides win.
            let cancelFirst = (plan.index / 20).isMultiple(of: 2)
            if plan.kind == .cancellationRacingCallbacks, cancelFirst { cancelFromAnotherThread(plan) }
            for callback in 0..<plan.callbacks {
                inFlightCallbacks.enter()
                DispatchQueue.global().async {
                    defer { inFlightCallbacks.leave() }
                    let succeeds =
                        switch plan.kind {
                        case .fail: false
                        case .mixed: callback.isMultiple(of: 2)
                        default: true
                        }
                    let won =
                        succeeds
                        ? completion.succeed(plan.index) : completion.fail(StressError(index: plan.index))
                    ledger.withLock { ledger in
                        ledger.callbacksSent += 1
                        if won {
                            ledger.winners[plan.index, default: []].append(succeeds)
                        } else {
                            ledger.callbacksIgnored += 1
                        }
                    }
                }
            }
            if plan.kind == .cancellationRacingCallbacks, !cancelFirst { cancelFromAnotherThread(plan) }
        }

        @Sendable func cancelFromAnotherThread(_ plan: Plan) {
            let task = tasks.withLock { $0.removeValue(forKey: plan.index) }
            DispatchQueue.global().async { task?.cancel() }
        }

        @Sendable func cleanup(_ plan: Plan) {
            ledger.withLock { ledger in
                ledger.active -= 1
                ledger.cleanups[plan.index, default: 0] += 1
            }
        }

        @Sendable func run(_ plan: Plan) async {
            let handleStored = Mailbox<Void>()
            let call = Task {
                if plan.kind == .cancellationRacingCallbacks { await handleStored.next() }
                return try await bridge.call {
                    try start(plan, $0)
                } cleanup: {
                    cleanup(plan)
                }
            }
            switch plan.kind {
            case .racingCancellation:
                DispatchQueue.global().async { call.cancel() }
            case .cancellationRacingCallbacks:
                tasks.withLock { $0[plan.index] = call }
                handleStored.send(())
            default:
                break
            }
            let outcome: Outcome
            switch await call.result {
            case .success(let value): outcome = .success(value)
            case .failure(let error as StressError): outcome = .failure(error.index)
            case .failure(let error):
                #expect(error is CancellationError, "call \(plan.index) threw \(error)")
                outcome = .cancelled
            }
            ledger.withLock { ledger in
                if ledger.outcomes.updateValue(outcome, forKey: plan.index) != nil {
                    ledger.outcomesRecordedTwice += 1
                }
            }
        }

        await withTaskGroup(of: Void.self) { all in
            for group in 0..<groups {
                all.addTask {
                    await withTaskGroup(of: Void.self) { calls in
                        for call in 0..<callsPerGroup {
                            calls.addTask { await run(Plan(index: group * callsPerGroup + call)) }
                        }
                    }
                }
            }
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            inFlightCallbacks.notify(queue: .global()) { done.resume() }
        }

        let plans = (0..<groups * callsPerGroup).map(Plan.init)
        let final = ledger.current

        // Every call ended exactly once, one at a time, and gave the slot back.
        #expect(final.outcomes.count == plans.count)
        #expect(final.outcomesRecordedTwice == 0)
        #expect(final.maxActive == 1)
        #expect(final.active == 0)
        #expect(final.cleanups.count == final.starts.count)
        #expect(final.cleanups.values.allSatisfy { $0 == 1 })
        #expect(!bridge.isBusy)
        #expect(bridge.waitingCallers == 0)

        // Each call's outcome is its plan's, or (when callbacks raced) the winning callback's.
        var expected = (successes: 0, failures: 0, cancellations: 0, ignored: 0)
        for plan in plans {
            let outcome = final.outcomes[plan.index]
            let winners = final.winners[plan.index] ?? []
            switch plan.kind {
            case .succeed:
                #expect(outcome == .success(plan.index))
                #expect(winners == [true])
                expected.successes += 1
                expected.ignored += plan.callbacks - 1
            case .fail:
                #expect(outcome == .failure(plan.index))
                #expect(winners == [false])
                expected.failures += 1
                expected.ignored += plan.callbacks - 1
            case .mixed:
                #expect(winners.count == 1)
                let winnerSucceeded = winners.first == true
                #expect(outcome == (winnerSucceeded ? .success(plan.index) : .failure(plan.index)))
                if winnerSucceeded { expected.successes += 1 } else { expected.failures += 1 }
                expected.ignored += plan.callbacks - 1
            case .cancelDuringStart:
                #expect(outcome == .cancelled)
                #expect(winners.isEmpty)
                expected.cancellations += 1
                expected.ignored += plan.callbacks
            case .throwFromStart:
                #expect(outcome == .failure(plan.index))
                #expect(final.starts.contains(plan.index))
                expected.failures += 1
            case .racingCancellation, .cancellationRacingCallbacks:
                if plan.kind == .cancellationRacingCallbacks {
                    #expect(final.starts.contains(plan.index))
                }
                if outcome == .cancelled {
                    #expect(winners.isEmpty)
                    expected.cancellations += 1
                    // Callbacks were sent only if `start` ran before the cancellation; all lost.
                    expected.ignored += final.starts.contains(plan.index) ? plan.callbacks : 0
                } else {
                    #expect(outcome == .success(plan.index))
                    #expect(winners == [true])
                    expected.successes += 1
                    expected.ignored += plan.callbacks - 1
                }
            }
        }
        let outcomes = Array(final.outcomes.values)
        #expect(outcomes.filter { if case .success = $0 { true } else { false } }.count == expected.successes)
        #expect(outcomes.filter { if case .failure = $0 { true } else { false } }.count == expected.failures)
        #expect(outcomes.filter { $0 == .cancelled }.count == expected.cancellations)
        #expect(expected.successes + expected.failures + expected.cancellations == plans.count)
        #expect(final.callbacksIgnored == expected.ignored)
        #expect(bridge.ignoredCallbacks == expected.ignored)
        #expect(final.callbacksSent - final.callbacksIgnored == final.winners.values.map(\.count).reduce(0, +))

        // The fixed kinds pin the totals down (the racing tenth only moves calls between outcomes).
        let racing = plans.filter { [.racingCancellation, .cancellationRacingCallbacks].contains($0.kind) }.count
        #expect(expected.failures >= 1_600 + 800)  // fail, throwFromStart, and mixed calls won by a failure
        #expect(expected.cancellations >= 800 && expected.cancellations <= 800 + racing)

        // The bridge still works.
        #expect(try await bridge.call { $0.succeed(-1) } == -1)
    }

    @Test func underContentionTheRejectPolicyLetsOneCallInAtATime() async throws {
        let bridge = SDKBridge<Int>()
        let active = Locked((now: 0, max: 0))
        let answered = Locked(0)
        let results = await withTaskGroup(of: Result<Int, any Error>.self) { group in
            for index in 0..<2_000 {
                group.addTask {
                    await Result {
                        try await bridge.call { completion in
                            active.withLock { $0 = (now: $0.now + 1, max: max($0.max, $0.now + 1)) }
                            DispatchQueue.global().async {
                                if completion.succeed(index) { answered.withLock { $0 += 1 } }
                            }
                        } cleanup: {
                            active.withLock { $0.now -= 1 }
                        }
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let successes = results.filter { if case .success = $0 { true } else { false } }.count
        let busy = results.filter {
            if case .failure(let error) = $0 { (error as? BridgeError) == .busy } else { false }
        }.count
        #expect(successes >= 1)
        #expect(successes + busy == 2_000)
        #expect(successes == answered.current)
        #expect(active.current.max == 1)
        #expect(active.current.now == 0)
        #expect(!bridge.isBusy)
    }
}

extension Result where Failure == any Error {
    fileprivate init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
