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
    /// ```swift
    /// let value = try PropertyValue(json: #"{"item_name":"Pizza","price":9.5,"quantity":2}"#)
    /// // .object(["item_name": "Pizza", "price": 9.5, "quantity": 2])
    /// ```
    ///
    /// Strings must be valid UTF-8 (no replacement characters are made up), and arrays and objects may
    /// nest at most ``maximumDepth`` (64) levels: deeper input is refused, whatever its depth, without
    /// risking the stack.
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
    /// as a double; NaN and infinities, which JSON cannot hold, are written as `null`. An array or object
    /// nested deeper than ``maximumDepth`` (64) levels is written as `null`, the rule the client applies
    /// (and reports) before any event reaches a destination, so what is written here always reads back.
    public var jsonString: String {
        var writer = JSONWriter()
        writer.write(self)
        return writer.string
    }

    /// This value as UTF-8 encoded JSON. See ``jsonString``.
    public var jsonData: Data { Data(jsonString.utf8) }
}

extension Dictionary where Key == String, Value == PropertyValue {
    /// These properties as one compact JSON object with keys sorted. The dictionary is a frame, like
    /// ``Event/properties``: its values' arrays and objects are at level 1, and those past
    /// ``PropertyValue/maximumDepth`` are written as `null`.
    public var jsonString: String {
        var writer = JSONWriter()
        writer.writeObject(self)
        return writer.string
    }
}

/// Writes JSON text into a byte buffer.
///
/// Internal so the recording format and size checks can append several values to one buffer. Arrays and
/// objects past ``PropertyValue/maximumDepth`` levels are written as `null` and counted in
/// ``cutContainers``.
package struct JSONWriter {
    package var bytes: [UInt8] = []
    /// How many arrays and objects were written as `null` for nesting too deep.
    package var cutContainers = 0

    package init() { bytes.reserveCapacity(128) }

    package var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Writes `value`; an array or object there is at `level`.
    package mutating func write(_ value: PropertyValue, level: Int = 1) {
        switch value {
        case .string(let string): writeString(string)
        case .int(let int): writeRaw(String(int))
        case .double(let double): writeDouble(double)
        case .bigNumber(let number): writeRaw(number.text)
        case .bool(let bool): writeRaw(bool ? "true" : "false")
        case .null: writeRaw("null")
        case .array where level > PropertyValue.maximumDepth, .object where level > PropertyValue.maximumDepth:
            cutContainers += 1
            writeRaw("null")
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element, level: level + 1)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members): writeObject(members, level: level)
        }
    }

    /// Writes an object at `level`; level 0 is a frame, such as a record's `properties`.
    package mutating func writeObject(_ members: [String: PropertyValue], level: Int = 0) {
        writeMembers(members.keys.sorted(by: Self.keyOrder), level: level) { members[$0]! }  // keys of this dictionary
    }

    /// Writes an event's properties as one object, a frame (level 0), keys sorted.
    package mutating func writeObject(_ properties: Event.Properties) {
        guard !properties.shared.isEmpty else { return writeObject(properties.own) }
        writeMembers(properties.keys.sorted(by: Self.keyOrder), level: 0) { properties[$0]! }  // keys of these
    }

    /// The order of keys: by their UTF-8 bytes (code point order), a total order. `String`'s `<` is not one
    /// across normalization forms: neither of "caf\u{E9}8" and "cafe\u{301}" is below the other (Swift 6.3),
    /// so one dictionary's keys could be written in either order (found by Fuzz/FuzzJSON, issue 34).
    static func keyOrder(_ left: String, _ right: String) -> Bool {
        left.utf8.lexicographicallyPrecedes(right.utf8)
    }

    /// Writes `{"key":value,…}` for `keys` in their order, reading each value with `value`.
    private mutating func writeMembers(_ keys: [String], level: Int, value: (String) -> PropertyValue) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for key in keys {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            writeString(key)
            bytes.append(UInt8(ascii: ":"))
            write(value(key), level: level + 1)
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
                bytes.append(contentsOf: [
                    0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// A small, strict JSON reader over UTF-8 bytes that keeps integers and doubles apart.
///
/// Arrays and objects nested deeper than ``PropertyValue/maximumDepth`` are refused, so reading needs
/// little stack whatever the input; strings must be valid UTF-8.
package struct JSONReader {
    /// Deeper input than this is refused: ``PropertyValue/maximumDepth``.
    package static var maximumDepth: Int { PropertyValue.maximumDepth }

    private let input: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// True while an object the one-pass reader gave up on is read again: everything it nests is read by the
    /// counting reader too, so no level is read more than twice (otherwise each level would read its
    /// children twice, and a deep input would cost 2^depth reads).
    private var countingOnly = false

    private init(_ input: UnsafeBufferPointer<UInt8>) { self.input = input }

    /// Reads exactly one JSON value, with optional surrounding whitespace.
    package static func read(_ input: UnsafeBufferPointer<UInt8>) throws(JSONError) -> PropertyValue {
        var reader = JSONReader(input)
        reader.skipWhitespace()
        let value = try reader.readValue(level: 1)
        reader.skipWhitespace()
        guard reader.index == input.count else {
            throw JSONError("Unexpected text after the JSON value", offset: reader.index)
        }
        return value
    }

    /// Checks that the input is exactly one JSON value, with optional surrounding whitespace, by the rules of
    /// ``read(_:)`` (the value at level 1), building nothing. A caller that needs ``read(_:)``'s exact error
    /// reads the input again when this throws.
    ///
    /// Unlike ``read(_:)``, it does not refuse an object whose keys differ only in Unicode normalization:
    /// it compares no keys. Input whose keys are all ASCII without escapes has none.
    package static func validate(_ input: UnsafeBufferPointer<UInt8>) throws(JSONError) {
        var reader = JSONReader(input)
        reader.skipWhitespace()
        try reader.skip(level: 1)
        reader.skipWhitespace()
        guard reader.index == input.count else {
            throw JSONError("Unexpected text after the JSON value", offset: reader.index)
        }
    }

    /// Reads one JSON object member by member, handing each key and the reader positioned at its value
    /// to `member`, which must read the value with ``nextValue()``, ``nextObject()`` or ``skipValue()``. Used
    /// by the record decoder so it builds no dictionary for the record itself. The object read here is a
    /// frame, not a value: it is at level 0.
    package static func readMembers(
        _ input: UnsafeBufferPointer<UInt8>, _ member: (JSONKey, inout JSONReader) throws(JSONError) -> Void
    ) throws(JSONError) {
        var reader = JSONReader(input)
        reader.skipWhitespace()
        guard reader.peek() == UInt8(ascii: "{") else {
            _ = try reader.readValue(level: 1)  // malformed JSON says what is wrong with it
            throw JSONError("Expected a JSON object", offset: 0)
        }
        reader.index += 1
        reader.skipWhitespace()
        if reader.peek() == UInt8(ascii: "}") {
            reader.index += 1
        } else {
            while true {
                reader.skipWhitespace()
                guard reader.peek() == UInt8(ascii: "\"") else {
                    throw JSONError("Expected a string key", offset: reader.index)
                }
                let key = try reader.readKey()
                reader.skipWhitespace()
                guard reader.peek() == UInt8(ascii: ":") else {
                    throw JSONError("Expected ':' after a key", offset: reader.index)
                }
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
        guard reader.index == input.count else {
            throw JSONError("Unexpected text after the JSON value", offset: reader.index)
        }
    }

    /// Reads the value at the current position (a member's value, inside ``readMembers(_:_:)``), as a value
    /// of its own: an array or object there is at level 1.
    package mutating func nextValue() throws(JSONError) -> PropertyValue {
        try readValue(level: 1)
    }

    /// Reads the object at the current position as a frame at level 0, like ``Event/properties``: its
    /// members' arrays and objects are at level 1. Returns nil, having read the value, when it is not an
    /// object.
    package mutating func nextObject() throws(JSONError) -> [String: PropertyValue]? {
        guard peek() == UInt8(ascii: "{") else {
            _ = try readValue(level: 1)
            return nil
        }
        return try readObject(level: 0)
    }

    /// Whether the value at the current position is an object.
    package var isAtObject: Bool { peek() == UInt8(ascii: "{") }

    /// Steps over the value at the current position, checking it is well formed (by the same rules as
    /// ``nextObject()`` for an object) but building nothing.
    package mutating func skipValue() throws(JSONError) {
        try skip(level: 0)
    }

    private mutating func skip(level: Int) throws(JSONError) {
        guard let byte = peek() else { throw JSONError("Unexpected end of input", offset: index) }
        switch byte {
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard level <= Self.maximumDepth else { throw nestingTooDeep() }
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
                    try skipString()
                    skipWhitespace()
                    guard peek() == UInt8(ascii: ":") else {
                        throw JSONError("Expected ':' after a key", offset: index)
                    }
                    index += 1
                    skipWhitespace()
                }
                try skip(level: level + 1)
                skipWhitespace()
                guard let next = peek() else { throw JSONError("Unexpected end of input", offset: index) }
                if next == close {
                    index += 1
                    return
                }
                guard next == UInt8(ascii: ",") else {
                    throw JSONError("Expected ',' or a closing bracket", offset: index)
                }
                index += 1
            }
        default:
            _ = try readValue(level: level)
        }
    }

    /// Reads the string at the current position as a member's key: its bytes in the input when it has no
    /// escapes (the common case: no `String` is made), else the decoded string.
    private mutating func readKey() throws(JSONError) -> JSONKey {
        let start = index + 1
        try skipString()
        let raw = UnsafeBufferPointer(rebasing: input[start..<(index - 1)])
        guard raw.contains(UInt8(ascii: "\\")) else { return JSONKey(raw: raw, decoded: nil) }
        index = start - 1
        return JSONKey(raw: raw, decoded: try readString())
    }

    /// Skips the bytes of a string that need no attention, eight at a time: from `index`, up to the first
    /// quote, backslash, control character or non-ASCII byte.
    @inline(__always)
    private mutating func skipPlainASCII() {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while input.count - index >= 8 {
            let word = UnsafeRawPointer(input.baseAddress! + index).loadUnaligned(as: UInt64.self)
            // A byte is special when it is >= 0x80, < 0x20, '"' (0x22) or '\\' (0x5C); each test below sets
            // the high bit of the bytes it finds (the usual "has zero byte" trick, exact for ASCII bytes).
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let special =
                word | ((word &- ones &* 0x20) & ~word) | ((quote &- ones) & ~quote)
                | ((backslash &- ones) & ~backslash)
            if special & highs != 0 { return }
            index += 8
        }
    }

    /// Steps over the string at the current position, checking its escapes and its UTF-8 as
    /// ``readString()`` does.
    private mutating func skipString() throws(JSONError) {
        index += 1  // opening quote
        let start = index
        var bits: UInt8 = 0
        while index < input.count {
            skipPlainASCII()
            guard index < input.count else { break }
            let byte = input[index]
            switch byte {
            case UInt8(ascii: "\""):
                if bits & 0x80 != 0 { try validateUTF8(start..<index) }
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 1
                guard let escape = peek() else { break }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    continue
                case UInt8(ascii: "u"): _ = try readEscapedScalar()
                default: throw JSONError("Invalid escape '\\\(Unicode.Scalar(escape))'", offset: index - 2)
                }
            case 0..<0x20: throw JSONError("Unescaped control character in a string", offset: index)
            default:
                bits |= byte
                index += 1
            }
        }
        throw JSONError("Unterminated string", offset: input.count)
    }

    private func nestingTooDeep() -> JSONError {
        JSONError("Nesting deeper than \(Self.maximumDepth) levels", offset: index)
    }

    /// Throws when `range` of the input is not valid UTF-8 (a stray continuation byte, a cut or overlong
    /// sequence, a surrogate, or a code point past U+10FFFF), naming the offset of the first bad byte.
    private func validateUTF8(_ range: Range<Int>) throws(JSONError) {
        var index = range.lowerBound
        while index < range.upperBound {
            let lead = input[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lowest: UInt8 = 0x80
            var highest: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                lowest = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                highest = 0x9F
            case 0xF0:
                length = 4
                lowest = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                highest = 0x8F
            default: throw JSONError("Invalid UTF-8 in a string", offset: index)
            }
            guard range.upperBound - index >= length else {
                throw JSONError("Invalid UTF-8 in a string", offset: index)
            }
            let second = input[index + 1]
            guard second >= lowest && second <= highest else {
                throw JSONError("Invalid UTF-8 in a string", offset: index)
            }
            for next in (index + 2)..<(index + length) where input[next] & 0xC0 != 0x80 {
                throw JSONError("Invalid UTF-8 in a string", offset: index)
            }
            index += length
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

    /// Reads the value at the current position; an array or object there is at `level`.
    private mutating func readValue(level: Int) throws(JSONError) -> PropertyValue {
        guard let byte = peek() else { throw JSONError("Unexpected end of input", offset: index) }
        switch byte {
        case UInt8(ascii: "{"):
            guard level <= Self.maximumDepth else { throw nestingTooDeep() }
            return .object(try readObject(level: level))
        case UInt8(ascii: "["):
            guard level <= Self.maximumDepth else { throw nestingTooDeep() }
            return try readArray(level: level)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): return try expect("true", value: .bool(true))
        case UInt8(ascii: "f"): return try expect("false", value: .bool(false))
        case UInt8(ascii: "n"): return try expect("null", value: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default: throw JSONError("Unexpected character '\(Unicode.Scalar(byte))'", offset: index)
        }
    }

    /// How many members of an object are read onto the stack (``readSmallObject(level:)``).
    private static var smallObjectMembers: Int { 12 }

    /// Reads the object at the current position, at `level`: its members' arrays and objects are one
    /// level deeper.
    private mutating func readObject(level: Int) throws(JSONError) -> [String: PropertyValue] {
        if countingOnly { return try readCountedObject(level: level) }
        let start = index
        // Objects are read in one pass. One that is not well formed is read again by the counting reader
        // below, which says what is wrong exactly as it always has (the first error in the object, found
        // before any member is built), and so is everything inside it.
        do {
            return try readObjectInOnePass(level: level)
        } catch {
            index = start
            countingOnly = true
            defer { countingOnly = false }
            return try readCountedObject(level: level)
        }
    }

    /// Reads the object at the current position in one pass: up to ``smallObjectMembers`` members on the
    /// stack (most objects, an event's properties), the rest straight into the dictionary they become.
    private mutating func readObjectInOnePass(level: Int) throws(JSONError) -> [String: PropertyValue] {
        guard var first = try readSmallObject(level: level) else { return [:] }
        if !first.isComplete { try readMembers(into: &first.members, level: level) }
        return first.members
    }

    /// Reads members into `members` up to and past the object's `}`, from the reader's index at a member.
    private mutating func readMembers(into members: inout [String: PropertyValue], level: Int) throws(JSONError) {
        while true {
            let (key, keyOffset, value) = try readMember(level: level)
            if members.updateValue(value, forKey: key) != nil {
                try Self.checkSameKey(key, in: members, offset: keyOffset)
            }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return
            case nil: throw JSONError("Unexpected end of input in an object", offset: index)
            default: throw JSONError("Expected ',' or '}' in an object", offset: index)
            }
        }
    }

    /// One member, `"key": value`, from its key's opening quote.
    @inline(__always)
    private mutating func readMember(level: Int) throws(JSONError) -> (String, Int, PropertyValue) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw JSONError("Expected a string key", offset: index) }
        let keyOffset = index
        let key = try readString()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw JSONError("Expected ':' after a key", offset: index) }
        index += 1
        skipWhitespace()
        return (key, keyOffset, try readValue(level: level + 1))
    }

    /// The first members of an object, read by ``readSmallObject(level:)``.
    private struct FirstMembers {
        var members: [String: PropertyValue]
        /// False when the object has more members, from the reader's index on.
        var isComplete: Bool
    }

    /// Reads an object's first ``smallObjectMembers`` members: they go to a buffer on the stack, then into a
    /// dictionary allocated once at its final size when that is all of them. Otherwise the dictionary is
    /// returned incomplete, the index at the next member. It throws when the object is not well formed.
    private mutating func readSmallObject(level: Int) throws(JSONError) -> FirstMembers? {
        index += 1  // {
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return nil
        }
        typealias Member = (key: String, value: PropertyValue, keyOffset: Int)
        return try withUnsafeTemporaryAllocation(of: Member.self, capacity: Self.smallObjectMembers) {
            buffer throws(JSONError) -> FirstMembers in
            var count = 0
            defer { buffer.baseAddress!.deinitialize(count: count) }
            func collect(capacity: Int) throws(JSONError) -> [String: PropertyValue] {
                var members = [String: PropertyValue](minimumCapacity: capacity)
                for member in buffer[..<count] where members.updateValue(member.value, forKey: member.key) != nil {
                    try Self.checkSameKey(member.key, in: members, offset: member.keyOffset)
                }
                return members
            }
            while true {
                guard count < buffer.count else {
                    return FirstMembers(members: try collect(capacity: 2 * count), isComplete: false)
                }
                let (key, keyOffset, value) = try readMember(level: level)
                (buffer.baseAddress! + count).initialize(to: (key, value, keyOffset))
                count += 1
                skipWhitespace()
                switch peek() {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    return FirstMembers(members: try collect(capacity: count), isComplete: true)
                case nil: throw JSONError("Unexpected end of input in an object", offset: index)
                default: throw JSONError("Expected ',' or '}' in an object", offset: index)
                }
            }
        }
    }

    /// Reads the object at the current position, at `level`, counting its members first.
    private mutating func readCountedObject(level: Int) throws(JSONError) -> [String: PropertyValue] {
        // Count the members first (a scan that builds nothing), so the dictionary is allocated once at its
        // final size instead of growing member by member.
        let start = index
        let count = try countMembers(level: level)
        index = start + 1  // past {
        var members = [String: PropertyValue](minimumCapacity: count)
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return members
        }
        try readMembers(into: &members, level: level)
        return members
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
            "\""
                + text.unicodeScalars.map {
                    $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}"
                }
                .joined() + "\""
        }
        throw JSONError(
            "The object has keys \(codePoints(other)) and \(codePoints(key)), which differ only in Unicode normalization; an event cannot hold both",
            offset: offset)
    }

    /// The number of members of the object at the current position; leaves the index after it.
    private mutating func countMembers(level: Int) throws(JSONError) -> Int {
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
            try skipString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw JSONError("Expected ':' after a key", offset: index) }
            index += 1
            skipWhitespace()
            try skip(level: level + 1)
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

    private mutating func readArray(level: Int) throws(JSONError) -> PropertyValue {
        index += 1  // [
        var elements: [PropertyValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try readValue(level: level + 1))
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
        // Every byte ORed together: the high bit says whether there is anything but ASCII to validate.
        var bits: UInt8 = 0
        // Fast path: no escapes.
        while index < input.count {
            skipPlainASCII()
            guard index < input.count else { break }
            let byte = input[index]
            if byte == UInt8(ascii: "\"") {
                if bits & 0x80 != 0 { try validateUTF8(start..<index) }
                let string = String(decoding: UnsafeBufferPointer(rebasing: input[start..<index]), as: UTF8.self)
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw JSONError("Unescaped control character in a string", offset: index) }
            bits |= byte
            index += 1
        }
        if bits & 0x80 != 0 { try validateUTF8(start..<index) }
        var scalars: [UInt8] = Array(input[start..<index])
        var runStart = index
        var runBits: UInt8 = 0
        while index < input.count {
            let byte = input[index]
            switch byte {
            case UInt8(ascii: "\""):
                if runBits & 0x80 != 0 { try validateUTF8(runStart..<index) }
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                if runBits & 0x80 != 0 { try validateUTF8(runStart..<index) }
                runBits = 0
                index += 1
                guard let escape = peek() else { break }
                index += 1
                defer { runStart = index }
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
                    let scalar = try readEscapedScalar()
                    scalars.append(contentsOf: String(Character(scalar)).utf8)
                default:
                    throw JSONError("Invalid escape '\\\(Unicode.Scalar(escape))'", offset: index - 2)
                }
            default:
                if byte < 0x20 { throw JSONError("Unescaped control character in a string", offset: index) }
                runBits |= byte
                scalars.append(byte)
                index += 1
            }
        }
        throw JSONError("Unterminated string", offset: input.count)
    }

    /// Reads the four hex digits after `\u` (and, for a high surrogate, the escaped low surrogate that
    /// must follow) as one Unicode scalar.
    private mutating func readEscapedScalar() throws(JSONError) -> Unicode.Scalar {
        var scalar = try readHex4()
        if (0xD800..<0xDC00).contains(scalar) {
            // A high surrogate must be followed by an escaped low surrogate.
            guard index + 1 < input.count, input[index] == UInt8(ascii: "\\"), input[index + 1] == UInt8(ascii: "u")
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
        return Unicode.Scalar(scalar)!  // not a surrogate, at most U+10FFFF
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
        var fractionDigits = 0
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            fractionDigits = skipDigits()
            guard fractionDigits > 0 else { throw JSONError("Expected a digit after '.'", offset: index) }
        }
        var hasExponent = false
        if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            isInteger = false
            hasExponent = true
            index += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw JSONError("Expected a digit in the exponent", offset: index) }
        }
        // At most 18 digits (with a sign) fit in Int64, no String needed. In Int64, not Int: on a watch
        // (arm64_32) Int has 32 bits, and such a number beyond them is a big number, not a wrapped Int.
        if isInteger, index - start <= 18 {
            var value: Int64 = 0
            var position = input[start] == UInt8(ascii: "-") ? start + 1 : start
            while position < index {
                value = value * 10 + Int64(input[position] &- UInt8(ascii: "0"))
                position += 1
            }
            if input[start] == UInt8(ascii: "-") { value = -value }
            if let int = Int(exactly: value) { return .int(int) }
            return .bigNumber(BigNumber(exactly: value)!)  // beyond a 32-bit Int
        }
        // A decimal of at most 15 digits and no exponent is digits / 10^k with both exact doubles, and one
        // division of exact doubles rounds correctly (Clinger's fast path): no String, no strtod.
        if !isInteger, !hasExponent, index - start <= 16 {
            var mantissa: Int64 = 0  // up to 15 digits: beyond a 32-bit Int
            var position = input[start] == UInt8(ascii: "-") ? start + 1 : start
            while position < index {
                if input[position] != UInt8(ascii: ".") {
                    mantissa = mantissa * 10 + Int64(input[position] &- UInt8(ascii: "0"))
                }
                position += 1
            }
            let value = Double(mantissa) / Self.powersOfTen[fractionDigits]
            return .double(input[start] == UInt8(ascii: "-") ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<index]), as: UTF8.self)
        if isInteger {
            if let int = Int(text) { return .int(int) }
        } else if let double = Double(text), double.isFinite {
            return .double(double)
        }
        return .bigNumber(BigNumber(validatedText: text))
    }

    /// 10^0 through 10^15, each exact as a double.
    private static let powersOfTen: [Double] = (0...15).map { (0..<$0).reduce(1.0) { value, _ in value * 10 } }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = index
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }
}

/// An object member's key as ``JSONReader/readMembers(_:_:)`` hands it over: compared with a literal
/// without making a `String`.
package struct JSONKey {
    /// The key's bytes in the input, escapes and all.
    private let raw: UnsafeBufferPointer<UInt8>
    /// The key, when it has escapes.
    private let decoded: String?

    fileprivate init(raw: UnsafeBufferPointer<UInt8>, decoded: String?) {
        self.raw = raw
        self.decoded = decoded
    }

    /// The key as a string.
    package var string: String { decoded ?? String(decoding: raw, as: UTF8.self) }

    /// Whether the key is `literal`.
    package static func ~= (literal: StaticString, key: JSONKey) -> Bool {
        if let decoded = key.decoded { return decoded == "\(literal)" }
        return literal.utf8CodeUnitCount == key.raw.count
            && memcmp(literal.utf8Start, key.raw.baseAddress!, key.raw.count) == 0
    }
}
