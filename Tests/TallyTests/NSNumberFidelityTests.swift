import Foundation
import Tally
import Testing

/// `PropertyValue(any:)` keeps Booleans, integers and doubles apart for `NSNumber`s, the numbers
/// Objective-C SDKs, `JSONSerialization`, `UserDefaults` and property lists hand over. An `NSNumber` casts
/// to `Bool`, `Int` and `Double` alike, so the conversion reads the type it was created with, never its value.
struct NSNumberFidelityTests {
    @Test(arguments: [
        (NSNumber(value: true), PropertyValue.bool(true)),
        (NSNumber(value: false), .bool(false)),
        (NSNumber(value: 1), .int(1)),
        (NSNumber(value: 0), .int(0)),
        (NSNumber(value: -1), .int(-1)),
        (NSNumber(value: 3.0), .double(3.0)),
        (NSNumber(value: 0.0), .double(0.0)),
        (NSNumber(value: 2.5), .double(2.5)),
        (NSNumber(value: Float(1.5)), .double(1.5)),
        (NSNumber(value: Int8(1)), .int(1)),
        (NSNumber(value: Int8(-128)), .int(-128)),
        (NSNumber(value: Int8(127)), .int(127)),  // objCType `c`, like a Boolean's
        (NSNumber(value: 127), .int(127)),  // objCType `c` in swift-corelibs-foundation
        (NSNumber(value: UInt8(255)), .int(255)),
        (NSNumber(value: Int16(1)), .int(1)),
        (NSNumber(value: UInt16(1)), .int(1)),
        (NSNumber(value: Int32(1)), .int(1)),
        (NSNumber(value: UInt32.max), PropertyValue(exactly: UInt32.max)),
        (NSNumber(value: Int64.max), PropertyValue(exactly: Int64.max)),
        (NSNumber(value: Int64.min), PropertyValue(exactly: Int64.min)),
        (NSNumber(value: UInt64.max), .bigNumber(BigNumber("18446744073709551615")!)),
        (NSNumber(value: UInt64(1)), .int(1)),
    ])
    func anNSNumberKeepsTheTypeItWasCreatedWith(number: NSNumber, expected: PropertyValue) {
        #expect(PropertyValue(any: number) == expected, "objCType \(String(cString: number.objCType))")
    }

    @Test func jsonSerializationKeepsIntegersDoublesAndBooleansApart() throws {
        let json = #"{"a":1,"b":1.0,"c":true,"d":0,"e":false,"f":1.5,"g":18446744073709551615,"h":[1,1.0,true]}"#
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let converted = try #require(PropertyValue(any: object))
        #expect(
            converted == [
                "a": .int(1), "b": .double(1.0), "c": .bool(true), "d": .int(0), "e": .bool(false), "f": .double(1.5),
                "g": .bigNumber(BigNumber("18446744073709551615")!), "h": [.int(1), .double(1.0), .bool(true)],
            ])
    }

    @Test func aDictionaryOfNSNumbersConvertsMemberByMember() throws {
        let input: [String: Any] = [
            "flag": NSNumber(value: true), "count": NSNumber(value: 1), "price": NSNumber(value: 3.0),
        ]
        let converted = try #require([String: PropertyValue](any: input))
        #expect(converted == ["flag": .bool(true), "count": .int(1), "price": .double(3.0)])
    }

    @Test func aPropertyListKeepsItsNumbers() throws {
        let plist: [String: Any] = ["flag": true, "count": 1, "price": 3.0]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        let read = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        #expect(PropertyValue(any: read) == ["flag": .bool(true), "count": .int(1), "price": .double(3.0)])
    }

    @Test func decimalNumbersConvertByTheirDigits() throws {
        #expect(
            PropertyValue(any: Decimal(string: "12345678901234567890123")!)
                == .bigNumber(BigNumber("12345678901234567890123")!))
        #expect(PropertyValue(any: Decimal(string: "1.25")!) == .double(1.25))
        #expect(PropertyValue(any: Decimal(42)) == .int(42))
        #expect(PropertyValue(any: Decimal.nan) == nil)
        #expect(
            PropertyValue(any: NSDecimalNumber(string: "12345678901234567890123"))
                == .bigNumber(BigNumber("12345678901234567890123")!))
        // JSONSerialization hands over an integer beyond 64 bits as an NSDecimalNumber.
        let object = try JSONSerialization.jsonObject(with: Data("[12345678901234567890123]".utf8))
        #expect(PropertyValue(any: object) == [.bigNumber(BigNumber("12345678901234567890123")!)])
    }

    @Test func aBigNumberSurvivesTheRoundTripThroughFoundationValue() throws {
        let big = PropertyValue.bigNumber(BigNumber("18446744073709551617")!)
        #expect(PropertyValue(any: big.foundationValue) == big)
    }

    @Test func swiftNativesKeepTheirTypes() {
        #expect(PropertyValue(any: true) == .bool(true))
        #expect(PropertyValue(any: false) == .bool(false))
        #expect(PropertyValue(any: 1) == .int(1))
        #expect(PropertyValue(any: 0) == .int(0))
        #expect(PropertyValue(any: 3.0) == .double(3.0))
        #expect(PropertyValue(any: Float(3)) == .double(3.0))
        #expect(PropertyValue(any: Int8(1)) == .int(1))
        #expect(PropertyValue(any: UInt8(1)) == .int(1))
        #expect(PropertyValue(any: Int16(1)) == .int(1))
        #expect(PropertyValue(any: UInt16(1)) == .int(1))
        #expect(PropertyValue(any: Int32(1)) == .int(1))
        #expect(PropertyValue(any: UInt32(1)) == .int(1))
        #expect(PropertyValue(any: Int64.max) == PropertyValue(exactly: Int64.max))
        #expect(PropertyValue(any: UInt64.max) == .bigNumber(BigNumber("18446744073709551615")!))
        #expect(PropertyValue(any: Optional(true) as Any) == .bool(true))
    }

    @Test func aVendorRoundTripKeepsTheCases() throws {
        let value: [String: PropertyValue] = ["b": true, "i": 1, "zero": 0, "d": 3.0, "a": [true, 1, 1.0]]
        // As an Objective-C SDK hands it back on Darwin: every number boxed in an NSNumber.
        let back = try #require(boxed(value.foundationValue) as? [String: Any])
        #expect([String: PropertyValue](any: back) == value)
    }

    /// `value` with its numbers boxed as Darwin's bridging boxes them when Swift hands them to Objective-C.
    private func boxed(_ value: Any) -> Any {
        switch value {
        case let value as [String: Any]: value.mapValues(boxed)
        case let value as [Any]: value.map(boxed)
        case _ where type(of: value) == Bool.self: NSNumber(value: value as! Bool)
        case _ where type(of: value) == Int.self: NSNumber(value: value as! Int)
        case _ where type(of: value) == Double.self: NSNumber(value: value as! Double)
        default: value
        }
    }
}

extension PropertyValue {
    /// The value `PropertyValue(any:)` makes of an integer: ``int(_:)`` when `Int` holds it, ``bigNumber(_:)``
    /// otherwise (on a 32-bit watch, for one).
    init(exactly integer: some BinaryInteger) {
        if let int = Int(exactly: integer) { self = .int(int) } else { self = .bigNumber(BigNumber(exactly: integer)!) }
    }
}

struct CodableIntegerTests {
    @Test func jsonDecoderKeepsAnIntegerBeyondInt64Exactly() throws {
        let value = try JSONDecoder().decode(
            PropertyValue.self, from: Data("[18446744073709551615, 9223372036854775807, 1]".utf8))
        #expect(value == [.bigNumber(BigNumber("18446744073709551615")!), PropertyValue(exactly: Int64.max), .int(1)])
    }
}
