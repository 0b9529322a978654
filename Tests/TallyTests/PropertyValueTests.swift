import Foundation
import Tally
import Testing

struct PropertyValueTests {
    @Test func literalsBuildTheMatchingCases() {
        let properties: [String: PropertyValue] = [
            "s": "text", "i": 2, "d": 2.5, "b": true, "n": nil, "a": [1, "x"], "o": ["k": 1],
        ]
        #expect(properties["s"] == .string("text"))
        #expect(properties["i"] == .int(2))
        #expect(properties["d"] == .double(2.5))
        #expect(properties["b"] == .bool(true))
        #expect(properties["n"] == .null)
        #expect(properties["a"] == .array([.int(1), .string("x")]))
        #expect(properties["o"] == .object(["k": .int(1)]))
    }

    @Test func integersAndDoublesAreDifferentValues() {
        #expect(PropertyValue.int(1) != PropertyValue.double(1))
        #expect(PropertyValue.int(1).doubleValue == 1)
        #expect(PropertyValue.double(1).intValue == nil)
    }

    @Test(arguments: [
        PropertyValue.int(2), .double(2), .double(-0.5), .double(1e300), .double(.leastNonzeroMagnitude), .int(.max),
        .int(.min),
        .string("quote \" backslash \\ newline \n tab \t nul \u{0} emoji 🍕 é"), .bool(false), .null,
        .array([]), .object([:]), ["nested": [["deep": [1, 2.0, "3"]]]],
    ])
    func jsonRoundTripIsLossless(value: PropertyValue) throws {
        let text = value.jsonString
        #expect(try PropertyValue(json: text) == value, "\(text)")
        #expect(try PropertyValue(jsonBytes: Array(text.utf8)) == value)
    }

    @Test func doublesAreWrittenSoTheyReadBackAsDoubles() {
        #expect(PropertyValue.double(2).jsonString == "2.0")
        #expect(PropertyValue.int(2).jsonString == "2")
        #expect(PropertyValue.double(1e300).jsonString == "1e+300")
    }

    @Test func nonFiniteDoublesAreWrittenAsNull() {
        #expect(PropertyValue.double(.nan).jsonString == "null")
        #expect(PropertyValue.double(.infinity).jsonString == "null")
        #expect(PropertyValue.double(-.infinity).jsonString == "null")
    }

    @Test func objectKeysAreSortedSoEqualValuesGiveEqualText() {
        let value: PropertyValue = ["b": 1, "a": 2, "c": ["z": 1, "y": 2]]
        #expect(value.jsonString == #"{"a":2,"b":1,"c":{"y":2,"z":1}}"#)
    }

    @Test func readsEscapesAndSurrogatePairs() throws {
        #expect(try PropertyValue(json: #""\u00e9\ud83c\udf55\/\b\f""#) == .string("é🍕/\u{8}\u{c}"))
        #expect(try PropertyValue(json: " [1 , 2.50 , -3e2 ] ") == [1, 2.5, -300.0])
    }

    @Test func integersTooBigForIntStayExact() throws {
        #expect(try PropertyValue(json: "18446744073709551616") == .bigNumber(BigNumber("18446744073709551616")!))
    }

    @Test(arguments: [
        ("", "Unexpected end of input", 0),
        ("[1,]", "Unexpected character ']'", 3),
        ("{\"a\" 1}", "Expected ':' after a key", 5),
        ("01", "Leading zeros are not allowed", 1),
        ("\"abc", "Unterminated string", 4),
        ("\"\\x\"", "Invalid escape '\\x'", 1),
        ("\"\\ud800\"", "Unpaired surrogate in a string", 7),
        ("[1] x", "Unexpected text after the JSON value", 4),
        ("tru", "Unexpected end of input", 3),
        ("1.", "Expected a digit after '.'", 2),
    ])
    func malformedJSONNamesTheProblemAndWhere(input: String, message: String, offset: Int) {
        #expect {
            try PropertyValue(json: input)
        } throws: { error in
            let error = error as? JSONError
            return error?.message == message && error?.offset == offset
        }
    }

    @Test func refusesPathologicalNesting() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONError.self) { try PropertyValue(json: deep) }
    }

    @Test func datesFollowTheOneRule() {
        let date = Date(timeIntervalSince1970: 1_795_317_473.12)
        #expect(PropertyValue.date(date) == .string("2026-11-22T03:17:53.120Z"))
        #expect(PropertyValue.date(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(PropertyValue.date(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59.000Z")
        #expect(PropertyValue.date(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z")
    }

    /// Any `Date` a caller can make is written in the fixed form, never a trap: a year past 9999 (found by
    /// FuzzIngest through a vendor's epoch time) is written as the last millisecond of 9999.
    @Test func datesOutsideTheFixedFormAreClampedNotTrapped() {
        #expect(PropertyValue.date(Date(timeIntervalSince1970: 1e300)) == "9999-12-31T23:59:59.999Z")
        #expect(PropertyValue.date(.distantFuture) == "4001-01-01T00:00:00.000Z")
        #expect(PropertyValue.date(Date(timeIntervalSince1970: 253_402_300_800)) == "9999-12-31T23:59:59.999Z")
        #expect(PropertyValue.date(Date(timeIntervalSince1970: -1e300)) == "0000-01-01T00:00:00.000Z")
        #expect(PropertyValue.date(Date(timeIntervalSince1970: -62_167_219_201)) == "0000-01-01T00:00:00.000Z")
        #expect(PropertyValue.date(Date(timeIntervalSince1970: .infinity)) == "9999-12-31T23:59:59.999Z")
        #expect(PropertyValue.date(Date(timeIntervalSince1970: .nan)) == "0000-01-01T00:00:00.000Z")
        #expect(PropertyValue.date(Date(timeIntervalSince1970: -62_167_219_200)) == "0000-01-01T00:00:00.000Z")
    }

    @Test func codableThroughFoundationKeepsStructure() throws {
        let value: PropertyValue = ["name": "Pizza", "price": 9.5, "tags": ["a"], "none": nil, "count": 2]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(PropertyValue.self, from: data) == value)
    }

    @Test func convertsFoundationValues() throws {
        let url = try #require(URL(string: "https://example.com/a"))
        let input: [String: Any] = [
            "s": "x", "i": 3, "i8": Int8(4), "d": 2.5, "f": Float(0.5), "b": true, "n": NSNull(),
            "a": [1, "y"] as [Any], "o": ["k": false] as [String: Any], "url": url,
            "date": Date(timeIntervalSince1970: 0), "opt": Optional<Int>.none as Any, "some": Optional(7) as Any,
        ]
        let converted = try #require([String: PropertyValue](any: input))
        #expect(
            converted == [
                "s": "x", "i": 3, "i8": 4, "d": 2.5, "f": 0.5, "b": true, "n": nil, "a": [1, "y"], "o": ["k": false],
                "url": "https://example.com/a", "date": "1970-01-01T00:00:00.000Z", "opt": nil, "some": 7,
            ])
        #expect(PropertyValue(any: NSObject()) == nil)
        #expect([String: PropertyValue](any: ["x": NSObject()]) == nil)
    }

    @Test func foundationValueRoundTrips() {
        let value: [String: PropertyValue] = ["s": "x", "i": 1, "d": 1.5, "b": false, "a": [1], "o": ["k": nil]]
        #expect([String: PropertyValue](any: value.foundationValue) == value)
    }

    @Test func typeNamesFollowJSONSchema() {
        #expect(
            [PropertyValue.string(""), .int(0), .double(0), .bool(true), .array([]), .object([:]), .null].map(
                \.typeName)
                == ["string", "integer", "number", "boolean", "array", "object", "null"])
    }
}
