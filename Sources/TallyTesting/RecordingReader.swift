import Foundation
import Tally

/// A recording written by another process (an app launched by a UI-style test, say) and read back here,
/// with the same expectations as ``AnalyticsSpy``.
///
/// ```swift
/// let file = folder.appendingPathComponent("app.jsonl")
/// let app = try launchApp(environment: ["TALLY_RECORD": file.path])
/// let recording = RecordingReader(url: file)
/// try app.send("tap login")
/// await recording.waitForCount(2)
/// recording.expectCount(1, of: .named("login_tapped", containing: ["action": "tap"]))
/// ```
///
/// The file may still be growing: every expectation first reads what was appended since the last read
/// (only complete lines; an unfinished last line waits for the next read), and waiting re-reads the file
/// every ``refreshInterval`` seconds. A missing file reads as empty until it appears.
public final class RecordingReader: EventRecorder {
    /// The file read.
    public let url: URL
    /// Everything read so far.
    public let log = EventLog()
    /// How often, in seconds, waiting re-reads the file. Default 0.01.
    public let refreshInterval: TimeInterval?
    private let position = Locked((offset: 0, line: 1))

    /// Creates a reader for `url`. Nothing is read until the first expectation, wait or ``refresh()``.
    ///
    /// In exhaustive mode (``ExhaustiveTrait``, ``withExhaustiveCheck(_:fileID:filePath:line:column:operation:)``)
    /// the reader registers with the test's check, which reads the file once more when the test ends: a
    /// record no expectation accounts for fails the test, reported at the line that created the reader.
    ///
    /// - Parameters:
    ///   - url: the recording file.
    ///   - refreshInterval: how often, in seconds, waiting re-reads the file.
    ///   - fileID: where exhaustive mode reports unaccounted events; the caller's by default.
    ///   - filePath: see `fileID`.
    ///   - line: see `fileID`.
    ///   - column: see `fileID`.
    public init(
        url: URL, refreshInterval: TimeInterval = 0.01, fileID: StaticString = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        self.url = url
        self.refreshInterval = refreshInterval
        registerForExhaustiveCheck(as: "RecordingReader", fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Reads `url` now.
    ///
    /// - Parameters:
    ///   - url: the recording file.
    ///   - fileID: where exhaustive mode reports unaccounted events; the caller's by default.
    ///   - filePath: see `fileID`.
    ///   - line: see `fileID`.
    ///   - column: see `fileID`.
    /// - Throws: `RecordError` naming the file and line of an unreadable record.
    public convenience init(
        contentsOf url: URL, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) throws {
        self.init(url: url, fileID: fileID, filePath: filePath, line: line, column: column)
        try refresh()
    }

    /// Reads the complete lines appended since the last read.
    ///
    /// - Throws: `RecordError` naming the file and line of an unreadable record; what was read before it
    ///   is kept.
    public func refresh() throws {
        try position.withLock { position in
            guard let handle = FileHandle(forReadingAtPath: url.path) else { return }
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(position.offset))
            let data = try handle.readToEnd() ?? Data()
            guard !data.isEmpty else { return }
            let file = try RecordingFile(bytes: data, file: url.path, firstLine: position.line)
            position.offset += file.completeBytes
            position.line += data.prefix(file.completeBytes).reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            log.append(contentsOf: file.records.map(\.envelope))
        }
    }
}
