import Foundation
import Tally

/// A stand-in for the analytics client in unit tests: it records every event the code under test tracks,
/// on the caller's thread, and offers the expectations of ``EventRecorder``.
///
/// ```swift
/// @Test func onAppearTracksTheVisit() {
///     let spy = AnalyticsSpy()
///     MenuItemDetailModel(item: .pizza, analytics: spy).onAppear()
///     spy.expectTracked(.menuItemDetailVisited(itemName: "Pizza"))
///     spy.expectNothingElse()
/// }
/// ```
///
/// The spy is a value over shared, locked storage: copies see the same recordings, and it is safe to track
/// from many threads at once. Events are recorded exactly as the app said them; nothing is sanitized or
/// processed.
///
/// ``reset()`` is the tracking protocol's identity reset: the spy counts it in ``resetCount`` rather than
/// forgetting anything. To forget what was recorded, call ``clear()``.
///
/// When the environment variable `TALLY_RECORD_DIR` names a folder, every spy of the test process also
/// appends what it records to one file there, so a test run's recordings can feed `tally coverage`. Each
/// record's `origin` is the file and line that created the spy, so `tally coverage` names the test behind
/// a failure. A spy that a test feeds events the app never tracks (a probe with made-up properties) passes
/// `writesRunRecording: false`, so that `tally validate` and `tally coverage` judge only the app's events.
public struct AnalyticsSpy: AnalyticsTracking, EventRecorder {
    private let storage: Storage

    /// The recorded events. The spy stamps each with only a time; its envelope's message id is its
    /// position, its anonymous id `spy`.
    public var log: EventLog { storage.log }

    /// Creates an empty spy.
    ///
    /// In exhaustive mode (``ExhaustiveTrait``, ``withExhaustiveCheck(_:fileID:filePath:line:column:operation:)``)
    /// the spy registers with the test's check: an event no expectation accounts for fails the test when
    /// it ends, reported at the line that created the spy.
    ///
    /// - Parameters:
    ///   - source: names the spy in run recordings (see `TALLY_RECORD_DIR`); defaults to the file that
    ///     created it.
    ///   - writesRunRecording: whether what it records goes to the run's recordings when `TALLY_RECORD_DIR`
    ///     is set. Default true.
    ///   - now: the clock for the envelopes' timestamps.
    ///   - fileID: where exhaustive mode reports the spy's unaccounted events; the caller's by default.
    ///   - filePath: see `fileID`; with `line`, also each run recording's `origin`.
    ///   - line: see `fileID`.
    ///   - column: see `fileID`.
    public init(
        source: String = #fileID, writesRunRecording: Bool = true, now: @escaping @Sendable () -> Date = { Date() },
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        storage = Storage(
            runRecording: writesRunRecording ? (source, "\(filePath):\(line)") : nil, now: now)
        registerForExhaustiveCheck(as: "AnalyticsSpy", fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Records `event`.
    public func track(_ event: Event) {
        storage.record(event)
    }

    /// Counts an identity reset.
    public func reset() {
        storage.resets.withLock { $0 += 1 }
    }

    /// The events recorded so far, in order.
    public var events: [Event] { log.events }

    /// How many times ``reset()`` was called.
    public var resetCount: Int { storage.resets.current }

    /// Forgets every recorded event and the reset count.
    public func clear() {
        log.clear()
        storage.resets.withLock { $0 = 0 }
    }

    final class Storage: Sendable {
        let log = EventLog(stampedAnonymousId: "spy", stage: .tracked)
        let resets = Locked(0)
        /// Who wrote the records in run recordings, and the file and line that created the spy; nil when
        /// it writes none.
        let runRecording: (source: String, origin: String)?
        let now: @Sendable () -> Date

        init(runRecording: (source: String, origin: String)?, now: @escaping @Sendable () -> Date) {
            self.runRecording = runRecording
            self.now = now
        }

        func record(_ event: Event) {
            let timestamp = now()
            let position = log.append(event, stampedAt: timestamp)
            if let runRecording, let run = RunRecording.shared {
                run.append(
                    log.stampedEnvelope(event, position: position, timestamp: timestamp),
                    source: runRecording.source, origin: runRecording.origin, stage: .tracked)
            }
        }
    }
}
