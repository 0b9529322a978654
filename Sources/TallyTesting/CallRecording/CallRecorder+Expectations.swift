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
/// A passing expectation accounts for the calls it matched, so ``CallRecorder/expectNothingElse(fileID:filePath:line:column:)``
/// and exhaustive mode (``ExhaustiveTrait``) can fail on any call no expectation mentioned:
///
/// | expectation | accounts for |
/// |---|---|
/// | ``CallRecorder/expectCalled(_:fileID:filePath:line:column:)``, ``CallRecorder/expectCalled(_:with:_:fileID:filePath:line:column:)`` | one call, the first matching one not yet accounted for; it fails when every matching call already is |
/// | ``CallRecorder/expectCount(_:of:fileID:filePath:line:column:)`` | every call it counted |
/// | ``CallRecorder/expectCalls(inOrder:fileID:filePath:line:column:)`` | one call per entry, the ones it matched |
/// | ``CallRecorder/expectNotCalled(_:fileID:filePath:line:column:)``, ``CallRecorder/expectNothingElse(fileID:filePath:line:column:)`` | nothing |
///
/// So a call made twice where the test expects it once is left over, and fails the test. Each expectation
/// returns whether it held, which a test may ignore.
///
/// The names follow the event expectations of `AnalyticsSpy` (`expectTracked`, `expectCount(_:of:)`,
/// `expectNothingElse()`), with "called" for "tracked".
extension CallRecorder {
    /// Expects a call to `method`, with any arguments, that no other expectation accounted for.
    ///
    /// ```swift
    /// hippo.calls.expectCalled("logEvent(named:properties:)")
    /// ```
    ///
    /// Accounts for one call: the first matching call no expectation accounted for yet, and fails when
    /// every matching call already is. Expect twice to say there are two such calls, or use
    /// ``expectCount(_:of:fileID:filePath:line:column:)``. A call made twice by mistake is left over: it
    /// fails ``expectNothingElse(fileID:filePath:line:column:)``, and the test in exhaustive mode.
    ///
    /// - Returns: Whether the expectation held. If not, one issue was reported at the caller's line.
    @discardableResult
    public func expectCalled(
        _ method: String,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        expectCalled(matching: .call(method), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Expects a call to `method` with exactly these arguments that no other expectation accounted for.
    ///
    /// The expected arguments go through the same conversion as recorded ones (``Argument/init(_:)``), so
    /// literals compare with what the spy received: `["key": "value"]` matches a `[String: Any]` holding
    /// `"value"`, and `nil` matches a `nil` of any optional type.
    ///
    /// ```swift
    /// hippo.calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "value"])
    /// ```
    ///
    /// Accounts for one call, the first matching one not accounted for yet, and fails when every matching
    /// call already is, as ``expectCalled(_:fileID:filePath:line:column:)`` does.
    ///
    /// - Returns: Whether the expectation held. If not, one issue was reported at the caller's line.
    @discardableResult
    public func expectCalled(
        _ method: String,
        with first: Any?,
        _ rest: Any?...,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        let expected = ExpectedCall(method: method, arguments: ([first] + rest).map(Argument.init))
        return expectCalled(matching: expected, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// ``expectCalled(_:fileID:filePath:line:column:)`` when `expected` has no arguments, otherwise
    /// ``expectCalled(_:with:_:fileID:filePath:line:column:)``: for TallySpy, whose typed calls carry their
    /// arguments as an array.
    @discardableResult
    package func expectCalled(
        matching expected: ExpectedCall, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
    ) -> Bool {
        guard let calls = accountForFirst(expected.matches) else { return true }
        return fail(Self.unmatchedMessage(for: expected, in: calls), fileID, filePath, line, column)
    }

    /// ``expectCalled(matching:fileID:filePath:line:column:)`` for a call `predicate` also accepts: for
    /// `CallExpecting/expectCalled(_:fileID:filePath:line:column:where:)`.
    @discardableResult
    package func expectCalled(
        matching expected: ExpectedCall, where predicate: (Call) -> Bool, fileID: StaticString,
        filePath: StaticString, line: UInt, column: UInt
    ) -> Bool {
        guard let calls = accountForFirst({ expected.matches($0) && predicate($0) }) else { return true }
        return fail(Self.unmatchedMessage(for: expected, where: predicate, in: calls), fileID, filePath, line, column)
    }

    /// Expects no call to `method`, whatever its arguments: the negative test ("removing an item logs
    /// nothing").
    ///
    /// ```swift
    /// viewModel.addOrRemoveFromOrder()
    /// hippo.calls.expectNotCalled("logEvent(named:properties:)")
    /// ```
    ///
    /// - Returns: Whether the expectation held. If not, one issue was reported at the caller's line.
    @discardableResult
    public func expectNotCalled(
        _ method: String,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        expectNotCalled(matching: .call(method), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// ``expectNotCalled(_:fileID:filePath:line:column:)`` for a call with given arguments, or with any
    /// when `expected` has none: for TallySpy.
    @discardableResult
    package func expectNotCalled(
        matching expected: ExpectedCall, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
    ) -> Bool {
        guard let calls = accountForAll(expected.matches, if: { $0 == 0 }) else { return true }
        let matching = calls.indices.filter { expected.matches(calls[$0]) }
        let what = expected.arguments == nil ? expected.method : expected.description
        return fail(
            """
            Expected no call to \(what), but \(Self.count(matching.count, "was", "were")) recorded:
            \(matching.map { "  [\($0)] \(calls[$0])" }.joined(separator: "\n"))

            \(Self.listing(calls))
            """,
            fileID, filePath, line, column)
    }

    /// Expects exactly `count` calls to `method` whatever their arguments, or `count` calls in all when
    /// `method` is nil.
    ///
    /// ```swift
    /// hippo.calls.expectCount(2, of: "logEvent(named:properties:)")
    /// hippo.calls.expectCount(3)
    /// ```
    ///
    /// Accounts for every call it counted when it holds (see
    /// ``expectNothingElse(fileID:filePath:line:column:)``).
    ///
    /// - Returns: Whether the expectation held. If not, one issue was reported at the caller's line.
    @discardableResult
    public func expectCount(
        _ count: Int,
        of method: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        expectCount(
            count, matching: method.map { .call($0) }, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// ``expectCount(_:of:fileID:filePath:line:column:)`` for calls with given arguments, or with any when
    /// `expected` has none: for TallySpy.
    @discardableResult
    package func expectCount(
        _ count: Int, matching expected: ExpectedCall?, fileID: StaticString, filePath: StaticString, line: UInt,
        column: UInt
    ) -> Bool {
        let isCounted: (Call) -> Bool = { expected?.matches($0) ?? true }
        guard let calls = accountForAll(isCounted, if: { $0 == count }) else { return true }
        guard let expected else {
            return fail(
                """
                Expected \(Self.count(count, "call")), but \(Self.count(calls.count, "was", "were")) recorded.

                \(Self.listing(calls))
                """,
                fileID, filePath, line, column)
        }
        let matching = calls.indices.filter { isCounted(calls[$0]) }
        let recorded =
            matching.isEmpty
            ? "none was recorded."
            : "\(Self.count(matching.count, "was", "were")) recorded:\n"
                + matching.map { "  [\($0)] \(calls[$0])" }.joined(separator: "\n")
        let closest = matching.isEmpty ? Self.closestDifference(to: expected, in: calls) : ""
        let what = expected.arguments == nil ? expected.method : expected.description
        return fail(
            """
            Expected \(Self.count(count, "call")) to \(what), but \(recorded)

            \(Self.listing(calls))\(closest)
            """,
            fileID, filePath, line, column)
    }

    /// Expects these calls in this order; other calls may come before, between and after them.
    ///
    /// A string is a call to that method with any arguments; ``ExpectedCall/call(_:with:_:)`` fixes the
    /// arguments. Follow it with ``expectNothingElse(fileID:filePath:line:column:)`` to say these are
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
    ///
    /// - Returns: Whether the expectation held. If not, one issue was reported at the caller's line.
    @discardableResult
    package func expectCalls(
        matchingInOrder expected: [ExpectedCall],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        var missing: (position: Int, after: Int?)?
        let calls: [Call]? = state.withLock { state in
            var matched: [Int] = []
            var next = 0
            for (position, expectedCall) in expected.enumerated() {
                guard let found = state.ledger.entries[next...].firstIndex(where: expectedCall.matches) else {
                    missing = (position, matched.last)
                    return state.ledger.entries
                }
                matched.append(found)
                next = found + 1
            }
            state.ledger.accountFor(matched)
            return nil
        }
        guard let calls, let missing else { return true }
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
        return fail(
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
    /// fails on any call they did not mention, including a call made twice where it was expected once.
    /// ``expectNotCalled(_:fileID:filePath:line:column:)`` and failing expectations account for nothing.
    ///
    /// ```swift
    /// hippo.calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "value"])
    /// hippo.calls.expectNothingElse()
    /// ```
    ///
    /// - Returns: Whether the expectation held. If not, one issue was reported at the caller's line.
    @discardableResult
    package func expectNothingElseRecorded(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        let (calls, others): ([Call], [Int]) = state.withLock { state in
            (state.ledger.entries, state.ledger.unaccounted)
        }
        guard !others.isEmpty else { return true }
        return fail(
            """
            Expected no other calls, but \(Self.count(others.count, "recorded call was", "recorded calls were")) \
            not matched by an expectation:
            \(others.map { "  [\($0)] \(calls[$0])" }.joined(separator: "\n"))

            \(Self.listing(calls))
            """,
            fileID, filePath, line, column)
    }

    /// Accounts for the first call `matches` accepts that is not accounted for yet and returns nil;
    /// returns all the calls, for the failure message, when there is no such call (none matches, or every
    /// match is accounted for already).
    private func accountForFirst(_ matches: (Call) -> Bool) -> [Call]? {
        state.withLock { state in
            let calls = state.ledger.entries
            for index in calls.indices where !state.ledger.isAccountedFor(index) && matches(calls[index]) {
                state.ledger.accountFor(index)
                return nil
            }
            return calls
        }
    }

    /// Finds the calls `matches` accepts. If `passes` accepts how many there are, accounts for them all and
    /// returns nil; otherwise returns all the calls, for the failure message.
    private func accountForAll(_ matches: (Call) -> Bool, if passes: (Int) -> Bool) -> [Call]? {
        state.withLock { state in
            var matched: [Int] = []
            let calls = state.ledger.entries
            for index in calls.indices where matches(calls[index]) {
                matched.append(index)
            }
            guard passes(matched.count) else { return calls }
            state.ledger.accountFor(matched)
            return nil
        }
    }

    /// Reports `message` at the caller's location and returns false, the expectation's result.
    private func fail(
        _ message: String, _ fileID: StaticString, _ filePath: StaticString, _ line: UInt, _ column: UInt
    ) -> Bool {
        reportFailure(message, fileID: fileID, filePath: filePath, line: line, column: column)
        return false
    }
}
