import Foundation

/// Turns the errors Segment's SDK reports into problems of the client that delivers through a
/// ``SegmentDestination``, so that a batch Segment's API refused, which the SDK deletes, is not lost without
/// a word.
///
/// Segment's SDK (`analytics-swift`) uploads events later, in batches, on its own queue, and says what went
/// wrong only to the `errorHandler` of its configuration. Make one reporter, give the SDK a closure that
/// calls ``report(_:)``, and give the reporter to the destination:
///
/// ```swift
/// let errors = SegmentErrorReporter()
/// let segment = Analytics(
///     configuration: Configuration(writeKey: key)
///         .errorHandler { @Sendable error in errors.report(error) })
/// let destination = Tally.SegmentDestination(adapter: segment, errors: errors)
/// ```
///
/// Mark the closure `@Sendable`, as every closure handed to the SDK (`requestFactory`, the completion of
/// `flush`): the SDK calls it on its own queue, and under Swift 6 a closure written in a main-actor context
/// (a SwiftUI `App`, a view controller) is otherwise checked to run on the main actor, which stops the app.
///
/// | the SDK's error | problem (``Problem/Code/destinationFailed``, destination's name) |
/// |---|---|
/// | `networkServerRejected(url, code)`, alone or inside `batchUploadFail` (a 4xx answer other than 429, or a batch retried too long: the SDK deletes the batch) | outcome ``Problem/Outcome/dropped``; the message gives the status and the events handed to the SDK since the previous refused batch, the last 20 by name |
/// | any other (`networkServerLimited`, `networkUnknown`, `settingsFail`, storage errors…) | outcome ``Problem/Outcome/reported``, with the error's description |
///
/// The SDK does not say which events a refused batch held, only that it deleted one; it uploads in the
/// order it was given events, so the batch is among those handed over since the previous refused batch,
/// which the problem lists. For that reason these events are not counted in the destination's statistics as
/// dropped: their number is not known. An error that arrives before the destination has received any event
/// (a settings download that failed at launch) is reported with the first event; at most 16 wait.
///
/// The reporter recognises the SDK's errors by the names of their cases (`AnalyticsError` in
/// analytics-swift 1.x); an error of any other shape is still reported, as "any other".
public final class SegmentErrorReporter: Sendable {
    private struct State {
        var context: DestinationContext?
        /// The names of the events handed over since the last refused batch, the newest last.
        var recent: [String] = []
        /// How many events were handed over since the last refused batch.
        var handedOver: Int64 = 0
        /// Problems waiting for the first event's context.
        var waiting: [Problem] = []
        var waitingDropped = 0
    }

    /// How many event names a refused batch's problem lists.
    static let namesListed = 20
    /// How many problems wait for the first event.
    static let maximumWaiting = 16

    private let state = Locked(State())

    /// Creates a reporter; give it to a ``SegmentDestination`` and its ``report(_:)`` to the SDK.
    public init() {}

    /// Reports an error of Segment's SDK: call it from the SDK's `errorHandler`. Safe from any thread.
    public func report(_ error: any Error) {
        let status = Self.rejectedStatus(in: error)
        let delivery: (context: DestinationContext, problem: Problem)? = state.withLock { state in
            let problem = Self.problem(for: error, status: status, since: state.recent, count: state.handedOver)
            if status != nil {
                state.recent.removeAll()
                state.handedOver = 0
            }
            guard let context = state.context else {
                if state.waiting.count < Self.maximumWaiting {
                    state.waiting.append(problem)
                } else {
                    state.waitingDropped += 1
                }
                return nil
            }
            return (context, problem)
        }
        if let delivery { delivery.context.report(delivery.problem) }
    }

    /// Notes that `eventName` was handed to the SDK, and hands problems that waited for a context to it.
    func handedOver(_ eventName: String, context: DestinationContext) {
        let waiting: [Problem] = state.withLock { state in
            state.context = context
            state.handedOver += 1
            state.recent.append(eventName)
            if state.recent.count > Self.namesListed { state.recent.removeFirst(state.recent.count - Self.namesListed) }
            var waiting = state.waiting
            if state.waitingDropped > 0 {
                waiting.append(
                    Problem(
                        .destinationFailed,
                        "Segment's SDK reported \(state.waitingDropped) more errors before the first event; they were not kept",
                        outcome: .reported))
            }
            state.waiting.removeAll()
            state.waitingDropped = 0
            return waiting
        }
        waiting.forEach(context.report)
    }

    /// The problem for `error`, whose refused batch's `status` is nil when it is no refused batch, given the
    /// `count` events handed over since the last refused batch and the names of the last of them.
    private static func problem(for error: any Error, status: Int?, since names: [String], count: Int64) -> Problem {
        guard let status else {
            return Problem(.destinationFailed, "Segment's SDK reported an error: \(error)", outcome: .reported)
        }
        let answer = status == 0 ? "after retrying it too long" : "with HTTP \(status)"
        let events =
            count == 0
            ? "no event was handed to the SDK since the previous one"
            : "it held some of the \(count) event\(count == 1 ? "" : "s") handed to the SDK since the previous one\(count > Int64(names.count) ? ", the last \(names.count)" : ""): \(names.joined(separator: ", "))"
        return Problem(
            .destinationFailed, "Segment's API refused a batch \(answer), and Segment's SDK deleted it; \(events)",
            outcome: .dropped)
    }

    /// The HTTP status of a refused batch (`networkServerRejected(url, code)`, possibly wrapped in another
    /// case such as `batchUploadFail`), or nil when `error` is not one.
    static func rejectedStatus(in error: any Error) -> Int? {
        rejectedStatus(in: Mirror(reflecting: error), depth: 0)
    }

    private static func rejectedStatus(in mirror: Mirror, depth: Int) -> Int? {
        guard depth < 4, mirror.displayStyle == .enum, let child = mirror.children.first else { return nil }
        if child.label == "networkServerRejected" {
            return Mirror(reflecting: child.value).children.lazy.compactMap { $0.value as? Int }.first ?? 0
        }
        return rejectedStatus(in: Mirror(reflecting: child.value), depth: depth + 1)
    }
}
