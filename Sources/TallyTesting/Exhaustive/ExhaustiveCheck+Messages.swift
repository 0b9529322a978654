import Tally

/// The text of the issues exhaustive mode reports.
extension ExhaustiveCheck.Entry {
    /// At most this many unaccounted events or calls are named one by one; the rest are counted.
    static let namedLimit = 20

    /// The issue to report for this recorder, or nil when everything it recorded was accounted for (or it
    /// opted out).
    ///
    /// - Parameter readFailure: why the final read of a recorder that reads asynchronously failed, or
    ///   could not happen; nil when it read (or has nothing to read asynchronously).
    func unaccountedMessage(readFailure: String? = nil) -> String? {
        switch subject {
        case .events(let recorder, let kind):
            return Self.message(for: recorder, kind: kind, createdAt: place, readFailure: readFailure)
        case .calls(let recorder): return Self.message(for: recorder, createdAt: place)
        }
    }

    static func message(
        for recorder: some EventRecorder, kind: String, createdAt place: SourcePlace, readFailure: String?
    ) -> String? {
        guard recorder.isExhaustive else { return nil }
        let cannotRead = "Exhaustive mode could not read what the \(kind) created at \(place.description) recorded"
        if let readFailure { return "\(cannotRead): \(readFailure)" }
        do {
            try recorder.refresh()
        } catch {
            return "\(cannotRead): \(error)"
        }
        let (events, accounted) = recorder.log.snapshot
        let unaccounted = events.indices.filter { $0 >= accounted.count || !accounted[$0] }
        guard !unaccounted.isEmpty else { return nil }
        let listing = events.indices.map { (index: $0, event: events[$0]) }
        return """
            \(headline(unaccounted.count, "event", kind: kind, place: place))
            \(named(unaccounted) { "[\($0)] \(events[$0])" })

            \(FailureReport.recordedList(listing))

            \(advice(kind: kind, expectations: "expectTracked, expectCount, expectEvents"))
            """
    }

    static func message(for recorder: CallRecorder, createdAt place: SourcePlace) -> String? {
        guard recorder.isExhaustive else { return nil }
        let (calls, unaccounted) = recorder.state.withLock { ($0.ledger.entries, $0.ledger.unaccounted) }
        guard !unaccounted.isEmpty else { return nil }
        let kind = recorder.name
        return """
            \(headline(unaccounted.count, "call", kind: kind, place: place))
            \(named(unaccounted) { "[\($0)] \(calls[$0])" })

            \(CallRecorder.listing(calls))

            \(advice(kind: kind, expectations: "expectCalled, expectCount, expectCalls(inOrder:)"))
            """
    }

    /// `Exhaustive mode: 2 events recorded by the AnalyticsSpy created at Tests/LoginTests.swift:12 were not
    /// accounted for by any expectation:`
    private static func headline(_ count: Int, _ noun: String, kind: String, place: SourcePlace) -> String {
        let counted = count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
        return "Exhaustive mode: \(counted) recorded by the \(kind) created at \(place.description) "
            + "\(count == 1 ? "was" : "were") not accounted for by any expectation:"
    }

    /// One indented line per index, up to ``namedLimit``.
    private static func named(_ indices: [Int], _ line: (Int) -> String) -> String {
        var lines = indices.prefix(namedLimit).map { "  " + line($0) }
        if indices.count > namedLimit { lines.append("  … and \(indices.count - namedLimit) more") }
        return lines.joined(separator: "\n")
    }

    private static func advice(kind: String, expectations: String) -> String {
        """
        Expect each of them (\(expectations): each accounts for what it matched), or opt out: \
        `isExhaustive = false` on this \(kind), `.exhaustive(false)` or `withExhaustiveCheck(false)` for the test.
        """
    }
}
