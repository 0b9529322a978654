import Foundation
import Tally
import Testing

/// `PropertyValue -> foundationValue -> PropertyValue(any:)` gives back the value it started from, for
/// every case, nested ones included, and for the Foundation forms (NSNumber, NSDecimalNumber) an SDK or a
/// bridge may turn those values into on the way.
@Suite struct FoundationRoundTripTests {
    static let values: [PropertyValue] = [
        .string("Pizza"), .string(""), .int(0), .int(-7), .int(Int.max), .int(Int.min), .double(9.5),
        .double(-0.25), .double(1e300), .double(.leastNonzeroMagnitude), .bool(true), .bool(false), .null,
        .bigNumber(BigNumber("18446744073709551617")!),  // beyond UInt64: a Decimal holds it
        .bigNumber(BigNumber("-18446744073709551617")!),
        .bigNumber(BigNumber("1e400")!),  // beyond Double and Decimal
        .bigNumber(BigNumber("-1.5e400")!),
        .bigNumber(BigNumber("1234567890123456789012345678901234567890")!),  // 40 digits: no Decimal
        .bigNumber(BigNumber("100000000000000000000000000000000000000000000000000")!),
        .array([]), .object([:]),
    ]

    @Test(arguments: values)
    func everyCaseRoundTrips(_ value: PropertyValue) {
        #expect(PropertyValue(any: value.foundationValue) == value)
    }

    @Test(arguments: values)
    func everyCaseRoundTripsNestedInArraysAndObjects(_ value: PropertyValue) {
        let nested: PropertyValue = ["list": [value, ["inner": value]], "value": value]
        #expect(PropertyValue(any: nested.foundationValue) == nested)
        let properties: [String: PropertyValue] = ["value": value, "list": [value]]
        #expect([String: PropertyValue](any: properties.foundationValue) == properties)
    }

    @Test func aBigNumberReadsBackInsideADictionary() {
        // The spy's path: a vendor call's [String: Any] read back by [String: PropertyValue](any:).
        let big = PropertyValue.bigNumber(BigNumber("1e400")!)
        #expect([String: PropertyValue](any: ["n": big.foundationValue]) == ["n": big])
    }

    @Test(arguments: [
        "18446744073709551617", "-18446744073709551617", "12345678901234567890123456789012345678",
    ])
    func aBigNumberAsNSDecimalNumberRoundTrips(_ text: String) {
        let value = PropertyValue.bigNumber(BigNumber(text)!)
        let decimal = NSDecimalNumber(string: text)
        #expect(PropertyValue(any: decimal) == value)
        #expect(PropertyValue(any: [decimal] as [Any]) == .array([value]))
    }

    @Test func numbersAsNSNumberRoundTrip() {
        let values: [PropertyValue] = [.int(42), .double(9.5), .bool(true), .int(Int.max), .double(1e300)]
        for value in values {
            let number: NSNumber
            switch value {
            case .int(let int): number = NSNumber(value: int)
            case .double(let double): number = NSNumber(value: double)
            case .bool(let bool): number = NSNumber(value: bool)
            default: continue
            }
            #expect(PropertyValue(any: number) == value)
            #expect(PropertyValue(any: ["n": number] as [String: Any]) == ["n": value])
        }
    }
}
