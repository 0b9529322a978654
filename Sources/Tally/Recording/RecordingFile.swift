import Foundation

/// The records in a recording file, read at one moment.
///
/// A recording may still be growing while it is read (the app is running). Only complete lines count: a
/// last line without its newline is an unfinished write and is left for the next read, reported in
/// ``incompleteTail``. Empty lines are ignored. Any other unreadable line is an error naming the file and
/// line, never skipped silently.
public struct RecordingFile: Sendable {
    /// The records, in file order.
    public var records: [Record]
    /// How many bytes of the file the records cover (the start of the incomplete tail, if any).
    public var completeBytes: Int
    /// Whether the file ended with an unfinished line.
    public var incompleteTail: Bool

    /// Reads a recording file.
    ///
    /// - Throws: ``RecordError`` with the file and line of the first unreadable line, or when the file
    ///   cannot be read.
    public init(contentsOf url: URL) throws(RecordError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw RecordError("Cannot read the recording: \(error.localizedDescription)", file: url.path)
        }
        try self.init(bytes: data, file: url.path)
    }

    /// Reads records from the bytes of a recording.
    ///
    /// - Parameters:
    ///   - bytes: JSON Lines.
    ///   - file: named in errors.
    ///   - firstLine: the line number of the first line in `bytes`, when reading a file from an offset.
    public init(bytes: some Collection<UInt8>, file: String? = nil, firstLine: Int = 1) throws(RecordError) {
        let bytes = Array(bytes)
        var records: [Record] = []
        var start = 0
        var lineNumber = firstLine
        var complete = 0
        while let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = bytes[start..<end]
            if !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) {
                do {
                    records.append(try Record(line: line))
                } catch {
                    throw RecordError(error.message, file: file, line: lineNumber)
                }
            }
            start = end + 1
            complete = start
            lineNumber += 1
        }
        self.records = records
        self.completeBytes = complete
        self.incompleteTail = complete < bytes.count
    }

    /// Reads every `.jsonl` file in a folder (not its subfolders), in name order.
    ///
    /// - Throws: ``RecordError`` when the folder or a file cannot be read, or a line is unreadable.
    public static func records(inFolder folder: URL) throws(RecordError) -> [Record] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw RecordError("Cannot list the recordings folder: \(error.localizedDescription)", file: folder.path)
        }
        var records: [Record] = []
        for name in names.sorted() where name.hasSuffix(".jsonl") {
            records += try RecordingFile(contentsOf: folder.appendingPathComponent(name)).records
        }
        return records
    }
}
