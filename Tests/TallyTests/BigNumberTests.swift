import Foundation
import Tally
import Testing

/// Numbers that neither `Int` nor `Double` holds: read exactly, written back unchanged, never `null`.
struct BigNumberTests {
    @Test(arguments: [
        "9223372036854775808",  // Int.max + 1
        "-9223372036854775809",  // Int.min - 1
        "18446744073709551616",  // 2^64
        "18446744073709551617",  // 2^64 + 1
        "1" + String(repeating: "0", count: 400),  // 10^400, written out
        "1e400", "-1E+400", "1.5e400", "12345678901234567890123456789.5e300",
    ])
    func jsonKeepsNumbersBeyondIntAndDoubleExactly(text: String) throws {
        let value = try PropertyValue(json: text)
        guard case .bigNumber(let number) = value else {
            Issue.record("\(text) read as \(value)")
            return
        }
        #expect(number.text == text)
        #expect(value.jsonString == text)
        #expect(try PropertyValue(json: value.jsonString) == value)
        let nested = try PropertyValue(json: "{\"a\":[\(text)]}")
        #expect(nested.jsonString == "{\"a\":[\(text)]}")
    }

    @Test func numbersThatFitKeepTheirCases() throws {
        #expect(try PropertyValue(json: "9223372036854775807") == .int(.max))
        #expect(try PropertyValue(json: "-9223372036854775808") == .int(.min))
        #expect(try PropertyValue(json: "1e308") == .double(1e308))
        #expect(try PropertyValue(json: "18446744073709551617.0") == .double(18446744073709551617.0))
        // Underflow rounds to zero, as every JSON reader does; only overflow has no double to round to.
        #expect(try PropertyValue(json: "1e-400") == .double(0))
    }

    @Test func twoIntegersPast64BitsStayDifferent() throws {
        let a = try PropertyValue(json: "18446744073709551616")
        let b = try PropertyValue(json: "18446744073709551617")
        #expect(a != b)
        #expect(Set([a, b]).count == 2)
    }

    @Test func bigNumbersAreEqualByValue() throws {
        let a = try #require(BigNumber("1e400"))
        let b = try #require(BigNumber("10E+399"))
        let c = try #require(BigNumber("1" + String(repeating: "0", count: 400)))
        #expect(a == b && b == c)
        #expect(a.hashValue == b.hashValue && b.hashValue == c.hashValue)
        #expect(a != BigNumber("1e401"))
        #expect(a != BigNumber("-1e400"))
        #expect(a.text == "1e400" && b.text == "10E+399")
    }

    @Test(arguments: [
        "12", "-0", "0.1", "1e308", "", "-", "01", "1.", ".5", "1e", "1e+", "0x10", "1e400 ", "+1e400", "NaN",
    ])
    func initRefusesWhatIsNotABigJSONNumber(text: String) {
        #expect(BigNumber(text) == nil)
    }

    @Test func integersHaveNoFractionalPart() throws {
        #expect(try #require(BigNumber("1e400")).isInteger)
        #expect(try #require(BigNumber("1.5e400")).isInteger)
        #expect(try #require(BigNumber("18446744073709551617")).isInteger)
        let fraction = try #require(BigNumber("1" + String(repeating: "0", count: 400) + ".5"))
        #expect(!fraction.isInteger)
        #expect(PropertyValue.bigNumber(fraction).typeName == "number")
        #expect(try PropertyValue(json: "1e400").typeName == "integer")
    }

    @Test func wideIntegersConvert() throws {
        #expect(BigNumber(exactly: UInt64.max)?.text == "18446744073709551615")
        #expect(BigNumber(exactly: 12) == nil)
        #expect(PropertyValue(any: UInt64.max) == .bigNumber(try #require(BigNumber("18446744073709551615"))))
        #expect(PropertyValue(any: UInt64(12)) == .int(12))
    }

    @Test func decimalsHoldUpTo38Digits() throws {
        let wide = try #require(BigNumber("18446744073709551617"))
        #expect(wide.exactDecimal == Decimal(string: "18446744073709551617"))
        #expect(BigNumber("1e400")?.exactDecimal == nil)
        #expect(wide.doubleValue == 18446744073709551616.0)
        #expect(BigNumber("-1e400")?.doubleValue == -.infinity)
        #expect(PropertyValue.bigNumber(wide).foundationValue as? Decimal == Decimal(string: "18446744073709551617"))
        // Beyond Decimal it stays a BigNumber, which PropertyValue(any:) reads back (FoundationRoundTripTests).
        #expect(
            PropertyValue.bigNumber(try #require(BigNumber("1e400"))).foundationValue as? BigNumber
                == BigNumber("1e400"))
    }

    @Test func foreignEncodersGetADecimalOrAnError() throws {
        let wide = PropertyValue.bigNumber(try #require(BigNumber("18446744073709551617")))
        let data = try JSONEncoder().encode(["n": wide])
        #expect(String(decoding: data, as: UTF8.self) == "{\"n\":18446744073709551617}")
        let huge = PropertyValue.bigNumber(try #require(BigNumber("1e400")))
        #expect(throws: EncodingError.self) { try JSONEncoder().encode([huge]) }
    }

    @Test func theClientPassesBigNumbersUnchanged() throws {
        let event = Event("e", ["n": try PropertyValue(json: "18446744073709551617")])
        let result = InputLimits().sanitize(event)
        #expect(result.event == event)
        #expect(result.problems.isEmpty)
    }
}
