import Tally

/// A recorder whose recording lives outside the process and reads it only asynchronously: exhaustive mode
/// awaits ``finalRead()`` when the test ends.
protocol FinalReading: EventRecorder {
    /// Reads what was recorded since the last read.
    func finalRead() async throws
    /// Whether the recorder already read everything there will ever be (its collector stopped).
    var tookLastRead: Bool { get }
}

/// The check of exhaustive mode: every event and call recorded by the recorders created during a test must
/// be accounted for by an expectation when the test ends.
///
/// A test turns it on with the ``ExhaustiveTrait`` (`@Test(.exhaustive)`, `@Suite(.exhaustive)`) or with
/// ``withExhaustiveCheck(_:fileID:filePath:line:column:operation:)``. While it runs, the check is a
/// task-local value: each ``AnalyticsSpy``, `InMemoryDestination`, ``RecordingReader`` and
/// ``CallRecorder`` created in the test's task, its child tasks or a `Task { }` it starts, registers with
/// it. When the test's body returns, the check reports one issue per recorder that holds something no
/// expectation accounted for, naming each event or call.
final class ExhaustiveCheck: Sendable {
    /// The check of the running test; nil outside one and inside an opted-out test.
    @TaskLocal static var current: ExhaustiveCheck?

    /// Where the test is: recorders created in another file are reported here.
    let scope: ScopePlace
    private let entries = Locked([Entry]())

    init(scope: ScopePlace) {
        self.scope = scope
    }

    /// One registered recorder and the line that created it.
    struct Entry: Sendable {
        enum Subject: Sendable {
            case events(any EventRecorder, kind: String)
            case calls(CallRecorder)
        }

        let subject: Subject
        let place: SourcePlace
    }

    /// Registers an event recorder with the running test's check, if there is one.
    static func register(_ recorder: some EventRecorder, kind: String, at place: SourcePlace) {
        current?.entries.withLock { $0.append(Entry(subject: .events(recorder, kind: kind), place: place)) }
    }

    /// Registers a call recorder with the running test's check, if there is one.
    static func register(_ recorder: CallRecorder, at place: SourcePlace) {
        current?.entries.withLock { $0.append(Entry(subject: .calls(recorder), place: place)) }
    }

    /// Reports, one issue per recorder and in the order they were created, what no expectation accounted
    /// for. A recorder that reads only asynchronously (a ``CollectorReader``) cannot be read here: unless
    /// it took its last read as its collector stopped, it is reported as unread, never passed silently.
    func finish() {
        for entry in entries.current {
            var readFailure: String?
            if case .events(let recorder as any FinalReading, _) = entry.subject, recorder.isExhaustive,
                !recorder.tookLastRead
            {
                readFailure = """
                    the synchronous withExhaustiveCheck cannot read a collector (that would block a thread \
                    on the network), and the collector did not stop inside the check. Use \
                    `await withExhaustiveCheck { ... }` or the .exhaustive trait, or stop the collector \
                    (`await collector.stop()`) before the check ends.
                    """
            }
            guard let message = entry.unaccountedMessage(readFailure: readFailure) else { continue }
            report(message, createdAt: entry.place)
        }
    }

    /// Reads each recorder that reads asynchronously (a ``CollectorReader``) once more, then reports as
    /// ``finish()`` does.
    func finishAfterFinalReads() async {
        for entry in entries.current {
            var readFailure: String?
            if case .events(let recorder as any FinalReading, _) = entry.subject, recorder.isExhaustive {
                do {
                    try await recorder.finalRead()
                } catch {
                    readFailure = "\(error)"
                }
            }
            guard let message = entry.unaccountedMessage(readFailure: readFailure) else { continue }
            report(message, createdAt: entry.place)
        }
    }

    /// Reports at the line that created the recorder when that line is in the test's file; otherwise (a spy
    /// whose recorder is created in the spy's own file, say) at the test.
    private func report(_ message: String, createdAt place: SourcePlace) {
        if place.fileIDText == scope.fileID {
            reportFailure(
                message, fileID: place.fileID, filePath: place.filePath, line: place.line, column: place.column)
        } else {
            scope.report(message)
        }
    }
}

/// A place in the source, as `#fileID`, `#filePath`, `#line` and `#column` give it.
struct SourcePlace: Sendable {
    var fileID: StaticString
    var filePath: StaticString
    var line: UInt
    var column: UInt

    var fileIDText: String { fileID.description }

    /// `LoginTests/LoginViewModelTests.swift:12`
    var description: String { "\(fileID):\(line)" }
}

/// Where an exhaustive check was turned on: the line that called ``withExhaustiveCheck(_:fileID:filePath:line:column:operation:)``,
/// or the test a trait applies to.
enum ScopePlace: Sendable {
    case source(SourcePlace)
    case test(fileID: String, filePath: String, line: Int, column: Int)

    var fileID: String {
        switch self {
        case .source(let place): return place.fileIDText
        case .test(let fileID, _, _, _): return fileID
        }
    }

    func report(_ message: String) {
        switch self {
        case .source(let place):
            reportFailure(
                message, fileID: place.fileID, filePath: place.filePath, line: place.line, column: place.column)
        case .test(let fileID, let filePath, let line, let column):
            reportFailure(message, fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }
}
