/// A call a test can expect, as a recorder matches it: a method, with given arguments or with any.
///
/// ``CallRecorder/ExpectedCall`` is one (`"logEvent(named:properties:)"`,
/// `.call("logEvent(named:properties:)", with: "test", nil)`), and so is every call type `@Spy` generates
/// (`.fetch(id: 1)`, `.fetch`).
public protocol ExpectableCall: Sendable, CustomStringConvertible {
    /// The call as the recorder matches it: the member's recorded name, and its arguments or nil for any.
    var expected: CallRecorder.ExpectedCall { get }
}

extension CallRecorder.ExpectedCall: ExpectableCall {
    /// The call itself.
    public var expected: CallRecorder.ExpectedCall { self }
}

/// Anything that records calls on a ``CallRecorder`` and spells them with a call type of its own: it gets
/// the recorder's expectations, written once, for that type.
///
/// ``CallRecorder`` adopts it with ``CallRecorder/ExpectedCall`` (method names and arguments), and every
/// spy `@Spy` generates adopts it with its typed `Call`:
///
/// ```swift
/// hippo.calls.expectCalls(inOrder: ["setDelegate(_:)", .call("loadFeedbackForm(_:)", with: "some-id")])
/// users.expectCalled(.fetch(id: 1))
/// users.expectNothingElse()
/// ```
///
/// Each expectation checks the calls recorded so far and, when that fails, reports exactly one issue
/// through IssueReporting at the caller's `fileID`, `filePath`, `line` and `column`, in Swift Testing and
/// XCTest alike. The message says what was expected, lists the recorded calls and shows a CustomDump diff
/// against the closest recorded call.
///
/// A passing expectation accounts for the calls it matched, so
/// ``expectNothingElse(fileID:filePath:line:column:)`` and exhaustive mode fail on any call no expectation
/// mentioned. Each returns whether it held, which a test may ignore.
///
/// To adopt it, name the call type and return the recorder that holds the calls.
public protocol CallExpecting: Sendable {
    /// How a test spells a call: ``CallRecorder/ExpectedCall`` for a recorder, `Call` for a generated spy.
    associatedtype ExpectedCall: ExpectableCall

    /// The recorder that holds the calls the expectations check.
    var recorder: CallRecorder { get }
}

extension CallExpecting {
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
        _ call: ExpectedCall,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        recorder.expectCalled(matching: call.expected, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Expects a call that `call` matches and `predicate` accepts: an argument matcher, for what an exact
    /// value cannot say (a range, a prefix, one field of a model).
    ///
    /// ```swift
    /// users.expectCalled(.fetch) { $0.arguments[0].value?.intValue ?? 0 > 100 }
    /// tracker.expectCalled(.track) { call in
    ///     call.arguments[0].value?.stringValue?.hasPrefix("checkout_") == true
    /// }
    /// ```
    ///
    /// The predicate sees each call as recorded (``CallRecorder/Call``): its ``CallRecorder/Call/arguments``
    /// converted when the call was made, and ``CallRecorder/Call/written`` for `inout` parameters. Accounts
    /// for one call, the first that matches and that no expectation accounted for yet.
    ///
    /// - Parameters:
    ///   - call: The member, with any arguments (`.fetch`) or these (`.fetch(id: 1)`).
    ///   - fileID: Where a failure is reported; the caller's line by default.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    ///   - predicate: Whether a recorded call is the one expected.
    /// - Returns: Whether the expectation held. If not, one issue was reported at the caller's line.
    @discardableResult
    public func expectCalled(
        _ call: ExpectedCall,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        where predicate: (CallRecorder.Call) -> Bool
    ) -> Bool {
        recorder.expectCalled(
            matching: call.expected, where: predicate, fileID: fileID, filePath: filePath, line: line,
            column: column)
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
        _ call: ExpectedCall,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        recorder.expectNotCalled(
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
        of call: ExpectedCall? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        recorder.expectCount(
            count, matching: call?.expected, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Expects these calls in this order; other calls may come before, between and after them.
    ///
    /// ```swift
    /// sdk.expectCalls(inOrder: [.setDelegate, .loadForm("some-id")])
    /// hippo.calls.expectCalls(inOrder: ["setDelegate(_:)", .call("loadFeedbackForm(_:)", with: "some-id")])
    /// ```
    ///
    /// Accounts for the calls it matched, the earliest ones that fit the order. Follow it with
    /// ``expectNothingElse(fileID:filePath:line:column:)`` to say these are the only calls.
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
        inOrder calls: [ExpectedCall],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        recorder.expectCalls(
            matchingInOrder: calls.map(\.expected), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Expects that every recorded call was accounted for by an earlier expectation.
    ///
    /// The spy counterpart of "nothing else was logged": after the expectations a test cares about, it
    /// fails on any call they did not mention, including a call made twice where it was expected once.
    /// ``expectNotCalled(_:fileID:filePath:line:column:)`` and failing expectations account for nothing.
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
        recorder.expectNothingElseRecorded(fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
