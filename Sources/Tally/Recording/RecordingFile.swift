import Foundation

/// The records in a recording file, read at one moment.
///
/// ```swift
/// let file = try RecordingFile(contentsOf: url)
/// for problem in file.problems { print(problem) }      // app.jsonl:12: Not valid JSON: …
/// let names = file.records.map(\.event.name)
/// ```
///
/// A recording may still be growing while it is read (the app is running). Only complete lines count: a
/// last line without its newline is an unfinished write and is left for the next read, reported in
/// ``incompleteTail``. Empty lines are ignored. Any other unreadable line (not JSON, invalid UTF-8, nested
/// deeper than `PropertyValue.maximumDepth`, not a record) is a problem naming the file and the line,
/// in ``problems``; reading goes on after it, so one cut line (a writer killed mid-write) costs one
/// record, never the rest of the file.
///
/// Files are read with ordinary reads, never mapped into memory: another process may cut or rewrite the
/// file meanwhile without harm, and pipes and FIFOs can be read too.
public struct RecordingFile: Sendable {
    /// The records, in file order.
    public var records: [Record]
    /// The lines that are not readable records, each with its file (when known) and line number, in file
    /// order.
    public var problems: [RecordError]
    /// How many bytes of the file the records cover (the start of the incomplete tail, if any).
    public var completeBytes: Int
    /// Whether the file ended with an unfinished line.
    public var incompleteTail: Bool

    /// Reads a recording file (or a FIFO, or `/dev/stdin`).
    ///
    /// - Throws: `RecordError` naming the file when it cannot be opened or read; unreadable lines are
    ///   not errors but ``problems``.
    public init(contentsOf url: URL) throws(RecordError) {
        let lines = try RecordingLines(path: url.path)
        let (records, problems) = try lines.readRecords()
        self.records = records
        self.problems = problems
        self.completeBytes = lines.completeBytes
        self.incompleteTail = lines.unfinishedLine != nil
    }

    /// Reads records from the bytes of a recording, such as the log a `CallbackRecordingSink` hands over.
    ///
    /// ```swift
    /// let file = RecordingFile(bytes: Array(app.debugView.value.utf8))
    /// ```
    ///
    /// - Parameters:
    ///   - bytes: JSON Lines.
    ///   - file: named in problems.
    ///   - firstLine: the line number of the first line in `bytes`, when reading a file from an offset.
    public init(bytes: some Collection<UInt8>, file: String? = nil, firstLine: Int = 1) {
        func read(_ buffer: UnsafeBufferPointer<UInt8>) -> RecordingFile {
            let complete = buffer.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
            var records: [Record] = []
            var problems: [RecordError] = []
            RecordingLines.decodeRecords(
                in: UnsafeBufferPointer(rebasing: buffer[..<complete]), firstLine: firstLine, file: file,
                into: &records, problems: &problems)
            return RecordingFile(
                records: records, problems: problems, completeBytes: complete, incompleteTail: complete < buffer.count)
        }
        self = bytes.withContiguousStorageIfAvailable(read) ?? Array(bytes).withUnsafeBufferPointer(read)
    }

    /// Picks the records out of mixed output, such as a process's standard error: a record starts at
    /// `{"tally_record"` and runs to the end of its line; every other line is ignored.
    ///
    /// ```swift
    /// let file = RecordingFile(output: String(decoding: standardError, as: UTF8.self))
    /// ```
    ///
    /// A record may follow other text on its line (a log message without its newline, written just
    /// before); a line that starts like a record but cannot be read is a problem, with its line number.
    public init(output: String) {
        var records: [Record] = []
        var problems: [RecordError] = []
        let marker = Array(#"{"tally_record""#.utf8)
        for (index, line) in output.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .enumerated()
        {
            guard let start = Self.firstIndex(of: marker, in: line) else { continue }
            do {
                records.append(try Record(line: line[start...]))
            } catch {
                problems.append(RecordError(error.message, line: index + 1))
            }
        }
        self.init(records: records, problems: problems, completeBytes: output.utf8.count, incompleteTail: false)
    }

    /// Reads every `.jsonl` file in a folder (not its subfolders), in name order, as one recording: the
    /// records in order, every problem named by its file and line.
    ///
    /// - Throws: `RecordError` when the folder or one of its files cannot be read.
    public init(folder: URL) throws(RecordError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw RecordError("Cannot list the recordings folder: \(error.localizedDescription)", file: folder.path)
        }
        self.init(records: [], problems: [], completeBytes: 0, incompleteTail: false)
        for name in names.sorted() where name.hasSuffix(".jsonl") {
            let file = try RecordingFile(contentsOf: folder.appendingPathComponent(name))
            records += file.records
            problems += file.problems
            completeBytes += file.completeBytes
            incompleteTail = incompleteTail || file.incompleteTail
        }
    }

    private init(records: [Record], problems: [RecordError], completeBytes: Int, incompleteTail: Bool) {
        self.records = records
        self.problems = problems
        self.completeBytes = completeBytes
        self.incompleteTail = incompleteTail
    }

    private static func firstIndex(of marker: [UInt8], in line: Substring.UTF8View.SubSequence) -> String.Index? {
        var index = line.startIndex
        while let found = line[index...].firstIndex(of: marker[0]) {
            if line[found...].starts(with: marker) { return found }
            index = line.index(after: found)
        }
        return nil
    }
}

extension RecordingLines {
    /// Reads every remaining complete line as a ``Record``: the records in order, and a problem naming the
    /// file and the line for each line that is not one. The one decoding loop of every recording reader
    /// (``RecordingFile``, TallyTesting's `RecordingReader`).
    ///
    /// - Throws: `RecordError` when the file cannot be read.
    package func readRecords() throws(RecordError) -> (records: [Record], problems: [RecordError]) {
        var records: [Record] = []
        var problems: [RecordError] = []
        while let chunk = try next() {
            problems += chunk.problems
            chunk.bytes.withUnsafeBufferPointer { buffer in
                Self.decodeRecords(
                    in: buffer, firstLine: chunk.firstLine, file: name, into: &records, problems: &problems)
            }
        }
        return (records, problems)
    }

    /// Decodes the complete lines of `buffer`, numbered from `firstLine`, appending each record to
    /// `records` and each unreadable line to `problems`.
    package static func decodeRecords(
        in buffer: UnsafeBufferPointer<UInt8>, firstLine: Int, file: String?, into records: inout [Record],
        problems: inout [RecordError]
    ) {
        forEachLine(in: buffer, firstLine: firstLine) { line, number in
            do {
                records.append(try Record(line: line))
            } catch {
                problems.append(RecordError((error as? RecordError)?.message ?? "\(error)", file: file, line: number))
            }
        }
    }
}
