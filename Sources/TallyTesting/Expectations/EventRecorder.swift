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
/// then fails if any recorded event was not, which catches an extra or duplicated event nobody asked for.
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
