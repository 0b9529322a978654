import Tally

/// Keeps every event it receives, in order, for tests and tools to read.
///
/// ```swift
/// let memory = InMemoryDestination()
/// let analytics = AnalyticsClient(destinations: [memory])
/// analytics.track("menu_item_ordered", ["item_name": "Pizza"])
/// await analytics.flush()
/// #expect(memory.events == [Event("menu_item_ordered", ["item_name": "Pizza"])])
/// ```
///
/// It is a reference type: every copy and every client it is given to share the same ``log``. It is safe
/// to read from any thread while the client delivers. TallyTesting's expectations work on it directly
/// (`memory.expectTracked(...)`).
///
/// When the environment variable `TALLY_RECORD_DIR` names a folder, it also appends what it receives to
/// the test process's file there, as a spy does: each record as delivered (after the client's processors
/// and consent gate, with the consent it was delivered with), its `origin` the file and line that created
/// the destination. A destination that a test feeds events the app never sends (a probe of the client's
/// rules with made-up properties) passes `writesRunRecording: false`, so that `tally validate` and
/// `tally coverage` on the run's recordings judge only what the app tracks.
public final class InMemoryDestination: Destination {
    public let name: String
    /// The received envelopes.
    public let log = EventLog()
    private let counters = Locked((flushes: 0, resets: 0))
    /// Who wrote the records in run recordings (`TALLY_RECORD_DIR`), and the line that created it; nil
    /// when it writes none.
    private let runRecording: (source: String, origin: String)?

    /// Creates an empty destination.
    ///
    /// In exhaustive mode (``ExhaustiveTrait``, ``withExhaustiveCheck(_:fileID:filePath:line:column:operation:)``)
    /// it registers with the test's check:
    /// an event it received that no expectation accounts for fails the test when it ends, reported at the
    /// line that created it.
    ///
    /// - Parameters:
    ///   - name: the destination's name. Default `memory`.
    ///   - source: names the destination in run recordings (see `TALLY_RECORD_DIR`); defaults to the file
    ///     that created it.
    ///   - writesRunRecording: whether what it receives goes to the run's recordings when `TALLY_RECORD_DIR`
    ///     is set. Default true.
    ///   - fileID: where exhaustive mode reports unaccounted events; the caller's by default.
    ///   - filePath: see `fileID`; with `line`, also each run recording's `origin`.
    ///   - line: see `fileID`.
    ///   - column: see `fileID`.
    public init(
        name: String = "memory", source: String = #fileID, writesRunRecording: Bool = true,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        self.name = name
        self.runRecording = writesRunRecording ? (source, "\(filePath):\(line)") : nil
        registerForExhaustiveCheck(
            as: "InMemoryDestination", fileID: fileID, filePath: filePath, line: line, column: column)
    }

    public func receive(_ envelope: Envelope, context: DestinationContext) throws {
        log.append(envelope)
        if let runRecording, let run = RunRecording.shared {
            run.append(envelope, source: runRecording.source, origin: runRecording.origin, stage: .delivered)
        }
    }

    public func flush() { counters.withLock { $0.flushes += 1 } }

    /// Counts the client's identity resets (see ``resetCount``); it forgets nothing. Use ``clear()`` for
    /// that.
    public func reset() { counters.withLock { $0.resets += 1 } }

    /// Everything received, with what the client added, assembled on each read (see `EventLog.envelopes`).
    public var envelopes: [Envelope] { log.envelopes }

    /// What the app said, in the order received.
    public var events: [Event] { log.events }

    /// How many events were received.
    public var count: Int { log.count }

    /// How many times ``flush()`` ran.
    public var flushCount: Int { counters.current.flushes }

    /// How many times ``reset()`` ran.
    public var resetCount: Int { counters.current.resets }

    /// Forgets everything received and the counts.
    public func clear() {
        log.clear()
        counters.withLock { $0 = (0, 0) }
    }
}
