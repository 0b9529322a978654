import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// Where a ``RecordingDestination`` writes its lines.
///
/// A sink gets each record already encoded as one line of JSON. It is called from the destination's
/// thread, one record at a time.
public protocol RecordingSink: Sendable {
    /// Writes one record. `line` is its JSON encoding, ending in a newline.
    func write(_ record: Record, line: [UInt8]) throws
    /// Makes what was written durable or visible, if the sink buffers. The default does nothing.
    func flush()
}

extension RecordingSink {
    public func flush() {}
}

/// Appends lines to a file, one `write` call per record, so each line is complete as soon as the call
/// returns and survives the app dying right after.
///
/// Several processes (an app and its extensions, a test run's parallel workers) may append to one file,
/// and any of them may be killed mid-write or hit a full disk. Each line is appended under an advisory
/// lock on the file (`flock`) that every Tally writer takes, so the rules hold between them:
/// - **A cut line is ended first.** When the file does not end with a newline (a writer was killed
///   mid-line), the next line starts with one, so the cut line stays one unreadable line (readers name
///   it by its number and go on) and never swallows the records after it.
/// - **A failed write takes back only its own bytes.** When a write fails part-way (a full disk, say),
///   the file is cut back to where this line began, and only when nothing else was appended since; the
///   error is thrown, so the client counts the event as failed for this destination. Records of other
///   writers are never removed, and what the client counts as delivered is what the file holds.
///
/// The lock is held for one line's write only; a writer stopped while it holds it (in a debugger, say) holds
/// up the other writers of that file until it goes on. Files that are not regular files (a FIFO, a
/// terminal, `/dev/stderr`) get each line in plain writes.
public final class FileRecordingSink: RecordingSink {
    /// The file written to.
    public let url: URL
    private let descriptor: Int32
    private let isRegularFile: Bool
    /// Serializes this sink's own callers; the file lock does not, as it belongs to the descriptor.
    private let writing = Locked(())

    /// Opens `url` for appending, creating it (but not its folder) when missing.
    ///
    /// - Throws: ``RecordError`` naming the file when it cannot be opened.
    public init(url: URL) throws(RecordError) {
        self.url = url
        // Read access too, to see whether the file ends with a cut line; write-only when that is refused.
        var descriptor = open(url.path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        if descriptor < 0 && errno == EACCES {
            descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else {
            throw RecordError(
                "Cannot open the recording for writing: \(String(cString: strerror(errno)))", file: url.path)
        }
        self.descriptor = descriptor
        var status = stat()
        isRegularFile = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    deinit { close(descriptor) }

    /// Appends the line, first ending a cut line the file may end with; see the type's rules.
    ///
    /// - Throws: ``RecordError`` with the system's reason when the line cannot be written whole.
    public func write(_ record: Record, line: [UInt8]) throws {
        try writing.withLock { _ in
            guard isRegularFile else {
                let (_, failure) = writeAll(line, to: descriptor)
                if let failure { throw RecordError("Cannot write the recording: \(failure)", file: url.path) }
                return
            }
            try append(line)
        }
    }

    private func append(_ line: [UInt8]) throws(RecordError) {
        let locked = lockFile(LOCK_EX)
        defer { if locked { _ = lockFile(LOCK_UN) } }
        let start = fileSize()
        var endsCutLine = false
        if let start, start > 0 {
            var last: UInt8 = 0
            endsCutLine = pread(descriptor, &last, 1, off_t(start - 1)) == 1 && last != UInt8(ascii: "\n")
        }
        let bytes = endsCutLine ? [UInt8(ascii: "\n")] + line : line
        let (written, failure) = writeAll(bytes, to: descriptor)
        guard let failure else { return }
        // Take back this line's bytes (not the newline that ended a cut line), and only when the file ends
        // where they end: under the lock no other Tally writer appended, and the size check keeps the bytes
        // of any writer that does not take the lock.
        let own = endsCutLine ? 1 : 0
        if locked, let start, written > own, fileSize() == start + written {
            _ = ftruncate(descriptor, off_t(start + own))
        }
        throw RecordError("Cannot write the recording: \(failure)", file: url.path)
    }

    /// Takes or releases the file's advisory lock, retrying after interruptions. False when the file
    /// system offers no lock: the line is then written unlocked, and never taken back.
    private func lockFile(_ operation: Int32) -> Bool {
        while flock(descriptor, operation) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }

    private func fileSize() -> Int? {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int(status.st_size) : nil
    }

    public func flush() { fsync(descriptor) }
}

/// Writes lines to standard error, where a parent process can read them between other output.
/// ``RecordingFile/init(output:)`` picks the records out of such mixed output.
public struct StandardErrorRecordingSink: RecordingSink {
    /// Whether this sink's last line was cut by a failed write.
    private let cutLine = Locked(false)

    public init() {}

    /// Writes the line; throws when standard error cannot take it (closed, say), so the client counts the
    /// event as failed and reports it. After a line that failed part-way, the next line starts with a
    /// newline, so the cut line stays apart from it.
    public func write(_ record: Record, line: [UInt8]) throws {
        try cutLine.withLock { cut in
            let (written, failure) = writeAll(cut ? [UInt8(ascii: "\n")] + line : line, to: STDERR_FILENO)
            cut = failure != nil && written > 0 ? true : (failure != nil ? cut : false)
            if let failure { throw RecordError("Cannot write the recording to standard error: \(failure)") }
        }
    }
}

/// Keeps the whole encoded log in memory and hands it to a closure after every record.
///
/// This is what the seed's hidden accessibility view needs on iOS: set the view's `accessibilityValue` to
/// the log, and a UI test reads it back with ``RecordingFile/init(bytes:file:firstLine:)``.
///
/// ```swift
/// let sink = CallbackRecordingSink { log in
///     DispatchQueue.main.async { debugView.accessibilityValue = log }
/// }
/// ```
///
/// The log grows with every record; keep it for test runs.
public final class CallbackRecordingSink: RecordingSink {
    private let log = Locked<[UInt8]>([])
    private let onChange: @Sendable (String) -> Void

    /// Creates a sink calling `onChange` with the whole log, as JSON Lines, after each record.
    public init(onChange: @escaping @Sendable (String) -> Void) { self.onChange = onChange }

    public func write(_ record: Record, line: [UInt8]) throws {
        let text = log.withLock { log in
            log.append(contentsOf: line)
            return String(decoding: log, as: UTF8.self)
        }
        onChange(text)
    }

    /// The log so far.
    public var text: String { log.withLock { String(decoding: $0, as: UTF8.self) } }
}

/// Writes every byte of `bytes`, retrying after interruptions.
///
/// - Returns: how many bytes were written, and the system's reason when a write failed or made no
///   progress before all were.
private func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> (written: Int, failure: String?) {
    let (written, failure) = bytes.withUnsafeBytes { StandardStreams.writeAll($0, to: descriptor) }
    return (written, failure.map { $0 == EIO ? "the write made no progress" : StandardStreams.describe($0) })
}
