#if Collector
/// Byte ranges inside JSON that has already been read once without errors: the members of an object, the
/// elements of an array. Ingest uses them to read only the fields it needs and to keep `properties` and
/// `context` as the client sent them, instead of building and re-encoding every value.
///
/// The input must be valid JSON (``IngestBody`` checks the whole body first); on anything else the ranges
/// are unspecified but stay within the input.
enum JSONSpans {
    /// The members of the object starting at `range.lowerBound` (a `{`): each key's bytes (without quotes)
    /// and its value's bytes (without surrounding whitespace).
    static func members(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [(
        key: Range<Int>, value: Range<Int>
    )] {
        var members: [(key: Range<Int>, value: Range<Int>)] = []
        members.reserveCapacity(16)  // most objects have fewer members: one allocation
        var index = skipSpace(bytes, range.lowerBound + 1, range.upperBound)
        while index < range.upperBound, bytes[index] == UInt8(ascii: "\"") {
            let keyEnd = endOfString(bytes, index, range.upperBound)
            let key = (index + 1)..<(keyEnd - 1)
            index = skipSpace(bytes, keyEnd, range.upperBound)
            index = skipSpace(bytes, index + 1, range.upperBound)  // past ':'
            let valueEnd = endOfValue(bytes, index, range.upperBound)
            members.append((key, index..<valueEnd))
            index = skipSpace(bytes, valueEnd, range.upperBound)
            if index < range.upperBound, bytes[index] == UInt8(ascii: ",") {
                index = skipSpace(bytes, index + 1, range.upperBound)
            }
        }
        return members
    }

    /// The elements of the array starting at `range.lowerBound` (a `[`).
    static func elements(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [Range<Int>] {
        var elements: [Range<Int>] = []
        elements.reserveCapacity(16)
        var index = skipSpace(bytes, range.lowerBound + 1, range.upperBound)
        while index < range.upperBound, bytes[index] != UInt8(ascii: "]") {
            let end = endOfValue(bytes, index, range.upperBound)
            elements.append(index..<end)
            index = skipSpace(bytes, end, range.upperBound)
            if index < range.upperBound, bytes[index] == UInt8(ascii: ",") {
                index = skipSpace(bytes, index + 1, range.upperBound)
            }
        }
        return elements
    }

    /// The whole input without leading and trailing whitespace.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    /// One past the value starting at `start`.
    private static func endOfValue(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ limit: Int) -> Int {
        guard start < limit else { return limit }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return endOfString(bytes, start, limit)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < limit {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = endOfString(bytes, index, limit)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return limit
        default:  // a number or a literal
            var index = start
            while index < limit {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"): return index
                case let byte where isSpace(byte): return index
                default: index += 1
                }
            }
            return limit
        }
    }

    /// One past the closing quote of the string starting at `start`.
    private static func endOfString(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ limit: Int) -> Int {
        var index = start + 1
        while index < limit {
            switch bytes[index] {
            case UInt8(ascii: "\""): return index + 1
            case UInt8(ascii: "\\"): index += 2
            default: index += 1
            }
        }
        return limit
    }

    private static func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ limit: Int) -> Int {
        var index = start
        while index < limit, isSpace(bytes[index]) { index += 1 }
        return index
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
#endif
