import IssueReporting
import Tally
import TallyTesting

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension SpyProtocol {
    /// Waits until at least `count` recorded calls match `call` (or `count` calls in all when `call` is
    /// nil), without polling: each recorded call wakes the waiter.
    ///
    /// ```swift
    /// worker.start()                                   // calls the spy from its own thread
    /// await sdk.waitForCalls(3, of: .logEvent)
    /// sdk.expectCount(3, of: .logEvent)
    /// ```
    ///
    /// Calls recorded before the wait count too. A test of the timeout passes a `ManualClock`.
    ///
    /// - Parameters:
    ///   - count: How many matching calls to wait for.
    ///   - call: Which calls count; all of them when nil.
    ///   - timeout: How long to wait before reporting an issue; measured on `clock`.
    ///   - clock: The clock the timeout runs on.
    ///   - fileID: Where a timeout is reported; the caller's line by default.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    /// - Returns: True once there are enough; false after the timeout (an issue is then reported at the
    ///   caller's line) or when the waiting task is cancelled.
    @discardableResult
    public func waitForCalls<C: Clock<Duration>>(
        _ count: Int = 1,
        of call: Call? = nil,
        timeout: Duration = .seconds(5),
        clock: C = ContinuousClock(),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Bool {
        let recorder = _spy.recorder
        let counter = CallCounter(recorder: recorder, expected: call?.expected, wanted: count)
        let waiter = CallWaiter()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<CallWaiter.Outcome, Never>) in
                waiter.start(continuation)
                let token = recorder.watch { _ in
                    guard counter.advance() else { return false }
                    waiter.finish(.satisfied)
                    return true
                }
                waiter.onFinish { recorder.unwatch(token) }
                let timer = Task {
                    try? await clock.sleep(for: timeout)
                    if !Task.isCancelled { waiter.finish(.timedOut) }
                }
                waiter.onFinish { timer.cancel() }
            }
        } onCancel: {
            waiter.finish(.cancelled)
        }
        guard outcome == .timedOut else { return outcome == .satisfied }
        let what = call.map { "matching \($0)" } ?? "in all"
        reportIssue(
            """
            Timed out after \(timeout) waiting for \(count) call\(count == 1 ? "" : "s") \(what); \
            \(counter.matches) \(counter.matches == 1 ? "was" : "were") recorded.

            \(CallRecorder.listing(recorder.all))
            """,
            fileID: fileID, filePath: filePath, line: line, column: column)
        return false
    }
}

/// Counts matching calls incrementally, so each change looks only at the new calls.
final class CallCounter: Sendable {
    private let recorder: CallRecorder
    private let expected: CallRecorder.ExpectedCall?
    private let wanted: Int
    private let state = Locked((scanned: 0, matches: 0))

    init(recorder: CallRecorder, expected: CallRecorder.ExpectedCall?, wanted: Int) {
        self.recorder = recorder
        self.expected = expected
        self.wanted = wanted
    }

    /// Counts the calls recorded since the last look; true once there are enough.
    func advance() -> Bool {
        state.withLock { state in
            // A cleared recorder starts over.
            if recorder.count < state.scanned { state = (0, 0) }
            let fresh = recorder.calls(from: state.scanned)
            state.matches +=
                expected.map { expected in fresh.reduce(0) { $0 + (expected.matches($1) ? 1 : 0) } }
                ?? fresh.count
            state.scanned += fresh.count
            return state.matches >= wanted
        }
    }

    var matches: Int { state.withLock { $0.matches } }
}

/// Resumes one continuation exactly once, then runs what was set up for it to be torn down.
final class CallWaiter: Sendable {
    enum Outcome: Sendable {
        case satisfied, timedOut, cancelled
    }

    private struct State {
        var continuation: CheckedContinuation<Outcome, Never>?
        var finished: Outcome?
        var teardown: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())

    func start(_ continuation: CheckedContinuation<Outcome, Never>) {
        let early = state.withLock { state -> Outcome? in
            if let finished = state.finished { return finished }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(returning: early) }
    }

    /// Runs `teardown` when the wait finishes, or now if it has.
    func onFinish(_ teardown: @escaping @Sendable () -> Void) {
        let finished = state.withLock { state -> Bool in
            if state.finished != nil { return true }
            state.teardown.append(teardown)
            return false
        }
        if finished { teardown() }
    }

    func finish(_ outcome: Outcome) {
        let taken = state.withLock { state -> (CheckedContinuation<Outcome, Never>?, [@Sendable () -> Void])? in
            guard state.finished == nil else { return nil }
            state.finished = outcome
            defer {
                state.continuation = nil
                state.teardown = []
            }
            return (state.continuation, state.teardown)
        }
        guard let (continuation, teardown) = taken else { return }
        for step in teardown { step() }
        continuation?.resume(returning: outcome)
    }
}
