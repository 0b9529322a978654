import TallyTesting

/// Expectations on a spy's calls.
///
/// They are `CallRecorder`'s expectations with typed calls: each checks the calls recorded so
/// far and, when that fails, reports exactly one issue through IssueReporting at the caller's `fileID`,
/// `filePath`, `line` and `column`, in Swift Testing and XCTest alike. The message says what was expected,
/// lists the recorded calls and shows a CustomDump diff against the closest recorded call.
///
/// A passing expectation accounts for the calls it matched, so
/// ``SpyProtocol/expectNothingElse(fileID:filePath:line:column:)`` fails on any call no expectation
/// mentioned. Each returns whether it held, which a test may ignore.
extension SpyProtocol {
    /// Expects at least one call that `call` matches: `.fetch(id: 1)` for these arguments, `.fetch` for any.
    ///
    /// ```swift
    /// users.expectCalled(.fetch(id: 1))
    /// users.expectCalled(.log)
    /// ```
    ///
    /// Accounts for one call, the first matching one no expectation accounted for yet: expect twice to say
    /// there are two such calls.
    ///
    /// - Parameters:
    ///   - call: The call expected.
    ///   - fileID: Where a failure is reported; the caller's line by default.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    /// - Returns: Whether the expectation held. If not, one issue was reported at the caller's line.
    @discardableResult
    public func expectCalled(
        _ call: Call,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        _spy.recorder.expectCalled(
            matching: call.expected, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Expects no call that `call` matches: no call to the member at all (`.fetch`), or none with these
    /// arguments (`.fetch(id: 2)`).
    ///
    /// ```swift
    /// users.expectNotCalled(.delete)
    /// ```
    ///
    /// - Parameters:
    ///   - call: The call that must not have happened.
    ///   - fileID: Where a failure is reported; the caller's line by default.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    /// - Returns: Whether the expectation held. If not, one issue was reported at the caller's line.
    @discardableResult
    public func expectNotCalled(
        _ call: Call,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        _spy.recorder.expectNotCalled(
            matching: call.expected, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Expects exactly `count` calls that `call` matches, or `count` calls in all when `call` is nil.
    ///
    /// ```swift
    /// users.expectCount(2, of: .fetch)
    /// users.expectCount(3)
    /// ```
    ///
    /// Accounts for every call it counted when it holds.
    ///
    /// - Parameters:
    ///   - count: How many calls are expected.
    ///   - call: Which calls count; all of them when nil.
    ///   - fileID: Where a failure is reported; the caller's line by default.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    /// - Returns: Whether the expectation held. If not, one issue was reported at the caller's line.
    @discardableResult
    public func expectCount(
        _ count: Int,
        of call: Call? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        _spy.recorder.expectCount(
            count, matching: call?.expected, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Expects these calls in this order; other calls may come before, between and after them.
    ///
    /// ```swift
    /// sdk.expectCalls(inOrder: [.setDelegate, .loadForm("some-id")])
    /// ```
    ///
    /// Follow it with ``expectNothingElse(fileID:filePath:line:column:)`` to say these are the only calls.
    ///
    /// - Parameters:
    ///   - calls: The calls expected, in order.
    ///   - fileID: Where a failure is reported; the caller's line by default.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    /// - Returns: Whether the expectation held. If not, one issue was reported at the caller's line.
    @discardableResult
    public func expectCalls(
        inOrder calls: [Call],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        _spy.recorder.expectCalls(
            inOrder: calls.map(\.expected), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Expects that every recorded call was accounted for by an earlier expectation on this spy.
    ///
    /// ```swift
    /// users.expectCalled(.fetch(id: 1))
    /// users.expectNothingElse()
    /// ```
    ///
    /// - Parameters:
    ///   - fileID: Where a failure is reported; the caller's line by default.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    /// - Returns: Whether the expectation held. If not, one issue was reported at the caller's line.
    @discardableResult
    public func expectNothingElse(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        _spy.recorder.expectNothingElse(fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
