import Foundation
import Tally

/// Anything that records events for tests to check: ``AnalyticsSpy``, `InMemoryDestination`, and a
/// ``RecordingReader`` read back from another process. They all share one vocabulary of expectations.
///
/// Expectations report failures through IssueReporting, so they work the same in Swift Testing and
/// XCTest: one issue, at the line of the expectation, saying what was expected, what was recorded, and
/// showing a diff against the closest recorded event.
///
/// ## Accounting for every event
/// Each passing expectation marks the events it matched as accounted for. ``expectNothingElse(fileID:filePath:line:column:)``
/// then fails if any recorded event was not, and so does exhaustive mode (``ExhaustiveTrait``,
/// ``withExhaustiveCheck(_:fileID:filePath:line:column:operation:)``) when the test ends: an extra or
/// duplicated event nobody asked for fails the test.
///
/// | expectation | accounts for |
/// |---|---|
/// | ``expectTracked(_:fileID:filePath:line:column:)-(EventMatcher,_,_,_,_)``, with an event, a partial match (`.named(_:containing:)`) or a predicate (`.where`) | one event: the first match not yet accounted for; it fails when every match already is |
/// | ``expectEvents(_:fileID:filePath:line:column:)`` (exactly, in order), ``expectEvents(unordered:fileID:filePath:line:column:)`` (exactly, in any order) | every event in scope |
/// | ``expectCount(_:of:fileID:filePath:line:column:)`` | every event it counted |
/// | ``expectNotTracked(_:fileID:filePath:line:column:)-(EventMatcher,_,_,_,_)``, ``expectNoEvents(fileID:filePath:line:column:)``, ``expectNothingElse(fileID:filePath:line:column:)`` | nothing: they pass only when there is nothing to account for |
/// | ``expectAll(_:fileID:filePath:line:column:)``, `expectValid(against:)` | nothing: they are rules every event must follow, not a list of events |
/// | the scoped forms, `expectTracked(_:when:)`, `expectNotTracked(_:when:)`, `expect(when:_:)` | as the form without `when:`, among the events the action tracked |
/// | `waitForEvent(_:)`, `waitForCount(_:)` | nothing: waiting is not expecting; expect on what arrived |
public protocol EventRecorder: Sendable {
    /// The storage the expectations read.
    var log: EventLog { get }

    /// Reads what has arrived since the last read, for recordings that live outside this process. The
    /// default does nothing: in-process recordings are always current.
    func refresh() throws

    /// How often, in seconds, waiting should call ``refresh()``, or nil when appends already wake waiters.
    /// Default nil.
    var refreshInterval: TimeInterval? { get }
}

extension EventRecorder {
    public func refresh() throws {}
    public var refreshInterval: TimeInterval? { nil }

    /// The events recorded so far, in order: what the app said.
    public var recordedEvents: [Event] { log.events }
}

extension InMemoryDestination: EventRecorder {}
