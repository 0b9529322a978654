import Foundation
import Tally

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension CollectorReader {
    /// Waits until the collector stores an event of this session matching `matcher`, without polling:
    /// a long-poll on the collector is answered when the insert commits.
    ///
    /// ```swift
    /// app.buttons["Log in"].tap()
    /// await events.waitForEvent(.named("login_tapped"))
    /// ```
    ///
    /// - Parameters:
    ///   - matcher: the event to wait for.
    ///   - timeout: how long to wait before reporting an issue; measured on `clock`.
    ///   - clock: the clock the timeout runs on.
    ///   - fileID: where a timeout is reported; defaults to the caller's location.
    ///   - filePath: see `fileID`.
    ///   - line: see `fileID`.
    ///   - column: see `fileID`.
    /// - Returns: the first matching event, or nil after the timeout (an issue is then reported at the
    ///   caller's line, with a collector that cannot be reached named as the reason) or when the waiting
    ///   task is cancelled.
    @discardableResult
    public func waitForEvent<C: Clock<Duration>>(
        _ matcher: EventMatcher, timeout: Duration = .seconds(5), clock: C = ContinuousClock(),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async -> Event? {
        // One read first, so that what the collector already holds is listed if the wait times out.
        try? await refresh()
        let following = Task { await follow(timeout: timeout) }
        defer { following.cancel() }
        let recorder: any EventRecorder = self
        return await recorder.waitForEvent(
            matcher, timeout: timeout, clock: clock, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Waits until the collector stores at least `count` events of this session matching `matcher` (all
    /// events when omitted), without polling.
    ///
    /// ```swift
    /// await events.waitForCount(3, of: .kind(.track), timeout: .seconds(10))
    /// ```
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
        // One read first, so that what the collector already holds is listed if the wait times out.
        try? await refresh()
        let following = Task { await follow(timeout: timeout) }
        defer { following.cancel() }
        let recorder: any EventRecorder = self
        return await recorder.waitForCount(
            count, of: matcher, timeout: timeout, clock: clock, fileID: fileID, filePath: filePath, line: line,
            column: column)
    }
}
