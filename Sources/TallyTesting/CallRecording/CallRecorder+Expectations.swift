import IssueReporting
import Tally

/// Expectations on recorded calls.
///
/// Each one checks the calls recorded so far and, when that fails, reports exactly one issue through
/// IssueReporting at the caller's `fileID`, `filePath`, `line` and `column`: a test failure at the test's
/// own line in XCTest and in Swift Testing. The message says what was expected, lists the recorded calls
/// and, where a call was missing, shows a CustomDump diff against the closest recorded call (the same
/// method first, then the most similar arguments).
///
/// A passing expectation accounts for the calls it matched, so ``CallRecorder/expectNoOtherCalls(fileID:filePath:line:column:)``
/// can fail on any call no expectation mentioned.
extension CallRecorder {
    /// Expects at least one call to `method`, with any arguments.
    ///
    /// ```swift
    /// hippo.calls.expectCalled("logEvent(named:properties:)")
    /// ```
    ///
    /// Accounts for every call to `method` (see ``expectNoOtherCalls(fileID:filePath:line:column:)``).
    public func expectCalled(
        _ method: String,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let expected = ExpectedCall.call(method)
        guard let calls = check(expected.matches, passes: { $0 > 0 }) else { return }
        fail(
            """
            Expected a call to \(method), but it was never called.

            \(Self.listing(calls))\(Self.closestDifference(to: expected, in: calls))
            """,
            fileID, filePath, line, column)
    }

    /// Expects at least one call to `method` with exactly these arguments.
    ///
    /// The expected arguments go through the same conversion as recorded ones (``Argument/init(_:)``), so
    /// literals compare with what the spy received: `["key": "value"]` matches a `[String: Any]` holding
    /// `"value"`, and `nil` matches a `nil` of any optional type.
    ///
    /// ```swift
    /// hippo.calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "value"])
    /// ```
    ///
    /// Accounts for every matching call (see ``expectNoOtherCalls(fileID:filePath:line:column:)``).
    public func expectCalled(
        _ method: String,
        with first: Any?,
        _ rest: Any?...,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let expected = ExpectedCall(method: method, arguments: ([first] + rest).map(Argument.init))
        guard let calls = check(expected.matches, passes: { $0 > 0 }) else { return }
        fail(
            """
            No recorded call matches the expected call:
              \(expected)

            \(Self.listing(calls))\(Self.closestDifference(to: expected, in: calls))
            """,
            fileID, filePath, line, column)
    }

    /// Expects no call to `method`, whatever its arguments: the negative test ("removing an item logs
    /// nothing").
    ///
    /// ```swift
    /// viewModel.addOrRemoveFromOrder()
    /// hippo.calls.expectNotCalled("logEvent(named:properties:)")
    /// ```
    public func expectNotCalled(
        _ method: String,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        guard let calls = check({ $0.method == method }, passes: { $0 == 0 }) else { return }
        let matching = calls.indices.filter { calls[$0].method == method }
        fail(
            """
            Expected no call to \(method), but \(Self.count(matching.count, "was", "were")) recorded:
            \(matching.map { "  [\($0)] \(calls[$0])" }.joined(separator: "\n"))

            \(Self.listing(calls))
            """,
            fileID, filePath, line, column)
    }

    /// Expects exactly `expected` calls to `method`, whatever their arguments.
    ///
    /// ```swift
    /// hippo.calls.expectCallCount("logEvent(named:properties:)", equals: 2)
    /// ```
    ///
    /// Accounts for every call to `method` when it passes (see
    /// ``expectNoOtherCalls(fileID:filePath:line:column:)``).
    public func expectCallCount(
        _ method: String,
        equals expected: Int,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let isCall: (Call) -> Bool = { $0.method == method }
        guard let calls = check(isCall, passes: { $0 == expected }) else { return }
        let matching = calls.indices.filter { isCall(calls[$0]) }
        let recorded =
            matching.isEmpty
            ? "none was recorded."
            : "\(Self.count(matching.count, "was", "were")) recorded:\n"
                + matching.map { "  [\($0)] \(calls[$0])" }.joined(separator: "\n")
        let closest = matching.isEmpty ? Self.closestDifference(to: .call(method), in: calls) : ""
        fail(
            """
            Expected \(Self.count(expected, "call")) to \(method), but \(recorded)

            \(Self.listing(calls))\(closest)
            """,
            fileID, filePath, line, column)
    }

    /// Expects these calls in this order; other calls may come before, between and after them.
    ///
    /// A string is a call to that method with any arguments; ``ExpectedCall/call(_:with:_:)`` fixes the
    /// arguments. Follow it with ``expectNoOtherCalls(fileID:filePath:line:column:)`` to say these are
    /// the only calls.
    ///
    /// ```swift
    /// sdk.calls.expectCalls(inOrder: [
    ///     "setDelegate(_:)",
    ///     .call("loadFeedbackForm(_:)", with: "some-id"),
    /// ])
    /// ```
    ///
    /// Accounts for the calls it matched, the earliest ones that fit the order.
    public func expectCalls(
        inOrder expected: [ExpectedCall],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        var missing: (position: Int, after: Int?)?
        let calls: [Call]? = state.withLock { state in
            var matched: [Int] = []
            var next = 0
            for (position, expectedCall) in expected.enumerated() {
                guard let found = state.calls[next...].firstIndex(where: expectedCall.matches) else {
                    missing = (position, matched.last)
                    return state.calls
                }
                matched.append(found)
                next = found + 1
            }
            for index in matched { state.verified[index] = true }
            return nil
        }
        guard let calls, let missing else { return }
        let expectedCall = expected[missing.position]
        var headline = "Expected call \(missing.position + 1) of \(expected.count) in order"
        var explanation = ""
        if let after = missing.after {
            headline += ", but it was not recorded after [\(after)] \(calls[after]):"
            if let earlier = calls[...after].firstIndex(where: expectedCall.matches) {
                explanation = "\n\nIt was recorded before that, as [\(earlier)] \(calls[earlier])."
            }
        } else {
            headline += ", but it was never recorded:"
        }
        if explanation.isEmpty {
            let searched = Array(calls[((missing.after ?? -1) + 1)...])
            let offset = (missing.after ?? -1) + 1
            explanation = Self.closestDifference(to: expectedCall, in: searched, indexOffset: offset)
        }
        let list = expected.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
        fail(
            """
            \(headline)
              \(expectedCall)

            Expected, in order:
            \(list)

            \(Self.listing(calls))\(explanation)
            """,
            fileID, filePath, line, column)
    }

    /// Expects that every recorded call was accounted for by an earlier expectation on this recorder.
    ///
    /// The spy counterpart of "nothing else was logged": after the expectations a test cares about, it
    /// fails on any call they did not mention. ``expectNotCalled(_:fileID:filePath:line:column:)`` and
    /// failing expectations account for nothing.
    ///
    /// ```swift
    /// hippo.calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "value"])
    /// hippo.calls.expectNoOtherCalls()
    /// ```
    public func expectNoOtherCalls(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let (calls, others): ([Call], [Int]) = state.withLock { state in
            (state.calls, state.verified.indices.filter { !state.verified[$0] })
        }
        guard !others.isEmpty else { return }
        fail(
            """
            Expected no other calls, but \(Self.count(others.count, "recorded call was", "recorded calls were")) \
            not matched by an expectation:
            \(others.map { "  [\($0)] \(calls[$0])" }.joined(separator: "\n"))

            \(Self.listing(calls))
            """,
            fileID, filePath, line, column)
    }

    /// Finds the calls `matches` accepts, under the lock. If `passes` accepts how many there are, accounts
    /// for them and returns nil; otherwise returns all the calls, for the failure message.
    private func check(_ matches: (Call) -> Bool, passes: (Int) -> Bool) -> [Call]? {
        state.withLock { state in
            var matched: [Int] = []
            for index in state.calls.indices where matches(state.calls[index]) {
                matched.append(index)
            }
            guard passes(matched.count) else { return state.calls }
            for index in matched { state.verified[index] = true }
            return nil
        }
    }

    private func fail(
        _ message: String, _ fileID: StaticString, _ filePath: StaticString, _ line: UInt, _ column: UInt
    ) {
        reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
