import Tally

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
    /// for.
    func finish() {
        for entry in entries.current {
            guard let message = entry.unaccountedMessage() else { continue }
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
