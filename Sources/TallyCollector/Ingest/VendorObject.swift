#if Collector
import HTTPTypes
import Tally

/// A vendor request body (PostHog's, Amplitude's, Mixpanel's data), checked once and then read where it lies:
/// its messages and their fields are byte ranges of the body, and a field is decoded only when a decoder asks
/// for it. What the vendors' decoders read from it, and the errors they give, are those of the whole body
/// read into values (``PropertyValue``); it only builds less.
///
/// A body whose bytes are all ASCII, without a backslash, is the common case and the fast one: it is checked
/// by a pass that builds nothing, and the properties the collector stores are written from its bytes
/// (``VendorObject/jsonString``) as ``PropertyValue/jsonString`` would write them. Any other body is read
/// into values first, which also refuses keys that differ only in Unicode normalization, and its properties
/// are written from values.
struct VendorBody {
    /// The body's bytes.
    let bytes: [UInt8]
    /// Whether every byte is ASCII and none is a backslash.
    let isPlain: Bool

    /// Checks `bytes` is one JSON value.
    ///
    /// - Throws: ``APIError`` 400 `invalid_json` naming `what`, with the reader's error.
    init(_ bytes: [UInt8], what: String) throws(APIError) {
        self.bytes = bytes
        isPlain = Self.isPlainText(bytes)
        do {
            if isPlain {
                do {
                    try bytes.withUnsafeBufferPointer { buffer throws(JSONError) in try JSONReader.validate(buffer) }
                } catch {
                    // The error as reading the body into values gives it (same reader, same rules).
                    _ = try PropertyValue(jsonBytes: bytes)
                    throw error
                }
            } else {
                _ = try PropertyValue(jsonBytes: bytes)
            }
        } catch let error as JSONError {
            throw .invalidJSON(error, in: what)
        } catch {
            throw APIError(.badRequest, "invalid_json", "\(what) is not valid JSON")
        }
    }

    /// Whether `bytes` are all ASCII and hold no backslash, eight at a time.
    static func isPlainText(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            var index = 0
            var found: UInt64 = 0
            while buffer.count - index >= 8 {
                let word = UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: UInt64.self)
                let backslash = word ^ (ones &* 0x5C)
                found |= word | ((backslash &- ones) & ~backslash)
                index += 8
            }
            guard found & highs == 0 else { return false }
            while index < buffer.count {
                if buffer[index] >= 0x80 || buffer[index] == UInt8(ascii: "\\") { return false }
                index += 1
            }
            return true
        }
    }

    /// Calls `body` with the body's top-level value.
    func withValue<Result, Failure: Error>(
        _ body: (VendorValue) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try bytes.withUnsafeBufferPointer { buffer throws(Failure) in
            try body(VendorValue(bytes: buffer, span: JSONSpans.trimmed(buffer), isPlain: isPlain))
        }
    }
}

/// A value inside a checked ``VendorBody``: where it lies.
struct VendorValue {
    let bytes: UnsafeBufferPointer<UInt8>
    let span: Range<Int>
    let isPlain: Bool

    var isObject: Bool { bytes[span.lowerBound] == UInt8(ascii: "{") }
    var isArray: Bool { bytes[span.lowerBound] == UInt8(ascii: "[") }
    var isNull: Bool { bytes[span.lowerBound] == UInt8(ascii: "n") }

    /// The value, decoded. The body was checked whole, so this does not fail.
    var decoded: PropertyValue { (try? JSONReader.read(UnsafeBufferPointer(rebasing: bytes[span]))) ?? .null }

    /// The object's members; nil when this is not an object.
    var object: VendorObject? {
        isObject ? VendorObject(bytes: bytes, members: JSONSpans.members(bytes, span), isPlain: isPlain) : nil
    }

    /// The array's elements; nil when this is not an array.
    var elements: [VendorValue]? {
        guard isArray else { return nil }
        return JSONSpans.elements(bytes, span).map { VendorValue(bytes: bytes, span: $0, isPlain: isPlain) }
    }
}

/// An object of a checked ``VendorBody``, read where it lies: a field is decoded when asked for, and members
/// can be taken out (``removeValue(forKey:)``) before the rest is written as JSON. Looking a key up matches it
/// as a dictionary of the decoded object would (the last of repeated keys; keys equal as `String`s).
struct VendorObject {
    let bytes: UnsafeBufferPointer<UInt8>
    let members: [(key: Range<Int>, value: Range<Int>)]
    let isPlain: Bool
    /// The members taken out (every member with a key taken out): bit `i` for member `i` under 64, then
    /// `takenBeyond`.
    private var taken: UInt64 = 0
    private var takenBeyond: Set<Int> = []

    init(bytes: UnsafeBufferPointer<UInt8>, members: [(key: Range<Int>, value: Range<Int>)], isPlain: Bool) {
        self.bytes = bytes
        self.members = members
        self.isPlain = isPlain
    }

    /// Whether member `index` was taken out.
    private func isTaken(_ index: Int) -> Bool {
        index < 64 ? taken & (1 << UInt64(index)) != 0 : takenBeyond.contains(index)
    }

    private mutating func take(_ index: Int) {
        if index < 64 {
            taken |= 1 << UInt64(index)
        } else {
            takenBeyond.insert(index)
        }
    }

    /// The key at `range` as a string (its escapes decoded).
    private func decodedKey(_ range: Range<Int>) -> String {
        let quoted = UnsafeBufferPointer(rebasing: bytes[(range.lowerBound - 1)..<(range.upperBound + 1)])
        return (try? JSONReader.read(quoted))?.stringValue ?? ""
    }

    /// The indices of the members whose key is `key`, last first, until `body` returns false. A plain body's
    /// keys are compared by their bytes (they have no escapes); any other's decoded, as `String`s.
    private func forEachMember(_ key: String, _ body: (Int) -> Bool) {
        guard isPlain else {
            for index in members.indices.reversed() where decodedKey(members[index].key) == key {
                guard body(index) else { return }
            }
            return
        }
        var key = key
        key.withUTF8 { expected in
            for index in members.indices.reversed() {
                let range = members[index].key
                guard range.count == expected.count else { continue }
                var offset = 0
                while offset < expected.count, bytes[range.lowerBound + offset] == expected[offset] { offset += 1 }
                if offset == expected.count {
                    guard body(index) else { return }
                }
            }
        }
    }

    /// The index of the last member whose key is `key`; nil when there is none or it was taken out (taking a
    /// key out takes every member with it).
    private func index(_ key: String) -> Int? {
        var found: Int?
        forEachMember(key) { index in
            found = index
            return false
        }
        return found.flatMap { isTaken($0) ? nil : $0 }
    }

    /// Where `key`'s value lies; nil when absent or taken out.
    func span(_ key: String) -> Range<Int>? {
        index(key).map { members[$0].value }
    }

    /// `key`'s value, decoded; nil when absent or taken out.
    subscript(key: String) -> PropertyValue? {
        span(key).map { VendorValue(bytes: bytes, span: $0, isPlain: isPlain).decoded }
    }

    /// Whether the object has `key` (whatever its value, null included).
    func contains(_ key: String) -> Bool { span(key) != nil }

    /// Takes `key` out, returning its value.
    mutating func removeValue(forKey key: String) -> PropertyValue? {
        var last: Int?
        var mask: UInt64 = 0
        var beyond: [Int] = []
        forEachMember(key) { index in
            if last == nil { last = index }
            if index < 64 { mask |= 1 << UInt64(index) } else { beyond.append(index) }
            return true
        }
        guard let last, !isTaken(last) else { return nil }
        taken |= mask
        takenBeyond.formUnion(beyond)
        return VendorValue(bytes: bytes, span: members[last].value, isPlain: isPlain).decoded
    }

    /// `key`'s value as an object: nil when absent or null, a 400 naming `field` when it is something else.
    func object(_ key: String, _ field: String, index: Int?) throws(APIError) -> VendorObject? {
        guard let span = span(key) else { return nil }
        let value = VendorValue(bytes: bytes, span: span, isPlain: isPlain)
        if value.isNull { return nil }
        guard let object = value.object else {
            throw .wrongType(field, index: index, expected: "an object", actual: value.decoded)
        }
        return object
    }

    /// The object decoded, without the keys taken out.
    var dictionary: [String: PropertyValue] {
        var dictionary: [String: PropertyValue] = [:]
        dictionary.reserveCapacity(members.count)
        for (index, member) in members.enumerated() where !isTaken(index) {
            let key =
                isPlain
                ? String(decoding: UnsafeBufferPointer(rebasing: bytes[member.key]), as: UTF8.self)
                : decodedKey(member.key)
            dictionary[key] = VendorValue(bytes: bytes, span: member.value, isPlain: isPlain).decoded
        }
        return dictionary
    }

    /// The object without the keys taken out, as `dictionary.jsonString` writes it: compact, keys sorted by
    /// their bytes, numbers as their values. A plain body's is written from its bytes, building no values.
    var jsonString: String {
        guard isPlain else { return dictionary.jsonString }
        var writer = CanonicalJSON(bytes: bytes)
        writer.writeObject(members) { isTaken($0) }
        return String(decoding: writer.output, as: UTF8.self)
    }
}

/// Writes JSON from the bytes of a plain (ASCII, no backslash) body that has been checked, exactly as
/// ``JSONWriter`` writes the values it decodes to: no whitespace, object keys sorted by their bytes with the
/// last of repeated keys kept, strings and literals as they are (with no escape and no control character,
/// they are what `JSONWriter` writes), and numbers written from their value (copied when that writes them
/// back as they are: most integers and decimals).
private struct CanonicalJSON {
    let bytes: UnsafeBufferPointer<UInt8>
    var output: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        output.reserveCapacity(256)
    }

    /// Writes the object of `members`, leaving out those `skipping` names by their index.
    mutating func writeObject(
        _ members: [(key: Range<Int>, value: Range<Int>)], skipping: (Int) -> Bool = { _ in false }
    ) {
        // Sorted by key, then by position, so the last of equal keys is last among them.
        var order = members.indices.filter { !skipping($0) }
        order.sort { left, right in
            let order = compare(members[left].key, members[right].key)
            return order == 0 ? left < right : order < 0
        }
        output.append(UInt8(ascii: "{"))
        var first = true
        for (position, index) in order.enumerated() {
            let key = members[index].key
            if position + 1 < order.count, compare(members[order[position + 1]].key, key) == 0 {
                continue  // a later member has the same key
            }
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[key]))
            output.append(UInt8(ascii: "\""))
            output.append(UInt8(ascii: ":"))
            writeValue(members[index].value)
        }
        output.append(UInt8(ascii: "}"))
    }

    /// The order of the keys at `left` and `right` by their bytes, in one pass: negative when `left` comes
    /// first, 0 when they are equal.
    private func compare(_ left: Range<Int>, _ right: Range<Int>) -> Int {
        let common = min(left.count, right.count)
        var offset = 0
        while offset < common {
            let a = bytes[left.lowerBound + offset]
            let b = bytes[right.lowerBound + offset]
            if a != b { return a < b ? -1 : 1 }
            offset += 1
        }
        return left.count - right.count
    }

    mutating func writeValue(_ span: Range<Int>) {
        switch bytes[span.lowerBound] {
        case UInt8(ascii: "{"):
            writeObject(JSONSpans.members(bytes, span))
        case UInt8(ascii: "["):
            output.append(UInt8(ascii: "["))
            for (index, element) in JSONSpans.elements(bytes, span).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeValue(element)
            }
            output.append(UInt8(ascii: "]"))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if isPlainInteger(span) || isPlainDecimal(span) {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[span]))
            } else {
                // An exponent, -0, an integer past Int, a fraction written otherwise than its value writes
                // back: as the value reads and writes.
                var writer = JSONWriter()
                writer.write((try? JSONReader.read(UnsafeBufferPointer(rebasing: bytes[span]))) ?? .null)
                output.append(contentsOf: writer.bytes)
            }
        default:  // a string or a literal, written as it is
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[span]))
        }
    }

    /// Whether the number at `span` is an integer that `Int` holds and that writes back as the same text:
    /// digits only (after an optional minus), not `-0`, at most 18 digits.
    private func isPlainInteger(_ span: Range<Int>) -> Bool {
        var start = span.lowerBound
        if bytes[start] == UInt8(ascii: "-") {
            start += 1
            if span.upperBound - start == 1 && bytes[start] == UInt8(ascii: "0") { return false }
        }
        guard span.upperBound - start <= 18 else { return false }
        for index in start..<span.upperBound {
            guard isDigit(bytes[index]) else { return false }
        }
        return true
    }

    /// Whether the number at `span` is a decimal that writes back as the same text (`JSONWriter` writes a
    /// double's `description`): digits, a point and digits after an optional minus, no exponent, the last
    /// digit not 0, and at most 15 significant digits, so that the double it reads as is written with these
    /// digits, the shortest that read as it. Swift writes a double in this form from 0.0001 up to 2^54; under
    /// 1, the first significant digit is at most the fourth after the point (0.0001, but 1e-05), and 15
    /// digits keep it under 10^15.
    private func isPlainDecimal(_ span: Range<Int>) -> Bool {
        var index = span.lowerBound
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        while index < span.upperBound, isDigit(bytes[index]) { index += 1 }
        let integerDigits = index - integerStart
        guard integerDigits > 0, index < span.upperBound, bytes[index] == UInt8(ascii: ".") else { return false }
        index += 1
        let fractionStart = index
        while index < span.upperBound, isDigit(bytes[index]) { index += 1 }
        let fractionDigits = index - fractionStart
        guard index == span.upperBound, fractionDigits > 0, bytes[index - 1] != UInt8(ascii: "0") else {
            return false
        }
        guard integerDigits == 1, bytes[integerStart] == UInt8(ascii: "0") else {
            return integerDigits + fractionDigits <= 15
        }
        // 0.000…: the significant digits start at the first that is not 0 (there is one: the last).
        var zeros = 0
        while bytes[fractionStart + zeros] == UInt8(ascii: "0") { zeros += 1 }
        return zeros <= 3 && fractionDigits - zeros <= 15
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
#endif
