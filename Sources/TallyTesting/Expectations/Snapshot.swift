import Dispatch
import Foundation
import Tally

/// What an expectation looks at: the events recorded since the scope began (see
/// ``EventRecorder/expect(when:_:)-(()->Void,_)``), and which of them earlier expectations accounted for.
///
/// Taking one costs two array references, not a copy of the events, so an expectation over 100,000 events
/// spends its time comparing them.
struct Snapshot {
    let events: [Event]
    let accounted: [Bool]
    /// Each envelope's `Envelope.consent`; shorter than `events` when the rest are nil.
    let consents: [DeliveredConsent?]
    /// The log's stage, and the indices recorded at the other one.
    private let stage: Record.Stage
    private let otherStage: Set<Int>
    /// The first index in scope.
    let start: Int

    init(_ log: EventLog) {
        (events, accounted, consents, otherStage) = log.deliveredSnapshot
        stage = log.stage
        start = min(ExpectationScope.start, events.count)
    }

    var indices: Range<Int> { start..<events.count }
    var count: Int { indices.count }

    func event(at index: Int) -> Event { events[index] }
    func isAccountedFor(_ index: Int) -> Bool { index < accounted.count && accounted[index] }
    func consent(at index: Int) -> DeliveredConsent? { index < consents.count ? consents[index] : nil }
    /// Where in the event's flow the event at `index` was recorded.
    func stage(at index: Int) -> Record.Stage {
        guard otherStage.contains(index) else { return stage }
        return stage == .tracked ? .delivered : .tracked
    }

    /// Whether the event at `index` matches, with its envelope's consent when the matcher reads it.
    func matches(_ matcher: EventMatcher, at index: Int) -> Bool {
        matcher.readsConsent
            ? matcher.matches(events[index], consent: consent(at: index)) : matcher.matches(events[index])
    }

    /// The indices in scope whose event matches, in order.
    func matching(_ matcher: EventMatcher) -> [Int] {
        guard matcher.readsConsent else { return indices.filter { matcher.matches(events[$0]) } }
        return indices.filter { matches(matcher, at: $0) }
    }

    /// How failure messages of matchers that read consent name the event at `index`: the event, and the
    /// consent it was delivered with.
    func describeDelivery(_ index: Int) -> String {
        guard let consent = consent(at: index) else { return "\(events[index]), delivered with no consent recorded" }
        return "\(events[index]), delivered with consent \(consent)"
    }

    /// The first index whose event matches, and the first of those no expectation accounted for yet.
    func firstMatches(_ matcher: EventMatcher) -> (any: Int?, unaccounted: Int?) {
        let parts = inParts { range -> (any: Int?, unaccounted: Int?) in
            var found: (any: Int?, unaccounted: Int?) = (nil, nil)
            for index in range where matches(matcher, at: index) {
                if found.any == nil { found.any = index }
                if !isAccountedFor(index) {
                    found.unaccounted = index
                    break
                }
            }
            return found
        }
        return (parts.lazy.compactMap(\.any).first, parts.lazy.compactMap(\.unaccounted).first)
    }

    /// Runs `body` over the indices in scope: in one go for a few thousand events, split across the
    /// processors for large recordings (a read-only scan, so the parts cannot interfere). The results are
    /// in index order.
    private func inParts<Part: Sendable>(_ body: @escaping @Sendable (Range<Int>) -> Part) -> [Part] {
        let parts = count < 32_768 ? 1 : ProcessInfo.processInfo.activeProcessorCount
        guard parts > 1 else { return [body(indices)] }
        let bounds = (0...parts).map { indices.lowerBound + count * $0 / parts }
        let results = Locked([Part?](repeating: nil, count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let result = body(bounds[part]..<bounds[part + 1])
            results.withLock { $0[part] = result }
        }
        return results.withLock { $0.map { $0! } }  // every part wrote its slot before concurrentPerform returned
    }

    /// The events in scope with their indices, for failure messages.
    var listing: [(index: Int, event: Event)] { indices.map { ($0, events[$0]) } }
}
