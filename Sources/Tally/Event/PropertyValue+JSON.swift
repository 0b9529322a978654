import Foundation

/// An error reading JSON: what was wrong and the byte offset where reading stopped.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, in one sentence.
    public var message: String
    /// The zero-based UTF-8 byte offset in the input where the problem was found.
    public var offset: Int

    /// Creates an error.
    public init(_ message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "\(message) (at byte \(offset))" }
}

extension PropertyValue {
    /// Reads a JSON text.
    ///
    /// Numbers written without a fraction or exponent become ``int(_:)``, and all others ``double(_:)``, so
    /// `1` and `1.0` round-trip as different cases. A number neither holds (an integer beyond `Int`, or a
    /// number beyond the largest double) becomes ``bigNumber(_:)`` with its text, so no number is rounded
    /// to another integer or turned into `null`.
    ///
    /// - Parameter json: one complete JSON value; surrounding whitespace is allowed.
    /// - Throws: ``JSONError`` naming the byte offset of the first problem.
    public init(json: String) throws {
        var json = json
        self = try json.withUTF8 { try JSONReader.read($0) }
    }

    /// Reads a JSON text from UTF-8 bytes. See ``init(json:)``.
    public init(jsonBytes: some Collection<UInt8>) throws {
        if let value = try jsonBytes.withContiguousStorageIfAvailable({ try JSONReader.read($0) }) {
            self = value
        } else {
            self = try Array(jsonBytes).withUnsafeBufferPointer { try JSONReader.read($0) }
        }
    }

    /// This value as compact JSON with object keys sorted, so equal values give equal text.
    ///
    /// A double is always written with a fraction or an exponent (`2.0`, `1e+300`) so that it reads back
    /// as a double; NaN and infinities, which JSON cannot hold, are written as `null`.
    public var jsonString: String {
        var writer = JSONWriter()
        writer.write(self)
        return writer.string
    }

    /// This value as UTF-8 encoded JSON. See ``jsonString``.
    public var jsonData: Data { Data(jsonString.utf8) }
}

extension Dictionary where Key == String, Value == PropertyValue {
    /// These properties as one compact JSON object with keys sorted.
    public var jsonString: String {
        var writer = JSONWriter()
        writer.writeObject(self)
        return writer.string
    }
}

/// Writes JSON text into a byte buffer.
///
/// Internal so the recording format and size checks can append several values to one buffer.
package struct JSONWriter {
    package var bytes: [UInt8] = []

    package init() { bytes.reserveCapacity(128) }

    package var string: String { String(decoding: bytes, as: UTF8.self) }

    package mutating func write(_ value: PropertyValue) {
        switch value {
        case .string(let string): writeString(string)
        case .int(let int): writeRaw(String(int))
        case .double(let double): writeDouble(double)
        case .bigNumber(let number): writeRaw(number.text)
        case .bool(let bool): writeRaw(bool ? "true" : "false")
        case .null: writeRaw("null")
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members): writeObject(members)
        }
    }

    package mutating func writeObject(_ members: [String: PropertyValue]) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for key in members.keys.sorted() {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            writeString(key)
            bytes.append(UInt8(ascii: ":"))
            write(members[key]!)  // the key came from this dictionary
        }
        bytes.append(UInt8(ascii: "}"))
    }

    package mutating func writeDouble(_ double: Double) {
        guard double.isFinite else { return writeRaw("null") }
        let text = double.description
        writeRaw(text)
        // `description` writes integral values as `2.0` already; keep the guard for any format change.
        if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) { writeRaw(".0") }
    }

    package mutating func writeRaw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    package mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// A small, strict JSON reader over UTF-8 bytes that keeps integers and doubles apart.
package struct JSONReader {
    /// Deeper input than this is refused instead of risking the stack.
    package static let maximumDepth = 512

    private let input: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ input: UnsafeBufferPointer<UInt8>) { self.input = input }

    /// Reads exactly one JSON value, with optional surrounding whitespace.
    package static func read(_ input: UnsafeBufferPointer<UInt8>) throws(JSONError) -> PropertyValue {
        var reader = JSONReader(input)
        reader.skipWhitespace()
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        guard reader.index == input.count else {
            throw JSONError("Unexpected text after the JSON value", offset: reader.index)
        }
        return value
    }

    /// Reads one JSON object member by member, handing each key and the reader positioned at its value
    /// to `member`, which must read the value with ``nextValue()``. Used by the record decoder so it builds
    /// no dictionary for the record itself.
    package static func readMembers(
        _ input: UnsafeBufferPointer<UInt8>, _ member: (String, inout JSONReader) throws(JSONError) -> Void
    ) throws(JSONError) {
        var reader = JSONReader(input)
        reader.skipWhitespace()
        guard reader.peek() == UInt8(ascii: "{") else {
            _ = try reader.readValue(depth: 0)  // malformed JSON says what is wrong with it
            throw JSONError("Expected a JSON object", offset: 0)
        }
        reader.index += 1
        reader.skipWhitespace()
        if reader.peek() == UInt8(ascii: "}") {
            reader.index += 1
        } else {
            while true {
                reader.skipWhitespace()
                guard reader.peek() == UInt8(ascii: "\"") else { throw JSONError("Expected a string key", offset: reader.index) }
                let key = try reader.readString()
                reader.skipWhitespace()
                guard reader.peek() == UInt8(ascii: ":") else { throw JSONError("Expected ':' after a key", offset: reader.index) }
                reader.index += 1
                reader.skipWhitespace()
                try member(key, &reader)
                reader.skipWhitespace()
                switch reader.peek() {
                case UInt8(ascii: ","): reader.index += 1
                case UInt8(ascii: "}"):
                    reader.index += 1
                    reader.skipWhitespace()
                    guard reader.index == input.count else {
                        throw JSONError("Unexpected text after the JSON value", offset: reader.index)
                    }
                    return
                case nil: throw JSONError("Unexpected end of input in an object", offset: reader.index)
                default: throw JSONError("Expected ',' or '}' in an object", offset: reader.index)
                }
            }
        }
        reader.skipWhitespace()
        guard reader.index == input.count else { throw JSONError("Unexpected text after the JSON value", offset: reader.index) }
    }

    /// Reads the value at the current position (a member's value, inside ``readMembers(_:_:)``).
    package mutating func nextValue() throws(JSONError) -> PropertyValue {
        try readValue(depth: 1)
    }

    /// Steps over the value at the current position, checking it is well formed but building nothing.
    package mutating func skipValue() throws(JSONError) {
        try skip(depth: 1)
    }

    private mutating func skip(depth: Int) throws(JSONError) {
        guard depth < Self.maximumDepth else {
            throw JSONError("Nesting deeper than \(Self.maximumDepth) levels", offset: index)
        }
        guard let byte = peek() else { throw JSONError("Unexpected end of input", offset: index) }
        switch byte {
        case UInt8(ascii: "\""):
            index += 1
            while index < input.count {
                switch input[index] {
                case UInt8(ascii: "\""):
                    index += 1
                    return
                case UInt8(ascii: "\\"): index += 2
                case 0..<0x20: throw JSONError("Unescaped control character in a string", offset: index)
                default: index += 1
                }
            }
            throw JSONError("Unterminated string", offset: input.count)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            index += 1
            skipWhitespace()
            if peek() == close {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                if close == UInt8(ascii: "}") {
                    guard peek() == UInt8(ascii: "\"") else { throw JSONError("Expected a string key", offset: index) }
                    try skip(depth: depth + 1)
                    skipWhitespace()
                    guard peek() == UInt8(ascii: ":") else { throw JSONError("Expected ':' after a key", offset: index) }
                    index += 1
                    skipWhitespace()
                }
                try skip(depth: depth + 1)
                skipWhitespace()
                guard let next = peek() else { throw JSONError("Unexpected end of input", offset: index) }
                if next == close {
                    index += 1
                    return
                }
                guard next == UInt8(ascii: ",") else { throw JSONError("Expected ',' or a closing bracket", offset: index) }
                index += 1
            }
        default:
            _ = try readValue(depth: depth)
        }
    }

    private mutating func skipWhitespace() {
        while index < input.count {
            switch input[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func peek() -> UInt8? { index < input.count ? input[index] : nil }

    private mutating func expect(_ literal: StaticString, value: PropertyValue) throws(JSONError) -> PropertyValue {
        let start = index
        let count = literal.utf8CodeUnitCount
        guard input.count - index >= count else { throw JSONError("Unexpected end of input", offset: input.count) }
        let ok = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { input[start + $0] == expected[$0] }
        }
        guard ok else { throw JSONError("Invalid literal", offset: start) }
        index += count
        return value
    }

    private mutating func readValue(depth: Int) throws(JSONError) -> PropertyValue {
        guard depth < Self.maximumDepth else {
            throw JSONError("Nesting deeper than \(Self.maximumDepth) levels", offset: index)
        }
        guard let byte = peek() else { throw JSONError("Unexpected end of input", offset: index) }
        switch byte {
        case UInt8(ascii: "{"): return .object(try readObject(depth: depth))
        case UInt8(ascii: "["): return try readArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): return try expect("true", value: .bool(true))
        case UInt8(ascii: "f"): return try expect("false", value: .bool(false))
        case UInt8(ascii: "n"): return try expect("null", value: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default: throw JSONError("Unexpected character '\(Unicode.Scalar(byte))'", offset: index)
        }
    }

    /// Reads an object; also used directly by the recording decoder.
    package mutating func readObject(depth: Int) throws(JSONError) -> [String: PropertyValue] {
        // Count the members first (a scan that builds nothing), so the dictionary is allocated once at its
        // final size instead of growing member by member.
        let start = index
        let count = try countMembers(depth: depth)
        index = start + 1  // past {
        var members = [String: PropertyValue](minimumCapacity: count)
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return members
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw JSONError("Expected a string key", offset: index) }
            let keyOffset = index
            let key = try readString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw JSONError("Expected ':' after a key", offset: index) }
            index += 1
            skipWhitespace()
            if members.updateValue(try readValue(depth: depth + 1), forKey: key) != nil {
                try Self.checkSameKey(key, in: members, offset: keyOffset)
            }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return members
            case nil: throw JSONError("Unexpected end of input in an object", offset: index)
            default: throw JSONError("Expected ',' or '}' in an object", offset: index)
            }
        }
    }

    /// A repeated key keeps its last value, as JSON readers do. But `String` also equates keys that differ only
    /// in Unicode normalization ("é" as U+00E9, or as "e" and U+0301), which JSON keeps apart; a dictionary
    /// cannot hold both, so such an object is refused rather than merged.
    private static func checkSameKey(
        _ key: String, in members: [String: PropertyValue], offset: Int
    ) throws(JSONError) {
        guard let stored = members.index(forKey: key)
        else { return }
        let other = members[stored].key
        guard !other.utf8.elementsEqual(key.utf8) else { return }
        func codePoints(_ text: String) -> String {
            "\"" + text.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }
                .joined() + "\""
        }
        throw JSONError(
            "The object has keys \(codePoints(other)) and \(codePoints(key)), which differ only in Unicode normalization; an event cannot hold both",
            offset: offset)
    }

    /// The number of members of the object at the current position; leaves the index after it.
    private mutating func countMembers(depth: Int) throws(JSONError) -> Int {
        index += 1  // {
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return 0
        }
        var count = 0
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw JSONError("Expected a string key", offset: index) }
            try skip(depth: depth + 1)
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw JSONError("Expected ':' after a key", offset: index) }
            index += 1
            skipWhitespace()
            try skip(depth: depth + 1)
            count += 1
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return count
            case nil: throw JSONError("Unexpected end of input in an object", offset: index)
            default: throw JSONError("Expected ',' or '}' in an object", offset: index)
            }
        }
    }

    private mutating func readArray(depth: Int) throws(JSONError) -> PropertyValue {
        index += 1  // [
        var elements: [PropertyValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try readValue(depth: depth + 1))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            case nil: throw JSONError("Unexpected end of input in an array", offset: index)
            default: throw JSONError("Expected ',' or ']' in an array", offset: index)
            }
        }
    }

    private mutating func readString() throws(JSONError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "\"") {
                let string = String(decoding: UnsafeBufferPointer(rebasing: input[start..<index]), as: UTF8.self)
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw JSONError("Unescaped control character in a string", offset: index) }
            index += 1
        }
        var scalars: [UInt8] = Array(input[start..<index])
        while index < input.count {
            let byte = input[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard let escape = peek() else { break }
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(0x22)
                case UInt8(ascii: "\\"): scalars.append(0x5C)
                case UInt8(ascii: "/"): scalars.append(0x2F)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try readHex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A high surrogate must be followed by an escaped low surrogate.
                        guard index + 1 < input.count, input[index] == UInt8(ascii: "\\"),
                            input[index + 1] == UInt8(ascii: "u")
                        else { throw JSONError("Unpaired surrogate in a string", offset: index) }
                        index += 2
                        let low = try readHex4()
                        guard (0xDC00..<0xE000).contains(low) else {
                            throw JSONError("Unpaired surrogate in a string", offset: index)
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw JSONError("Unpaired surrogate in a string", offset: index)
                    }
                    scalars.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
                default:
                    throw JSONError("Invalid escape '\\\(Unicode.Scalar(escape))'", offset: index - 2)
                }
            default:
                if byte < 0x20 { throw JSONError("Unescaped control character in a string", offset: index) }
                scalars.append(byte)
                index += 1
            }
        }
        throw JSONError("Unterminated string", offset: input.count)
    }

    private mutating func readHex4() throws(JSONError) -> UInt32 {
        guard input.count - index >= 4 else { throw JSONError("Truncated \\u escape", offset: index) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = input[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONError("Invalid hex digit in a \\u escape", offset: index)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func readNumber() throws(JSONError) -> PropertyValue {
        let start = index
        var isInteger = true
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            throw JSONError("Expected a digit", offset: index)
        }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
                throw JSONError("Leading zeros are not allowed", offset: index)
            }
        } else {
            skipDigits()
        }
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard skipDigits() > 0 else { throw JSONError("Expected a digit after '.'", offset: index) }
        }
        if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw JSONError("Expected a digit in the exponent", offset: index) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<index]), as: UTF8.self)
        if isInteger {
            if let int = Int(text) { return .int(int) }
        } else if let double = Double(text), double.isFinite {
            return .double(double)
        }
        return .bigNumber(BigNumber(validatedText: text))
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = index
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }
}

// MARK: - Codable

extension PropertyValue: Codable {
    /// Decodes any JSON-like value from a decoder.
    ///
    /// Foreign decoders such as `JSONDecoder` do not say whether a number was written as `1` or `1.0`, so
    /// through them a whole-number double may come back as ``int(_:)``. Use ``init(json:)`` and
    /// ``jsonString`` (as Tally's recordings do) for a lossless round trip.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? container.decode(Int.self) {
            self = .int(int)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([PropertyValue].self) {
            self = .array(array)
        } else if let object = try? container.decode([String: PropertyValue].self) {
            self = .object(object)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Expected a JSON value (string, number, boolean, array, object or null)")
        }
    }

    /// Encodes the value; non-finite doubles are encoded as nil.
    ///
    /// A ``bigNumber(_:)`` is encoded as a `Decimal` when one holds it exactly (up to 38 significant digits);
    /// otherwise encoding throws `EncodingError.invalidValue` rather than round it. ``jsonString`` writes any
    /// big number exactly.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): value.isFinite ? try container.encode(value) : try container.encodeNil()
        case .bigNumber(let value):
            guard let decimal = value.exactDecimal else {
                throw EncodingError.invalidValue(
                    value,
                    .init(
                        codingPath: encoder.codingPath,
                        debugDescription: "\(value) has more significant digits than Decimal holds; use jsonString"))
            }
            try container.encode(decimal)
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}
