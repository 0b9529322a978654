#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// Writing to a file descriptor, standard error included, in a way that cannot stop the process: the one
/// home of every such write in this package's code.
///
/// Foundation's `FileHandle.write(_:)` raises an Objective-C exception on Darwin when the write fails (a
/// closed pipe, a full disk): an abort, which neither a library nor `tally` (whose documented answer is exit
/// code 73) may do. Its throwing replacement, `write(contentsOf:)`, needs iOS 13.4. These are plain `write`
/// calls that report a failure instead. (A write to a closed pipe also raises SIGPIPE; `tally` ignores it,
/// and a library leaves that choice to the app.)
package enum StandardStreams {
    /// Writes `bytes` whole to `descriptor`, again after an interruption.
    ///
    /// - Returns: how many bytes were written, and the system's reason when not all of them were.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> (
        written: Int, failure: Int32?
    ) {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return (offset, written < 0 ? errno : EIO)
            }
        }
        return (offset, nil)
    }

    /// Writes `text` whole to `descriptor`.
    ///
    /// - Returns: nil when it was written, otherwise the system's error number.
    @discardableResult
    package static func write(_ text: String, to descriptor: Int32) -> Int32? {
        guard !text.isEmpty else { return nil }
        var text = text
        return text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: descriptor).failure }
    }

    /// Writes `text` to standard error, best effort: a failure is ignored, as there is nowhere left to
    /// report it.
    package static func writeToStandardError(_ text: String) {
        write(text, to: STDERR_FILENO)
    }

    /// The system's description of an error number, such as `Broken pipe`.
    package static func describe(_ error: Int32) -> String {
        String(cString: strerror(error))
    }

    @inline(__always)
    private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
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
}
