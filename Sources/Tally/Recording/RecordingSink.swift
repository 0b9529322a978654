#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif
import Foundation

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
public final class FileRecordingSink: RecordingSink {
    /// The file written to.
    public let url: URL
    private let descriptor: Int32

    /// Opens `url` for appending, creating it (but not its folder) when missing.
    ///
    /// - Throws: ``RecordError`` naming the file when it cannot be opened.
    public init(url: URL) throws(RecordError) {
        self.url = url
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw RecordError("Cannot open the recording for writing: \(String(cString: strerror(errno)))", file: url.path)
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Appends the line. If the write fails part-way (a full disk, say), the file is cut back to where
    /// the line began, so no partial line is left for later records to be glued to, and the error is
    /// thrown: the client counts the event as failed and reports it.
    public func write(_ record: Record, line: [UInt8]) throws {
        let start = lseek(descriptor, 0, SEEK_END)
        do {
            try writeAll(line, to: descriptor)
        } catch {
            if start >= 0 { _ = ftruncate(descriptor, start) }
            throw RecordError("Cannot write the recording: \(error.message)", file: url.path)
        }
    }

    public func flush() { fsync(descriptor) }
}

/// Writes lines to standard error, where a parent process can read them between other output.
/// ``RecordingFile/init(output:)`` picks the records out of such mixed output.
public struct StandardErrorRecordingSink: RecordingSink {
    public init() {}

    /// Writes the line; throws when standard error cannot take it (closed, say), so the client counts the
    /// event as failed and reports it.
    public func write(_ record: Record, line: [UInt8]) throws {
        try writeAll(line, to: STDERR_FILENO)
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
/// - Throws: ``RecordError`` with the system's reason when a write fails or makes no progress.
private func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(RecordError) {
    let failure: String? = bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = Glibc_or_Darwin_write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return written < 0 ? String(cString: strerror(errno)) : "the write made no progress"
            }
        }
        return nil
    }
    if let failure { throw RecordError(failure) }
}

@inline(__always)
private func Glibc_or_Darwin_write(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    return Darwin.write(descriptor, buffer, count)
    #elseif canImport(Glibc)
    return Glibc.write(descriptor, buffer, count)
    #elseif canImport(Musl)
    return Musl.write(descriptor, buffer, count)
    #else
    return Android.write(descriptor, buffer, count)
    #endif
}
