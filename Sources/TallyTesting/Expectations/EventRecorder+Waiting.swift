import Foundation
import IssueReporting
import Tally

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension EventRecorder {
    /// Waits until an event matching `matcher` is recorded, without polling: the recording wakes the
    /// waiter when the event arrives.
    ///
    /// ```swift
    /// analytics.track("checkout_started")          // delivered on another thread
    /// await memory.waitForEvent(.named("checkout_started"))
    /// ```
    ///
    /// Recordings read from another process are re-read every ``refreshInterval`` while waiting.
    ///
    /// Waiting accounts for nothing (see ``EventRecorder``): in exhaustive mode, expect on what arrived.
    ///
    /// - Parameters:
    ///   - matcher: the event to wait for.
    ///   - timeout: how long to wait before reporting an issue; measured on `clock`.
    ///   - clock: the clock the timeout runs on; tests of timeouts pass a `ManualClock`.
    ///   - fileID: where a timeout is reported; defaults to the caller's location.
    ///   - filePath: see `fileID`.
    ///   - line: see `fileID`.
    ///   - column: see `fileID`.
    /// - Returns: the first matching event, or nil after the timeout (an issue is then reported at the
    ///   caller's line) or when the waiting task is cancelled.
    @discardableResult
    public func waitForEvent<C: Clock<Duration>>(
        _ matcher: EventMatcher, timeout: Duration = .seconds(5), clock: C = ContinuousClock(),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async -> Event? {
        guard !reportIfVacuous(matcher, fileID: fileID, filePath: filePath, line: line, column: column) else {
            return nil
        }
        let scan = Scan(matcher: matcher, wanted: 1)
        let found = await waitUntil(timeout: timeout, clock: clock) { scan.advance(over: $0) }
        if let event = scan.firstMatch { return event }
        if found == .timedOut {
            refreshOrReport(fileID: fileID, filePath: filePath, line: line, column: column)
            reportFailure(
                FailureReport.message(
                    "Timed out after \(timeout) waiting for \(matcher).", matcher: matcher,
                    recorded: Snapshot(log).listing),
                fileID: fileID, filePath: filePath, line: line, column: column)
        }
        return nil
    }

    /// Waits until at least `count` recorded events match `matcher` (all events when omitted), without
    /// polling.
    ///
    /// ```swift
    /// await recording.waitForCount(3, timeout: .seconds(10))   // the app has tracked 3 events
    /// ```
    ///
    /// Waiting accounts for nothing: in exhaustive mode, expect on what arrived.
    ///
    /// - Parameters:
    ///   - count: how many matching events to wait for.
    ///   - matcher: which events count; all of them when omitted.
    ///   - timeout: how long to wait before reporting an issue; measured on `clock`.
    ///   - clock: the clock the timeout runs on.
    ///   - fileID: where a timeout is reported; defaults to the caller's location.
    ///   - filePath: see `fileID`.
    ///   - line: see `fileID`.
    ///   - column: see `fileID`.
    /// - Returns: true once there are enough; false after the timeout (an issue is then reported at the
    ///   caller's line) or when the waiting task is cancelled.
    @discardableResult
    public func waitForCount<C: Clock<Duration>>(
        _ count: Int, of matcher: EventMatcher = .any, timeout: Duration = .seconds(5), clock: C = ContinuousClock(),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async -> Bool {
        guard !reportIfVacuous(matcher, fileID: fileID, filePath: filePath, line: line, column: column) else {
            return false
        }
        let scan = Scan(matcher: matcher, wanted: count)
        let outcome = await waitUntil(timeout: timeout, clock: clock) { scan.advance(over: $0) }
        guard outcome == .timedOut else { return outcome == .satisfied }
        refreshOrReport(fileID: fileID, filePath: filePath, line: line, column: column)
        reportFailure(
            "Timed out after \(timeout) waiting for \(count) event\(count == 1 ? "" : "s") matching \(matcher); \(scan.matches) matched.\n\n"
                + FailureReport.recordedList(Snapshot(log).listing),
            fileID: fileID, filePath: filePath, line: line, column: column)
        return false
    }

    /// Suspends until `satisfied` returns true for the log (called after each change), the timeout passes,
    /// or the task is cancelled.
    func waitUntil<C: Clock<Duration>>(
        timeout: Duration, clock: C, satisfied: @escaping @Sendable (EventLog) -> Bool
    ) async -> WaitOutcome {
        let waiter = Waiter()
        let log = self.log
        let refreshInterval = self.refreshInterval
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<WaitOutcome, Never>) in
                waiter.start(continuation)
                waiter.watch(log) { _ in
                    guard satisfied(log) else { return false }
                    waiter.finish(.satisfied)
                    return true
                }
                waiter.addTask(
                    Task {
                        try? await clock.sleep(for: timeout)
                        if !Task.isCancelled { waiter.finish(.timedOut) }
                    })
                if let refreshInterval {
                    waiter.addTask(
                        Task {
                            while !Task.isCancelled {
                                try? self.refresh()
                                try? await clock.sleep(for: .milliseconds(Int(refreshInterval * 1000)))
                            }
                        })
                }
            }
        } onCancel: {
            waiter.finish(.cancelled)
        }
    }
}

enum WaitOutcome: Sendable {
    case satisfied, timedOut, cancelled
}

/// Counts matches incrementally, so each change looks only at the new events.
final class Scan: Sendable {
    private let matcher: EventMatcher
    private let wanted: Int
    private let state = Locked((scanned: 0, matches: 0, first: Event?.none))

    init(matcher: EventMatcher, wanted: Int) {
        self.matcher = matcher
        self.wanted = wanted
    }

    func advance(over log: EventLog) -> Bool {
        state.withLock { state in
            // A cleared log starts over.
            if log.count < state.scanned { state = (0, 0, nil) }
            if matcher.readsConsent {
                let fresh = log.eventsAndConsents(from: state.scanned)
                for (event, consent) in fresh where matcher.matches(event, consent: consent) {
                    state.matches += 1
                    if state.first == nil { state.first = event }
                }
                state.scanned += fresh.count
                return state.matches >= wanted
            }
            let fresh = log.events(from: state.scanned)
            for event in fresh where matcher.matches(event) {
                state.matches += 1
                if state.first == nil { state.first = event }
            }
            state.scanned += fresh.count
            return state.matches >= wanted
        }
    }

    var matches: Int { state.withLock { $0.matches } }
    var firstMatch: Event? { state.withLock { $0.first } }
}

/// Resumes one continuation exactly once and tears down what was set up for it.
final class Waiter: Sendable {
    private struct State {
        var continuation: CheckedContinuation<WaitOutcome, Never>?
        var finished: WaitOutcome?
        var tasks: [Task<Void, Never>] = []
        var watch: (EventLog, UInt64)?
    }

    private let state = Locked(State())

    func start(_ continuation: CheckedContinuation<WaitOutcome, Never>) {
        let early = state.withLock { state -> WaitOutcome? in
            if let finished = state.finished { return finished }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(returning: early) }
    }

    func watch(_ log: EventLog, _ watcher: @escaping @Sendable (Int) -> Bool) {
        let token = log.watch(watcher)
        let alreadyDone = state.withLock { state -> Bool in
            if state.finished != nil { return true }
            state.watch = (log, token)
            return false
        }
        if alreadyDone { log.unwatch(token) }
    }

    func addTask(_ task: Task<Void, Never>) {
        let alreadyDone = state.withLock { state -> Bool in
            if state.finished != nil { return true }
            state.tasks.append(task)
            return false
        }
        if alreadyDone { task.cancel() }
    }

    func finish(_ outcome: WaitOutcome) {
        let (continuation, tasks, watch) = state.withLock { state in
            guard state.finished == nil else {
                return (CheckedContinuation<WaitOutcome, Never>?.none, [Task<Void, Never>](), (EventLog, UInt64)?.none)
            }
            state.finished = outcome
            defer {
                state.continuation = nil
                state.tasks = []
                state.watch = nil
            }
            return (state.continuation, state.tasks, state.watch)
        }
        for task in tasks { task.cancel() }
        if let (log, token) = watch { log.unwatch(token) }
        continuation?.resume(returning: outcome)
    }
}
