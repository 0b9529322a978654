import Tally

/// What an expectation looks at: the events recorded since the scope began (see
/// ``EventRecording/expect(when:_:)-(()->Void,_)``), and which of them earlier expectations accounted for.
///
/// Taking one costs two array references, not a copy of the events, so an expectation over 100,000 events
/// spends its time comparing them.
struct Snapshot {
    let envelopes: [Envelope]
    let claimed: [Bool]
    /// The first index in scope.
    let start: Int

    init(_ log: EventLog) {
        (envelopes, claimed) = log.snapshot
        start = min(ExpectationScope.start, envelopes.count)
    }

    var indices: Range<Int> { start..<envelopes.count }
    var count: Int { indices.count }

    func event(at index: Int) -> Event { envelopes[index].event }
    func isClaimed(_ index: Int) -> Bool { index < claimed.count && claimed[index] }

    /// The indices in scope whose event matches.
    func matching(_ matcher: EventMatcher) -> [Int] {
        indices.filter { matcher.matches(envelopes[$0].event) }
    }

    /// The events in scope with their indices, for failure messages.
    var listing: [(index: Int, event: Event)] { indices.map { ($0, envelopes[$0].event) } }
}
