import CustomDump
import IssueReporting
import Tally

/// While a scoped expectation runs its checks, only events from this index on count.
enum ExpectationScope {
    @TaskLocal static var start = 0
}

extension EventRecorder {
    /// Expects an event equal to `event` to have been recorded.
    ///
    /// ```swift
    /// model.onAppear()
    /// spy.expectTracked(.menuItemDetailVisited(itemName: "Pizza"))
    /// ```
    ///
    /// - Returns: whether the expectation held. On failure one issue is reported at the caller's line.
    @discardableResult
    public func expectTracked(
        _ event: Event, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        expectTracked(.event(event), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Expects an event matching `matcher` to have been recorded.
    ///
    /// ```swift
    /// spy.expectTracked(.named("menu_item_ordered", containing: ["item_name": "Pizza"]))
    /// ```
    ///
    /// Accounts for one event: the first matching event no expectation accounted for yet (see
    /// ``expectNothingElse(fileID:filePath:line:column:)`` and exhaustive mode, ``ExhaustiveTrait``). It
    /// fails when every matching event already is: expecting an event twice says it was tracked twice.
    @discardableResult
    public func expectTracked(
        _ matcher: EventMatcher, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Bool {
        guard !reportIfVacuous(matcher, fileID: fileID, filePath: filePath, line: line, column: column) else {
            return false
        }
        refreshOrReport(fileID: fileID, filePath: filePath, line: line, column: column)
        let snapshot = Snapshot(log)
        let found = snapshot.firstMatches(matcher)
        guard let chosen = found.unaccounted else {
            let message: String
            if found.any != nil {
                let matching = snapshot.matching(matcher)
                message =
                    "Expected \(matcher) to have been tracked once more, but \(matching.count == 1 ? "its only match was" : "all \(matching.count) matches were") accounted for by an earlier expectation:\n"
                    + matching.map { "  [\($0)] \(snapshot.event(at: $0))" }.joined(separator: "\n") + "\n\n"
                    + "Each expectTracked accounts for one event. To check an event again without counting it twice, use expectCount.\n\n"
                    + FailureReport.recordedList(snapshot.listing)
            } else {
                message = FailureReport.message(
                    "Expected \(matcher) to have been tracked, but it was not.", matcher: matcher,
                    recorded: snapshot.listing)
            }
            reportFailure(message, fileID: fileID, filePath: filePath, line: line, column: column)
            return false
        }
        log.accountFor(chosen)
        return true
    }

    /// Expects no event equal to `event` to have been recorded.
    @discardableResult
    public func expectNotTracked(
        _ event: Event, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        expectNotTracked(.event(event), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Expects no event matching `matcher` to have been recorded.
    ///
    /// ```swift
    /// model.removeFromOrder()
    /// spy.expectNotTracked(.named("menu_item_ordered"))
    /// ```
    ///
    /// Accounts for nothing: it passes only when there is nothing to account for.
    @discardableResult
    public func expectNotTracked(
        _ matcher: EventMatcher, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Bool {
        guard !reportIfVacuous(matcher, fileID: fileID, filePath: filePath, line: line, column: column) else {
            return false
        }
        refreshOrReport(fileID: fileID, filePath: filePath, line: line, column: column)
        let snapshot = Snapshot(log)
        let matching = snapshot.matching(matcher)
        guard matching.isEmpty else {
            // A matcher that reads consent names each match with the answer it was delivered with.
            let matches =
                matcher.readsConsent
                ? "Matching:\n" + matching.map { "  [\($0)] \(snapshot.describeDelivery($0))" }.joined(separator: "\n")
                    + "\n\n"
                : ""
            reportFailure(
                "Expected \(matcher) not to have been tracked, but \(matching.count) matching event\(matching.count == 1 ? " was" : "s were").\n\n"
                    + matches + FailureReport.recordedList(snapshot.listing),
                fileID: fileID, filePath: filePath, line: line, column: column)
            return false
        }
        return true
    }

    /// Expects exactly these events, in this order, and nothing else.
    ///
    /// ```swift
    /// spy.expectEvents([.screen("Login"), Event("login_tapped", ["action": "tap"])])
    /// ```
    ///
    /// Accounts for every event in scope.
    @discardableResult
    public func expectEvents(
        _ expected: [Event], fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Bool {
        refreshOrReport(fileID: fileID, filePath: filePath, line: line, column: column)
        let snapshot = Snapshot(log)
        let recorded = snapshot.indices.map(snapshot.event(at:))
        guard recorded == expected else {
            let difference =
                diff(expected, recorded).map { "\n\nDifference: (-expected +recorded)\n" + $0.indented } ?? ""
            reportFailure(
                "Expected exactly \(expected.count) event\(expected.count == 1 ? "" : "s") in order, but the recording differs.\n\n"
                    + FailureReport.recordedList(snapshot.listing) + difference,
                fileID: fileID, filePath: filePath, line: line, column: column)
            return false
        }
        log.accountFor(snapshot.indices)
        return true
    }

    /// Expects exactly these events, in any order, and nothing else. Accounts for every event in scope.
    @discardableResult
    public func expectEvents(
        unordered expected: [Event], fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Bool {
        refreshOrReport(fileID: fileID, filePath: filePath, line: line, column: column)
        let snapshot = Snapshot(log)
        var unmatched = snapshot.listing
        var missing: [Event] = []
        for event in expected {
            if let position = unmatched.firstIndex(where: { $0.1 == event }) {
                unmatched.remove(at: position)
            } else {
                missing.append(event)
            }
        }
        guard missing.isEmpty && unmatched.isEmpty else {
            var parts = [
                "Expected exactly \(expected.count) event\(expected.count == 1 ? "" : "s") in any order, but the recording differs."
            ]
            if !missing.isEmpty {
                parts.append("Missing (\(missing.count)):\n" + missing.map { "  \($0)" }.joined(separator: "\n"))
            }
            if !unmatched.isEmpty {
                parts.append(
                    "Unexpected (\(unmatched.count)):\n"
                        + unmatched.map { "  [\($0.0)] \($0.1)" }.joined(separator: "\n"))
            }
            parts.append(FailureReport.recordedList(snapshot.listing))
            reportFailure(
                parts.joined(separator: "\n\n"), fileID: fileID, filePath: filePath, line: line, column: column)
            return false
        }
        log.accountFor(snapshot.indices)
        return true
    }

    /// Expects `count` recorded events to match `matcher` (all events when it is omitted).
    ///
    /// The seed's occurrence checks, for example, read:
    /// ```swift
    /// recording.expectCount(3)                                            // verify(count: 3)
    /// recording.expectCount(1, of: .kind(.screen))                        // verify(type:)
    /// recording.expectCount(1, of: .named("Login"))                       // verify(id:)
    /// recording.expectCount(2, of: .containing(["action": "tap"]))        // verify(data:)
    /// recording.expectCount(1, of: .named("login", containing: ["action": "tap"]))  // verify(idAndData:)
    /// ```
    ///
    /// Accounts for every event it counted, so `expectCount(1, of:)` is also how to say "exactly once"
    /// without exhaustive mode.
    @discardableResult
    public func expectCount(
        _ count: Int, of matcher: EventMatcher = .any, fileID: StaticString = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Bool {
        guard !reportIfVacuous(matcher, fileID: fileID, filePath: filePath, line: line, column: column) else {
            return false
        }
        refreshOrReport(fileID: fileID, filePath: filePath, line: line, column: column)
        let snapshot = Snapshot(log)
        let matching = snapshot.matching(matcher)
        guard matching.count == count else {
            reportFailure(
                "Expected \(count) event\(count == 1 ? "" : "s") matching \(matcher), but \(matching.count) \(matching.count == 1 ? "was" : "were") recorded.\n\n"
                    + FailureReport.recordedList(snapshot.listing),
                fileID: fileID, filePath: filePath, line: line, column: column)
            return false
        }
        log.accountFor(matching)
        return true
    }

    /// Expects every recorded event to match `matcher`, such as a rule every event must follow.
    ///
    /// ```swift
    /// spy.expectAll(.where("snake_case names") { $0.name.allSatisfy { $0.isLowercase || $0 == "_" } })
    /// ```
    ///
    /// Accounts for nothing: a rule says how events look, not which ones there are.
    @discardableResult
    public func expectAll(
        _ matcher: EventMatcher, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Bool {
        guard !reportIfVacuous(matcher, fileID: fileID, filePath: filePath, line: line, column: column) else {
            return false
        }
        refreshOrReport(fileID: fileID, filePath: filePath, line: line, column: column)
        let snapshot = Snapshot(log)
        let failing = snapshot.indices.filter { !snapshot.matches(matcher, at: $0) }
        guard failing.isEmpty else {
            reportFailure(
                "Expected every event to match \(matcher), but \(failing.count) did not:\n"
                    + failing.map { "  [\($0)] \(snapshot.event(at: $0))" }.joined(separator: "\n"),
                fileID: fileID, filePath: filePath, line: line, column: column)
            return false
        }
        return true
    }

    /// Expects every recorded event to have been accounted for by an earlier expectation.
    ///
    /// ```swift
    /// model.onAppear()
    /// spy.expectTracked(.menuItemDetailVisited(itemName: "Pizza"))
    /// spy.expectNothingElse()   // fails if onAppear also tracked something else, or twice
    /// ```
    ///
    /// In exhaustive mode (``ExhaustiveTrait``) the test does this by itself when it ends; the line is then
    /// only needed to check at a given point, such as inside ``expect(when:_:)-(()->Void,_)``.
    @discardableResult
    public func expectNothingElse(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        refreshOrReport(fileID: fileID, filePath: filePath, line: line, column: column)
        let snapshot = Snapshot(log)
        let unaccounted = snapshot.indices.filter { !snapshot.isAccountedFor($0) }
        guard unaccounted.isEmpty else {
            reportFailure(
                "Expected nothing else to have been tracked, but \(unaccounted.count) event\(unaccounted.count == 1 ? " was" : "s were") not accounted for by an expectation:\n"
                    + unaccounted.map { "  [\($0)] \(snapshot.event(at: $0))" }.joined(separator: "\n") + "\n\n"
                    + FailureReport.recordedList(snapshot.listing),
                fileID: fileID, filePath: filePath, line: line, column: column)
            return false
        }
        return true
    }

    /// Expects nothing at all to have been recorded. Accounts for nothing.
    @discardableResult
    public func expectNoEvents(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) -> Bool {
        expectCount(0, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Reports a matcher that matches nothing by mistake (``EventMatcher/sentWithoutConsent(for:)`` given no
    /// purpose) as an issue at the expectation's line, and returns whether it did: the expectation then
    /// fails rather than pass, or fail, for a reason that is not about the recording.
    func reportIfVacuous(
        _ matcher: EventMatcher, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
    ) -> Bool {
        guard let vacuity = matcher.vacuity else { return false }
        reportFailure(vacuity, fileID: fileID, filePath: filePath, line: line, column: column)
        return true
    }

    /// Reads outside recordings; a read error is reported as an issue at the expectation's line.
    func refreshOrReport(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
        do {
            try refresh()
        } catch {
            reportFailure(
                "Could not read the recording: \(error)", fileID: fileID, filePath: filePath, line: line, column: column
            )
        }
    }
}
