import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a recording with ordinary `read` calls and hands it over in chunks of whole lines, in bounded
/// memory.
///
/// Never a memory map: another process may cut or rewrite the file while it is read, which would kill a
/// mapped reader with SIGBUS; here it only changes what the next `read` returns. Pipes, FIFOs and standard
/// input work the same way as files.
///
/// Memory stays within about two chunks, whatever the size of the input, except for a line longer than a
/// chunk, which is held whole up to ``Options/maximumLineBytes``; a longer line is skipped without being
/// held, and reported.
package final class RecordingLines {
    /// How much to read at a time, and the longest line kept.
    package struct Options: Sendable {
        /// The size of a chunk handed over, in bytes (it ends at the last line end within it). Default 1 MiB.
        package let chunkBytes: Int
        /// The longest line read, in bytes; longer lines are skipped and reported. Default 64 MiB.
        package let maximumLineBytes: Int

        /// Creates options. A chunk is never larger than the longest line, so every line handed over in a
        /// chunk is within that limit.
        package init(chunkBytes: Int = 1 << 20, maximumLineBytes: Int = 64 << 20) {
            self.maximumLineBytes = max(1, maximumLineBytes)
            self.chunkBytes = min(max(1, chunkBytes), self.maximumLineBytes)
        }
    }

    /// Whole lines, each ending with a newline, and what went wrong since the previous chunk.
    package struct Chunk: Sendable {
        /// The lines' bytes.
        package var bytes: [UInt8]
        /// The number of the first line in the input, from 1.
        package var firstLine: Int
        /// Lines skipped before these for being too long.
        package var problems: [RecordError]
    }

    /// The name used in errors: a path, or `(standard input)`.
    package let name: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let options: Options
    /// Bytes read but not handed over yet: the start of a line whose end has not been read.
    private var pending: [UInt8] = []
    /// Buffers of chunks handed back with ``recycle(_:)``, reused so that reading allocates no memory once
    /// it runs (fresh buffers of a megabyte cost page faults each time).
    private var spare: [[UInt8]] = []
    private var scratch: UnsafeMutableRawBufferPointer
    private var nextLine: Int
    private var reachedEnd = false
    /// How many bytes were read from the descriptor.
    package private(set) var bytesRead = 0

    /// Opens the file at `path` for reading.
    ///
    /// - Throws: `RecordError` naming the file when it cannot be opened or is a folder.
    package convenience init(path: String, options: Options = Options()) throws(RecordError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw RecordError("Cannot read the recording: \(String(cString: strerror(errno)))", file: path)
        }
        var status = stat()
        if fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw RecordError("Cannot read the recording: it is a folder", file: path)
        }
        self.init(descriptor: descriptor, name: path, ownsDescriptor: true, options: options)
    }

    /// Reads `descriptor` from its current position, numbering lines from `firstLine`. The descriptor is
    /// closed at the end only when `ownsDescriptor`.
    package init(
        descriptor: Int32, name: String, firstLine: Int = 1, ownsDescriptor: Bool = false, options: Options = Options()
    ) {
        self.descriptor = descriptor
        self.name = name
        self.nextLine = firstLine
        self.ownsDescriptor = ownsDescriptor
        self.options = options
        scratch = .allocate(byteCount: min(options.chunkBytes, 1 << 20), alignment: 16)
    }

    deinit {
        scratch.deallocate()
        if ownsDescriptor { close(descriptor) }
    }

    /// After the end: the line number and length of a last line without its newline (a write cut off, or
    /// one still under way), or nil when the input ended with a newline.
    package var unfinishedLine: (line: Int, bytes: Int)? {
        reachedEnd && !pending.isEmpty ? (nextLine, pending.count) : nil
    }

    /// The number of the line after the last one handed over or skipped.
    package var nextLineNumber: Int { nextLine }

    /// The bytes handed over in chunks or skipped: where the unfinished line, if any, begins.
    package var completeBytes: Int { bytesRead - pending.count }

    /// The next chunk of whole lines, or nil at the end of the input.
    ///
    /// - Throws: `RecordError` naming the input when a read fails.
    package func next() throws(RecordError) -> Chunk? {
        var problems: [RecordError] = []
        var wanted = options.chunkBytes
        while true {
            if pending.count >= wanted || reachedEnd {
                if let end = Self.lastNewline(in: pending) {
                    // The chunk keeps `pending`'s buffer; the start of the next line moves to a spare one.
                    var rest = spare.popLast() ?? []
                    rest.removeAll(keepingCapacity: true)
                    rest.reserveCapacity(options.chunkBytes)
                    rest.append(contentsOf: pending[(end + 1)...])
                    var bytes = pending
                    pending = rest
                    bytes.removeLast(bytes.count - end - 1)
                    let chunk = Chunk(bytes: bytes, firstLine: nextLine, problems: problems)
                    nextLine += Self.newlines(in: bytes)
                    return chunk
                }
                if reachedEnd {
                    return problems.isEmpty ? nil : Chunk(bytes: [], firstLine: nextLine, problems: problems)
                }
                if pending.count > options.maximumLineBytes {
                    problems.append(
                        RecordError(
                            "The line is longer than \(options.maximumLineBytes) bytes (RecordingLines.Options.maximumLineBytes); skipped",
                            file: name, line: nextLine))
                    if try skipToNextLine() { nextLine += 1 }
                    wanted = options.chunkBytes
                    continue
                }
                // One line longer than a chunk so far: read as much again, so a long line costs linear time.
                wanted = min(pending.count * 2, options.maximumLineBytes + 1)
            }
            try fill(upTo: wanted)
        }
    }

    /// Takes back the buffer of a chunk that is no longer needed, to read later chunks into.
    package func recycle(_ bytes: consuming [UInt8]) {
        if spare.count < 8 { spare.append(bytes) }
    }

    /// Reads until `pending` holds `count` bytes or the input ends.
    private func fill(upTo count: Int) throws(RecordError) {
        while pending.count < count {
            let read = try readScratch(max: count - pending.count)
            if read == 0 {
                reachedEnd = true
                return
            }
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[..<read]))
        }
    }

    /// Drops `pending` and reads on past the next newline, keeping what follows it. False when the input
    /// ended first.
    private func skipToNextLine() throws(RecordError) -> Bool {
        pending = []
        while true {
            let read = try readScratch(max: scratch.count)
            if read == 0 {
                reachedEnd = true
                return false
            }
            let bytes = UnsafeRawBufferPointer(rebasing: scratch[..<read])
            if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                pending.append(contentsOf: bytes[(newline + 1)...])
                return true
            }
        }
    }

    /// One `read` into the scratch buffer, retried after interruptions; 0 at the end of the input.
    private func readScratch(max count: Int) throws(RecordError) -> Int {
        while true {
            let read = Glibc_or_Darwin_read(descriptor, scratch.baseAddress!, min(count, scratch.count))
            if read >= 0 {
                bytesRead += read
                return read
            }
            if errno != EINTR {
                throw RecordError("Cannot read the recording: \(String(cString: strerror(errno)))", file: name)
            }
        }
    }

    private static func lastNewline(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { $0.lastIndex(of: UInt8(ascii: "\n")) }
    }

    /// The number of newlines in `bytes`.
    package static func newlines(in bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { newlines(in: $0) }
    }

    package static func newlines(in buffer: UnsafeBufferPointer<UInt8>) -> Int {
        guard var cursor = buffer.baseAddress.map(UnsafeRawPointer.init) else { return 0 }
        let end = cursor + buffer.count
        var count = 0
        while cursor < end, let found = memchr(cursor, 0x0A, end - cursor) {
            count += 1
            cursor = UnsafeRawPointer(found) + 1
        }
        return count
    }

    /// Calls `body` with each non-blank line of `chunk` (without its newline) and its number.
    package static func forEachLine(
        in chunk: UnsafeBufferPointer<UInt8>, firstLine: Int, _ body: (UnsafeBufferPointer<UInt8>, Int) -> Void
    ) {
        guard let base = chunk.baseAddress else { return }
        var start = 0
        var line = firstLine
        while start < chunk.count {
            let end =
                memchr(base + start, 0x0A, chunk.count - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
                ?? chunk.count
            let bytes = UnsafeBufferPointer(rebasing: chunk[start..<end])
            if !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { body(bytes, line) }
            start = end + 1
            line += 1
        }
    }
}

@inline(__always)
private func Glibc_or_Darwin_read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    return Darwin.read(descriptor, buffer, count)
    #elseif canImport(Glibc)
    return Glibc.read(descriptor, buffer, count)
    #else
    return Musl.read(descriptor, buffer, count)
    #endif
}
