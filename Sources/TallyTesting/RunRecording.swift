import Foundation
import Tally

/// The file where every recorder of this test process (``AnalyticsSpy``, ``InMemoryDestination``) appends
/// what it records when `TALLY_RECORD_DIR` is set, each record with its source, its origin (the line that
/// created the recorder) and its stage (a spy's events as tracked, a destination's as delivered).
final class RunRecording: Sendable {
    /// Nil when the variable is not set. When the file can't be created the error is printed once to
    /// standard error, and the recorders still work.
    static let shared: RunRecording? = {
        guard let folder = ProcessInfo.processInfo.environment[RecordingDestination.folderVariable], !folder.isEmpty
        else { return nil }
        do {
            let url = try RecordingDestination.runFile(in: URL(fileURLWithPath: folder), source: "tests")
            return RunRecording(sink: try FileRecordingSink(url: url))
        } catch {
            StandardStreams.writeToStandardError("tally: test recorders cannot record to \(folder): \(error)\n")
            return nil
        }
    }()

    private let sink: FileRecordingSink
    private let failed = Locked(false)
    private init(sink: FileRecordingSink) { self.sink = sink }

    /// Appends a record. A failure is printed to standard error once (a coverage run would otherwise miss
    /// events without a word); the recorder itself keeps working.
    func append(_ envelope: Envelope, source: String, origin: String, stage: Record.Stage) {
        let record = Record(envelope: envelope, source: source, origin: origin, stage: stage)
        do {
            try sink.write(record, line: record.line)
        } catch {
            let first = failed.withLock { failed in
                defer { failed = true }
                return !failed
            }
            if first {
                StandardStreams.writeToStandardError(
                    "tally: test recorders could not record to \(sink.url.path): \(error); later failures are not repeated\n"
                )
            }
        }
    }
}
