#if Collector
import CTallyZlib

/// `text` gzipped, as clients send it (one gzip member, zlib's default level).
func gzip(_ text: String) throws -> [UInt8] {
    var stream = z_stream()
    guard
        deflateInit2_(
            &stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
            == Z_OK
    else { throw CollectorReaderTestError("deflateInit2 failed") }
    defer { deflateEnd(&stream) }
    var input = Array(text.utf8)
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
    let status = input.withUnsafeMutableBufferPointer { inputBuffer in
        output.withUnsafeMutableBufferPointer { outputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            stream.next_out = outputBuffer.baseAddress
            stream.avail_out = uInt(outputBuffer.count)
            return deflate(&stream, Z_FINISH)
        }
    }
    guard status == Z_STREAM_END else { throw CollectorReaderTestError("deflate failed: \(status)") }
    return Array(output[0..<Int(stream.total_out)])
}
#endif
