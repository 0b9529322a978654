#if Collector
import CTallyZlib

/// Decompresses gzip request bodies (`Content-Encoding: gzip`) through the system's zlib, refusing to
/// produce more than a limit: a small body that inflates to gigabytes is refused, not held.
enum Gunzip {
    enum Failure: Error, Equatable {
        /// Not gzip, corrupt, or truncated; zlib's reason.
        case invalid(String)
        /// The output would pass the limit.
        case tooLarge
    }

    /// The bytes of the gzip stream `input` (several members one after another are read as one body, as
    /// `gunzip` does), at most `limit` of them.
    ///
    /// - Throws: ``Failure/invalid(_:)`` when the input is not complete gzip, ``Failure/tooLarge`` past `limit`.
    static func decompress(_ input: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        guard !input.isEmpty else { throw .invalid("the body is empty") }
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, max(4096, input.count * 4)))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var consumed = 0
        while consumed < input.count {
            var stream = z_stream()
            // 15 window bits, plus 16: a gzip header and trailer rather than zlib's.
            guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw .invalid("zlib could not start")
            }
            defer { inflateEnd(&stream) }
            var status: Int32 = Z_OK
            var tooLarge = false
            input.withUnsafeBufferPointer { inputBuffer in
                stream.next_in = UnsafeMutablePointer(mutating: inputBuffer.baseAddress! + consumed)
                stream.avail_in = uInt(inputBuffer.count - consumed)
                while status == Z_OK {
                    status = chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                        stream.next_out = chunkBuffer.baseAddress
                        stream.avail_out = uInt(chunkBuffer.count)
                        return inflate(&stream, Z_NO_FLUSH)
                    }
                    let produced = chunk.count - Int(stream.avail_out)
                    if output.count + produced > limit {
                        tooLarge = true
                        return
                    }
                    output.append(contentsOf: chunk[0..<produced])
                    if status == Z_BUF_ERROR && stream.avail_in == 0 { return }  // the input ends mid-stream
                }
            }
            if tooLarge { throw .tooLarge }
            guard status == Z_STREAM_END else {
                let reason =
                    stream.msg.map { String(cString: $0) }
                    ?? (stream.avail_in == 0 ? "it ends early (truncated?)" : "zlib error \(status)")
                throw .invalid(reason)
            }
            consumed = input.count - Int(stream.avail_in)
        }
        return output
    }
}
#endif
