#if Delivery
import CTallyZlib
import Foundation

/// Gzip (RFC 1952) through the system's zlib, for request bodies (`Content-Encoding: gzip`).
///
/// Foundation has no gzip on Linux, and Apple's `NSData.compressed(using:)` writes raw deflate only, so
/// this calls zlib, which every supported platform ships.
package enum Gzip {
    /// `bytes` compressed as one gzip member, or nil if zlib failed (the caller then sends them as they are).
    package static func compress(_ bytes: [UInt8], level: Int32 = 6) -> Data? {
        var stream = z_stream()
        // 15 window bits, plus 16 for a gzip header and trailer instead of zlib's.
        let status = deflateInit2_(
            &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)
        )
        guard status == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let capacity = Int(deflateBound(&stream, uLong(bytes.count)))
        var output = [UInt8](repeating: 0, count: capacity)
        var input = bytes
        let result: Int32 = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { return nil }
        return Data(output[0..<Int(stream.total_out)])
    }

    /// The bytes of a gzip member, or nil if they are not one. For tests and the sender fixture.
    package static func decompress(_ data: Data) -> Data? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { inflateEnd(&stream) }
        var input = [UInt8](data)
        var result = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let ok: Bool = input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = uInt(chunkBuffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                result.append(contentsOf: chunk[0..<produced])
                if status == Z_STREAM_END { return true }
                if status != Z_OK { return false }
            }
        }
        return ok ? result : nil
    }
}
#endif
