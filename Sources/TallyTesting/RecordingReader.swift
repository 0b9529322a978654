import Foundation
import IssueReporting
import Tally

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
/// every ``refreshInterval`` seconds. A missing file reads as empty until it appears. The file is read
/// with ordinary reads, never mapped, so the writer may cut or replace it at any time.
///
/// What the reader notices is reported once, as a test issue at the line that created the reader, and
/// reading goes on:
/// - **An unreadable line** (a writer killed mid-line, say): the issue names the file and the line; the
///   lines after it are read.
/// - **A replaced or truncated file** (the app started again and recreated it): the issue says so, the
///   events read from the old file are forgotten, and the new file is read from its start. A file
///   rewritten in place is noticed by its first bytes and the bytes just before where the last read ended
///   (4 KiB of each).
public final class RecordingReader: EventRecorder {
    /// The file read.
    public let url: URL
    /// Everything read so far.
    public let log = EventLog()
    /// How often, in seconds, waiting re-reads the file. Default 0.01.
    public let refreshInterval: TimeInterval?
    private let position = Locked(Position())
    private let createdAt: (fileID: StaticString, filePath: StaticString, line: UInt, column: UInt)

    /// Where the last read ended, and what the file was.
    private struct Position {
        var identity: (device: UInt64, inode: UInt64)?
        var offset = 0
        var line = 1
        /// The first bytes of the file and the last bytes before `offset`, to notice a file rewritten in
        /// place.
        var head: [UInt8] = []
        var before: [UInt8] = []
    }

    /// How many bytes at the start of the file, and before the end of the last read, are compared to
    /// notice a rewritten file.
    private static let checkedBytes = 4096

    /// Creates a reader for `url`. Nothing is read until the first expectation, wait or ``refresh()``.
    ///
    /// In exhaustive mode (``ExhaustiveTrait``, ``withExhaustiveCheck(_:fileID:filePath:line:column:operation:)``)
    /// the reader registers with the test's check, which reads the file once more when the test ends: a
    /// record no expectation accounts for fails the test, reported at the line that created the reader.
    ///
    /// - Parameters:
    ///   - url: the recording file.
    ///   - refreshInterval: how often, in seconds, waiting re-reads the file.
    ///   - fileID: where unreadable lines, replaced files and (in exhaustive mode) unaccounted events are
    ///     reported; the caller's by default.
    ///   - filePath: see `fileID`.
    ///   - line: see `fileID`.
    ///   - column: see `fileID`.
    public init(
        url: URL, refreshInterval: TimeInterval = 0.01, fileID: StaticString = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        self.url = url
        self.refreshInterval = refreshInterval
        self.createdAt = (fileID, filePath, line, column)
        registerForExhaustiveCheck(
            as: "RecordingReader", fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Reads `url` now.
    ///
    /// - Parameters:
    ///   - url: the recording file.
    ///   - fileID: where exhaustive mode reports unaccounted events; the caller's by default.
    ///   - filePath: see `fileID`.
    ///   - line: see `fileID`.
    ///   - column: see `fileID`.
    /// - Throws: `RecordError` when the file cannot be read, or naming the file and line of its first
    ///   unreadable line.
    public convenience init(
        contentsOf url: URL, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) throws {
        self.init(url: url, fileID: fileID, filePath: filePath, line: line, column: column)
        if let issue = try read() { throw issue.problems.first ?? RecordError(issue.description, file: url.path) }
    }

    /// Reads the complete lines appended since the last read. Unreadable lines and a replaced file are
    /// reported as test issues at the line that created the reader, once each.
    ///
    /// - Throws: `RecordError` when the file exists but cannot be read.
    public func refresh() throws {
        guard let issue = try read() else { return }
        reportIssue(
            issue.description, fileID: createdAt.fileID, filePath: createdAt.filePath, line: createdAt.line,
            column: createdAt.column)
    }

    /// What one read noticed.
    private struct Issue {
        var replaced: String?
        var problems: [RecordError] = []

        var description: String {
            var lines = ["The recording reader noticed:"]
            if let replaced { lines.append("  \(replaced)") }
            lines += problems.prefix(20).map { "  \($0); the lines after it were read" }
            if problems.count > 20 { lines.append("  … \(problems.count - 20) more unreadable lines") }
            return lines.joined(separator: "\n")
        }
    }

    private func read() throws -> Issue? {
        try position.withLock { position -> Issue? in
            let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                if errno == ENOENT { return nil }  // not written yet (or removed: what was read stays)
                throw RecordError("Cannot read the recording: \(String(cString: strerror(errno)))", file: url.path)
            }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                throw RecordError("Cannot read the recording: \(String(cString: strerror(errno)))", file: url.path)
            }
            var issue = Issue()
            let identity = (device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            if let known = position.identity, known != identity {
                issue.replaced =
                    "\(url.path) was replaced by another file since the last read; its events are read afresh"
            } else if Int(status.st_size) < position.offset {
                issue.replaced =
                    "\(url.path) was truncated since the last read (\(status.st_size) bytes, \(position.offset) read); its events are read afresh"
            } else if Self.bytes(of: descriptor, count: position.head.count, endingAt: position.head.count)
                != position.head
                || Self.bytes(of: descriptor, count: position.before.count, endingAt: position.offset)
                    != position.before
            {
                issue.replaced = "\(url.path) was rewritten since the last read; its events are read afresh"
            }
            if issue.replaced != nil {
                position = Position()
                log.clear()
            }
            position.identity = identity

            guard lseek(descriptor, off_t(position.offset), SEEK_SET) >= 0 else {
                throw RecordError("Cannot read the recording: \(String(cString: strerror(errno)))", file: url.path)
            }
            let lines = RecordingLines(descriptor: descriptor, name: url.path, firstLine: position.line)
            let (records, problems) = try lines.readRecords()
            issue.problems += problems
            position.line = lines.nextLineNumber
            position.offset += lines.completeBytes
            let head = min(Self.checkedBytes, position.offset)
            position.head = Self.bytes(of: descriptor, count: head, endingAt: head) ?? []
            position.before =
                (Self.bytes(
                    of: descriptor, count: min(Self.checkedBytes, position.offset), endingAt: position.offset)) ?? []
            log.append(contentsOf: records.map { ($0.envelope, $0.stage) })
            return issue.replaced == nil && issue.problems.isEmpty ? nil : issue
        }
    }

    /// `count` bytes of the file ending at `offset`, or nil when they cannot be read.
    private static func bytes(of descriptor: Int32, count: Int, endingAt offset: Int) -> [UInt8]? {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset - count)) }
        return read == count ? bytes : nil
    }
}
