import Dispatch
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
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw RecordError("Cannot read the recording: \(error.localizedDescription)", file: url.path)
        }
        self = try data.withUnsafeBytes { raw in
            Result { () throws(RecordError) in
                try RecordingFile(buffer: raw.bindMemory(to: UInt8.self), file: url.path, firstLine: 1)
            }
        }.get()
    }

    /// Reads records from the bytes of a recording.
    ///
    /// - Parameters:
    ///   - bytes: JSON Lines.
    ///   - file: named in errors.
    ///   - firstLine: the line number of the first line in `bytes`, when reading a file from an offset.
    public init(bytes: some Collection<UInt8>, file: String? = nil, firstLine: Int = 1) throws(RecordError) {
        func read(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<RecordingFile, RecordError> {
            Result { () throws(RecordError) in try RecordingFile(buffer: buffer, file: file, firstLine: firstLine) }
        }
        self = try (bytes.withContiguousStorageIfAvailable(read) ?? Array(bytes).withUnsafeBufferPointer(read)).get()
    }

    private init(buffer bytes: UnsafeBufferPointer<UInt8>, file: String?, firstLine: Int) throws(RecordError) {
        var records: [Record] = []
        let complete = try Self.forEachLine(bytes, file: file, firstLine: firstLine) { line throws(RecordError) in
            records.append(try Record(line: line))
        }
        self.records = records
        self.completeBytes = complete
        self.incompleteTail = complete < bytes.count
    }

    /// Reads only the events of a recording file (what the app said), which is several times faster than
    /// reading whole records. Same rules as ``init(contentsOf:)``: complete lines only, unreadable lines
    /// are errors.
    ///
    /// - Throws: ``RecordError`` with the file and line of the first unreadable line, or when the file
    ///   cannot be read.
    public static func events(contentsOf url: URL) throws(RecordError) -> [Event] {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw RecordError("Cannot read the recording: \(error.localizedDescription)", file: url.path)
        }
        return try data.withUnsafeBytes { raw in
            Result { () throws(RecordError) in
                try events(in: raw.bindMemory(to: UInt8.self), file: url.path)
            }
        }.get()
    }

    /// Reads the events of a large recording in chunks, one per processor, each ending at a line end; the
    /// chunks' events are joined in file order. The first unreadable line in file order is the error.
    static func events(in bytes: UnsafeBufferPointer<UInt8>, file: String) throws(RecordError) -> [Event] {
        let chunks = lineAlignedChunks(of: bytes, count: bytes.count < 1 << 20 ? 1 : ProcessInfo.processInfo.activeProcessorCount)
        let results = UnsafeMutableBufferPointer<Result<[Event], RecordError>>.allocate(capacity: chunks.count)
        results.initialize(repeating: .success([]))
        defer {
            results.deinitialize()
            results.deallocate()
        }
        let shared = ChunkedRead(bytes: bytes, results: results)
        let parse: @Sendable (Int) -> Void = { index in
            shared.results[index] = Result { () throws(RecordError) in
                var events: [Event] = []
                try forEachLine(UnsafeBufferPointer(rebasing: shared.bytes[chunks[index]]), file: nil, firstLine: 1) {
                    line throws(RecordError) in
                    events.append(try Record.event(fromLine: line))
                }
                return events
            }
        }
        if chunks.count == 1 {
            parse(0)
        } else {
            // Each iteration writes only its own element of `results`.
            DispatchQueue.concurrentPerform(iterations: chunks.count, execute: parse)
        }
        var events: [Event] = []
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let chunk):
                if events.isEmpty { events = chunk } else { events += chunk }
            case .failure(let error):
                // Number the line in the whole file: the lines before this chunk, plus its own line number.
                let before = UnsafeBufferPointer(rebasing: bytes[..<chunks[index].lowerBound])
                let offset = before.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                throw RecordError(error.message, file: file, line: (error.line ?? 1) + offset)
            }
        }
        return events
    }

    /// The memory the chunks of one read share. `@unchecked Sendable`: while the read runs, `bytes` is only
    /// read, and each chunk writes only its own element of `results`; the caller reads `results` after
    /// every chunk is done.
    private struct ChunkedRead: @unchecked Sendable {
        let bytes: UnsafeBufferPointer<UInt8>
        let results: UnsafeMutableBufferPointer<Result<[Event], RecordError>>
    }

    /// `count` consecutive ranges covering `bytes`, each but the last ending just after a line end.
    private static func lineAlignedChunks(of bytes: UnsafeBufferPointer<UInt8>, count: Int) -> [Range<Int>] {
        var chunks: [Range<Int>] = []
        var start = 0
        for part in 1..<max(1, count) {
            var end = max(start, bytes.count * part / count)
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            end = min(bytes.count, end + 1)
            chunks.append(start..<end)
            start = end
        }
        chunks.append(start..<bytes.count)
        return chunks
    }

    /// Calls `body` with each complete, non-blank line; returns the number of bytes the complete lines
    /// cover. Errors thrown by `body` get the file and line number.
    @discardableResult
    private static func forEachLine(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String?, firstLine: Int,
        _ body: (UnsafeBufferPointer<UInt8>) throws(RecordError) -> Void
    ) throws(RecordError) -> Int {
        var start = 0
        var lineNumber = firstLine
        while start < bytes.count {
            guard let end = UnsafeBufferPointer(rebasing: bytes[start...]).firstIndex(of: UInt8(ascii: "\n")) else { break }
            let lineEnd = start + end
            let line = UnsafeBufferPointer(rebasing: bytes[start..<lineEnd])
            if !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) {
                do {
                    try body(line)
                } catch {
                    throw RecordError(error.message, file: file, line: lineNumber)
                }
            }
            start = lineEnd + 1
            lineNumber += 1
        }
        return start
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
