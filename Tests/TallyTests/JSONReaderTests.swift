import Foundation
import Tally
import Testing

/// The JSON reader's fast paths (eight string bytes at a time, integers without a `String`) against the
/// plain rules, at every offset.
struct JSONReaderTests {
    @Test func stringsReadBackAtEveryOffsetOfEveryKindOfByte() throws {
        let specials: [String] = ["\"", "\\", "\n", "\u{01}", "\u{1F}", "\u{7F}", " ", "é", "€", "𝄞", "/"]
        for special in specials {
            for offset in 0..<20 {
                let text = String(repeating: "a", count: offset) + special + String(repeating: "b", count: 20 - offset)
                let json = PropertyValue.string(text).jsonString
                #expect(try PropertyValue(json: json) == .string(text), "\(json)")
                // As a skipped member of a record, too.
                let line = #"{"tally_record":1,"kind":"track","name":"x","source":"# + json + "}"
                #expect(throws: Never.self) { try Record(line: Array(line.utf8)) }
            }
        }
    }

    @Test func rawControlCharactersAreRefusedAtEveryOffset() {
        for byte: UInt8 in [0x00, 0x01, 0x0A, 0x1F] {
            for offset in 0..<20 {
                let bytes = Array("\"".utf8) + [UInt8](repeating: 0x61, count: offset) + [byte] + Array("bb\"".utf8)
                #expect(throws: JSONError.self) { try PropertyValue(jsonBytes: bytes) }
            }
        }
    }

    @Test func integersOfEveryLengthReadExactly() throws {
        var digits = ""
        for length in 1...19 {
            digits += String(length % 10)
            let value = Int(digits)!
            #expect(try PropertyValue(json: digits) == .int(value))
            #expect(try PropertyValue(json: "-" + digits) == .int(-value))
        }
        #expect(try PropertyValue(json: String(Int.max)) == .int(Int.max))
        #expect(try PropertyValue(json: String(Int.min)) == .int(Int.min))
        #expect(try PropertyValue(json: "-0") == .int(0))
        // One past Int.max: no Int holds it and a Double would round it, so it stays exact (BigNumberTests).
        #expect(try PropertyValue(json: "9223372036854775808") == .bigNumber(BigNumber("9223372036854775808")!))
    }

    /// Short decimals take a fast path; it must give what `Double(_:)` gives (correct rounding) for each.
    @Test func decimalsReadExactlyAsTheStandardLibraryReadsThem() throws {
        var generator = SystemRandomNumberGenerator()
        var texts = [
            "0.0", "-0.0", "0.1", "0.5", "1.5", "9.95", "123456789012.34", "0.000000000000001", "99999999999999.9",
        ]
        for _ in 0..<2000 {
            let whole = String(Int.random(in: 0...9_999_999, using: &generator))
            let fraction = String(
                (0..<Int.random(in: 1...(15 - whole.count), using: &generator)).map { _ in
                    Character(String(Int.random(in: 0...9, using: &generator)))
                })
            texts.append((Bool.random(using: &generator) ? "-" : "") + whole + "." + fraction)
        }
        for text in texts {
            let read = try PropertyValue(json: text)
            #expect(read == .double(Double(text)!), "\(text)")
            if case .double(let value) = read { #expect(value.sign == Double(text)!.sign, "\(text)") }
        }
    }

    /// Objects of up to 12 members are read in one pass, larger ones counted first: both read the same
    /// values, at any nesting, and a malformed object is reported as the counting reader always did (the
    /// first error in the outermost object, before anything is built).
    @Test func objectsOfEverySizeReadBackAndErrorsAreTheCountingReaders() throws {
        for size in 0...30 {
            var members: [String: PropertyValue] = [:]
            for index in 0..<size {
                members["k\(index)"] =
                    index % 3 == 0 ? .object(["inner": .int(index), "list": [1, "two"]]) : .int(index)
            }
            let value = PropertyValue.object(["outer": .object(members), "n": .int(size)])
            #expect(try PropertyValue(json: value.jsonString) == value, "\(size) members")
        }
        func message(_ json: String) -> String? {
            do {
                _ = try PropertyValue(json: json)
                return nil
            } catch {
                return "\(error)"
            }
        }
        // A member missing its comma inside a nested object: found by the outer object's count, in its
        // words.
        #expect(message(#"{"a":{"b":1 "c":2}}"#)?.contains("Expected ',' or a closing bracket") == true)
        #expect(message(#"{"a":1 "b":2}"#)?.contains("Expected ',' or '}' in an object") == true)
        #expect(message(#"{"a":1,"b":{"c":[1,2}}"#)?.contains("Expected ',' or a closing bracket") == true)
        #expect(message(#"{"a":{"b":1}"#)?.contains("Unexpected end of input") == true)
    }
}

/// An object the one-pass reader gives up on (more members than it holds on the stack, or an error anywhere
/// inside it) is read again by the counting reader; what it nests must not be read again at each level too,
/// or every level doubles the work: 2^62 reads at the deepest nesting allowed.
@Suite struct JSONReaderNestingCostTests {
    /// `inner` wrapped in objects up to the deepest level allowed, each with `siblings` more members after it.
    static let depth = JSONReader.maximumDepth

    static func nested(_ inner: String, siblings: Int) -> String {
        let rest = (0..<siblings).map { #","k\#($0)":\#($0)"# }.joined()
        var text = inner
        for _ in 1..<Self.depth { text = #"{"n":\#(text)\#(rest)}"# }
        return text
    }

    @Test func objectsWithMoreMembersThanOnePassHoldsAreReadOnce() throws {
        let value = try PropertyValue(jsonBytes: Array(Self.nested("{}", siblings: 13).utf8))
        var depth = 1
        var current = value
        while let next = current.objectValue?["n"] {
            depth += 1
            current = next
        }
        #expect(depth == Self.depth)
    }

    @Test(arguments: [
        #"{"caf\#u{E9}":1,"cafe\#u{301}":2}"#,  // keys that differ only in normalization
        #"{"a" 1}"#,  // a syntax error
    ])
    func anErrorDeepInsideIsFoundOnce(inner: String) {
        for siblings in [0, 13] {
            let text = Self.nested(inner, siblings: siblings)
            #expect(throws: JSONError.self) { try PropertyValue(jsonBytes: Array(text.utf8)) }
        }
    }
}
