#if Collector
/// Finds the byte length of each message of a batch body as it was sent, for Segment's limit per event.
///
/// It reads JSON that has already been parsed successfully, so it only tracks strings and nesting: the
/// members of the top-level object, and the elements of its `batch` array.
enum BatchSpans {
    /// The byte length of each element of the top-level member `key`'s array, in order; empty when the
    /// member is missing or not an array.
    static func elementLengths(ofArray key: String, in bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        let wanted = Array(key.utf8)
        var lengths: [Int] = []
        var depth = 0
        var index = 0
        var lastKey: Range<Int>?
        var expectingKey = false
        var inWanted = false
        var elementStart: Int?
        var elementEnd = 0  // one past the last non-whitespace byte of the element

        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                if depth == 1, expectingKey { lastKey = (start + 1)..<index }
                if inWanted, depth == 2, elementStart == nil { elementStart = start }
                if inWanted, depth >= 2 { elementEnd = index + 1 }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if depth == 1, byte == UInt8(ascii: "["), let key = lastKey, !expectingKey,
                    bytes[key].elementsEqual(wanted)
                {
                    inWanted = true
                    depth += 1
                    index += 1
                    continue
                }
                if inWanted, depth == 2, elementStart == nil { elementStart = index }
                depth += 1
                if depth == 1 { expectingKey = true }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if inWanted, depth >= 2 { elementEnd = index + 1 }
                if inWanted, depth == 1 {
                    if let start = elementStart { lengths.append(elementEnd - start) }
                    return lengths
                }
            case UInt8(ascii: ":"):
                if depth == 1 { expectingKey = false }
            case UInt8(ascii: ","):
                if depth == 1 { expectingKey = true }
                if inWanted, depth == 2, let start = elementStart {
                    lengths.append(elementEnd - start)
                    elementStart = nil
                }
            default:
                if inWanted, depth >= 2, !isSpace(byte) {
                    if depth == 2, elementStart == nil { elementStart = index }
                    elementEnd = index + 1
                }
            }
            index += 1
        }
        return lengths
    }
}
#endif
