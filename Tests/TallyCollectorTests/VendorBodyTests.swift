#if Collector
import Foundation
import Tally
@testable import TallyCollector
import Testing

/// Vendor bodies are read where they lie (issue 39): what the collector stores from them must be exactly what
/// reading them into values stored before, keys sorted, numbers written from their values, the keys a
/// decoder takes out left out; and Mixpanel's base64 decoded as Foundation decodes it.
@Suite("Ingest: vendor bodies read where they lie")
struct VendorBodyTests {
    /// Property objects whose text differs from what is stored: keys out of order, repeated, nested;
    /// numbers with fractions, exponents, -0, past Int; strings, literals and whitespace.
    static let objects = [
        #"{}"#,
        #"{"total":29.95,"currency":"EUR","items":3,"coupon":null,"ok":true,"no":false}"#,
        #"{ "b" : 1 , "a" : [ 1 , 2.50 , { "z" : 1e2 , "y" : -0 } ] , "c" : { } , "d" : [ ] }"#,
        #"{"n":-0.0,"m":1E+2,"k":12345678901234567890,"j":-9223372036854775808,"i":9223372036854775807}"#,
        #"{"x":1,"x":2,"w":{"q":1,"q":[3]},"x":3}"#,
        #"{"big":1e400,"small":1e-400,"neg":-12,"frac":0.1,"long":123456789012345678}"#,
        #"{"s":"a/b","t":"with spaces and ~ ` ! @ # $ % ^ & * ( )","u":"DEL"}"#
            .replacingOccurrences(of: "DEL", with: "\u{7F}"),
        #"{"$lib":"posthog-python","$insert_id":"m","distinct_id":"u","time":1795734790.396,"token":"t"}"#,
    ]

    @Test(arguments: objects)
    func propertiesAreWrittenAsFromTheirValues(_ text: String) throws {
        let bytes = Array(text.utf8)
        let expected = try #require(try PropertyValue(jsonBytes: bytes).objectValue)
        let body = try VendorBody(bytes, what: "data")
        #expect(body.isPlain)
        try body.withValue { value in
            var object = try #require(value.object)
            #expect(object.jsonString == expected.jsonString)
            #expect(object.dictionary == expected)
            for key in ["x", "distinct_id", "token", "total", "absent"] {
                var values = expected
                let removed = object.removeValue(forKey: key)
                let expectedRemoved = values.removeValue(forKey: key)
                #expect(removed == expectedRemoved)
                #expect(object.jsonString == values.jsonString)
                #expect(object[key] == nil)
                object = try #require(value.object)
            }
        }
    }

    /// Decimals that are copied as sent (they write back as they are) and those written from their value:
    /// every one stored as from its value. Edge cases, then random decimals of 0 to 16 integer digits and 1 to
    /// 17 fraction digits, some with leading zeros (from a fixed seed).
    @Test func decimalsAreWrittenAsFromTheirValues() throws {
        var numbers = [
            "0.1", "29.95", "-29.95", "0.0001", "0.00012", "0.00001", "-0.0001", "0.000123456789012345",
            "0.0001234567890123456", "123456789012345.5", "12345678901234.5", "99999999999999.9",
            "999999999999999.9", "0.123456789012345", "0.1234567890123456", "1.10", "1.0", "-0.0", "0.5",
            "9007199254740993.1", "1.7976931348623157", "5e-324", "0.30000000000000004", "100.01",
        ]
        var seed: UInt64 = 39
        func random(_ range: ClosedRange<Int>) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Int((seed >> 33) % UInt64(range.count))
        }
        func digits(_ count: Int, leadingZeroAllowed: Bool) -> String {
            String(
                (0..<count).map { index in
                    Character(String(index == 0 && !leadingZeroAllowed ? random(1...9) : random(0...9)))
                })
        }
        for _ in 0..<3000 {
            let integer = random(0...16)
            let whole = integer == 0 ? "0" : digits(integer, leadingZeroAllowed: false)
            let zeros = String(repeating: "0", count: random(0...5) == 0 ? random(0...6) : 0)
            let fraction = zeros + digits(random(1...17), leadingZeroAllowed: true)
            numbers.append((random(0...1) == 0 ? "-" : "") + whole + "." + fraction)
        }
        for number in numbers {
            let text = #"{"n":\#(number),"a":[\#(number),{"m":\#(number)}]}"#
            let expected = try #require(try PropertyValue(jsonBytes: Array(text.utf8)).objectValue).jsonString
            let body = try VendorBody(Array(text.utf8), what: "data")
            #expect(body.isPlain)
            let written = body.withValue { value in value.object?.jsonString }
            #expect(written == expected, "\(number)")
        }
    }

    @Test func bodiesPastASCIIOrWithEscapesAreReadIntoValues() throws {
        for text in [#"{"é":"café","\u0061":1,"a":2}"#, #"{"k":"line\nbreak","\u212A":1}"#] {
            let bytes = Array(text.utf8)
            let expected = try #require(try PropertyValue(jsonBytes: bytes).objectValue)
            let body = try VendorBody(bytes, what: "data")
            #expect(!body.isPlain)
            try body.withValue { value in
                let object = try #require(value.object)
                #expect(object.jsonString == expected.jsonString)
                #expect(object["a"] == expected["a"])
                #expect(object["K"] == expected["K"])  // the Kelvin sign is a K to `String`, as to a dictionary
            }
        }
        // Keys that differ only in Unicode normalization are refused, as before.
        #expect(throws: APIError.self) {
            _ = try VendorBody(Array("{\"caf\u{E9}\":1,\"cafe\u{301}\":2}".utf8), what: "data")
        }
    }

    @Test(arguments: ["", " ", "{", #"{"a":1,}"#, "[1 2]", #"{"a":01}"#, "nul", #"{"a":"\q"}"#, "[]]"])
    func invalidBodiesGetTheReadersError(_ text: String) {
        var expected: JSONError?
        do {
            _ = try PropertyValue(jsonBytes: Array(text.utf8))
        } catch let error as JSONError {
            expected = error
        } catch {}
        #expect(expected != nil)
        do {
            _ = try VendorBody(Array(text.utf8), what: "The body")
            Issue.record("\(text) was taken")
        } catch {
            #expect(error.code == "invalid_json")
            #expect(error.message == "The body is not valid JSON: \(expected!.message) at byte \(expected!.offset)")
        }
    }

    @Test func tooDeepBodiesAreRefusedAsBefore() {
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        let deeper = "[" + deep + "]"
        #expect((try? VendorBody(Array(deep.utf8), what: "b")) != nil)
        #expect((try? PropertyValue(jsonBytes: Array(deeper.utf8))) == nil)
        #expect((try? VendorBody(Array(deeper.utf8), what: "b")) == nil)
    }

    @Test func base64IsDecodedAsFoundationDecodesIt() throws {
        let json = Array(#"[{"event":"A","properties":{"distinct_id":"u"}}]"#.utf8)
        for length in 0...json.count {
            let bytes = Array(json[0..<length])
            let standard = Data(bytes).base64EncodedString()
            let unpadded = standard.replacingOccurrences(of: "=", with: "")
            let urlSafe = unpadded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            for text in [unpadded, urlSafe, " " + unpadded + "\n"] where !unpadded.isEmpty {
                #expect(MixpanelMessage.base64Decoded(Array(text.utf8)) == bytes)
                #expect(try MixpanelMessage.Form(data: Array(text.utf8), verbose: false).json() == bytes)
            }
            if standard.hasSuffix("=") {
                #expect(MixpanelMessage.base64Decoded(Array(standard.utf8)) == nil)  // left to Foundation
                #expect(try MixpanelMessage.Form(data: Array(standard.utf8), verbose: false).json() == bytes)
            }
        }
        for broken in ["A", "QQ=A", "QR", "Q*==", "\u{00A0}QQ"] {
            #expect(MixpanelMessage.base64Decoded(Array(broken.utf8)) == nil)
        }
    }

    /// The media type read on the bytes of an ASCII Content-Type is what Foundation's trimming and
    /// lowercasing gave.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func mediaTypeIsReadAsFoundationReadsIt() {
        let values = [
            "", "application/json", "Application/JSON; charset=utf-8", " text/plain ;charset=x", "\ttext/Plain\t",
            ";x", ";;", " ;x", "a;b;c", "   ", "application/x-www-form-urlencoded", "TEXT/PLAIN;", "\u{A0}text/plain",
            "caf\u{E9}/json", "x\u{2003}",
        ]
        for value in values {
            let expected =
                value.split(separator: ";", maxSplits: 1).first.map {
                    $0.trimmingCharacters(in: .whitespaces).lowercased()
                } ?? ""
            #expect(CollectorRoutes.mediaType(value) == expected, "\(value.debugDescription)")
        }
    }

    @Test func percentDecodingKeepsBrokenEscapes() {
        #expect(MixpanelMessage.percentDecoded(ArraySlice("a+b%41%4g%".utf8)) == Array("a bA%4g%".utf8))
        #expect(MixpanelMessage.percentDecoded(ArraySlice("%2".utf8)) == Array("%2".utf8))
        #expect(MixpanelMessage.percentDecoded([]) == [])
    }

    /// The table-driven decoder against the rule written plainly: every string of up to four bytes over an
    /// alphabet of escapes' parts and their neighbours, and a slice that does not start at 0.
    @Test func percentDecodingIsTheRuleWrittenPlainly() {
        func reference(_ bytes: [UInt8]) -> [UInt8] {
            func digit(_ byte: UInt8) -> UInt8? {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
                default: nil
                }
            }
            var output: [UInt8] = []
            var index = 0
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, let high = digit(bytes[index + 1]),
                    let low = digit(bytes[index + 2])
                {
                    output.append(high << 4 | low)
                    index += 3
                } else {
                    output.append(bytes[index] == UInt8(ascii: "+") ? 0x20 : bytes[index])
                    index += 1
                }
            }
            return output
        }
        let alphabet = Array("%+09afAFgG/:@`\u{7F}".utf8) + [0x00, 0xC3, 0xFF]
        var inputs: [[UInt8]] = [[]]
        var level: [[UInt8]] = [[]]
        for _ in 0..<4 {
            level = level.flatMap { prefix in alphabet.map { prefix + [$0] } }
            inputs += level
        }
        let wrong = inputs.filter { MixpanelMessage.percentDecoded(ArraySlice($0)) != reference($0) }
        #expect(inputs.count > 100_000)
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        let form = Array("data=%7B%22a%22%3A+1%7D&verbose=1".utf8)
        #expect(MixpanelMessage.percentDecoded(form[5..<23]) == Array(#"{"a": 1}"#.utf8))
    }
}
#endif
