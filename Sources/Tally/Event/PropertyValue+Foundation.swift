import Foundation

extension PropertyValue {
    /// Converts a Foundation-style value, as vendor SDKs and older code hand around in `[String: Any]`.
    ///
    /// Strings, Booleans, integers of any width (beyond `Int` as ``bigNumber(_:)``), floating-point
    /// numbers, `Decimal`, `NSNumber`, `Date` (by the date rule of
    /// ``date(_:)``), `URL` (its absolute string), `UUID` (its string), `NSNull`, arrays and string-keyed
    /// dictionaries of those convert; an `Optional` converts its wrapped value or becomes ``null``.
    /// Anything else returns nil rather than guessing, and so do arrays and dictionaries nested deeper
    /// than ``maximumDepth`` (64) levels.
    ///
    /// An `NSNumber` (what Objective-C SDKs, `JSONSerialization`, `UserDefaults` and property lists hand
    /// over) converts by the type it was created with, never by its value: `NSNumber(value: true)` and
    /// JSON's `true` are ``bool(_:)``, `NSNumber(value: 1)` and JSON's `1` are ``int(_:)``, and
    /// `NSNumber(value: 3.0)` and JSON's `1.0` are ``double(_:)``, although Swift lets any of them cast to
    /// `Bool`, `Int` and `Double` alike. An integer that `Int` cannot hold (`UInt64.max`, or an `Int64`
    /// beyond 32 bits on a watch whose `Int` has 32) is ``bigNumber(_:)``, exactly. A `Decimal` (or
    /// `NSDecimalNumber`) converts by its digits: ``int(_:)`` when it is a whole number `Int` holds,
    /// ``bigNumber(_:)`` when neither `Int` nor `Double` holds it, ``double(_:)`` otherwise; NaN is nil.
    ///
    /// ```swift
    /// let value = PropertyValue(any: ["item_name": "Pizza", "price": 9.5] as [String: Any])
    /// // .object(["item_name": "Pizza", "price": 9.5])
    /// ```
    public init?(any value: Any) {
        self.init(any: value, level: 1)
    }

    /// Converts `value`; an array or dictionary there is at `level`.
    private init?(any value: Any, level: Int) {
        // Swift's own scalars first, by their exact type: the common case, and no cast can bridge them.
        let type = ObjectIdentifier(Swift.type(of: value))
        if type == ObjectIdentifier(String.self) {
            self = .string(value as! String)
            return
        } else if type == ObjectIdentifier(Int.self) {
            self = .int(value as! Int)
            return
        } else if type == ObjectIdentifier(Double.self) {
            self = .double(value as! Double)
            return
        } else if type == ObjectIdentifier(Bool.self) {
            self = .bool(value as! Bool)
            return
        }
        // An NSNumber before any cast to a number type: it casts to Bool, Int and Double alike (0 and 1 to
        // Bool, 3.0 to Int), so its own type decides.
        if Swift.type(of: value) is NSNumber.Type {
            guard let converted = PropertyValue(number: value as! NSNumber) else { return nil }
            self = converted
            return
        }
        switch value {
        case let value as PropertyValue: self = value
        case let value as BigNumber: self = .bigNumber(value)
        // Tested on the value's own type, not the cast's: only a Swift Bool (an NSNumber was handled above).
        case let bool as Bool where Swift.type(of: value) == Bool.self: self = .bool(bool)
        case let value as String: self = .string(value)
        case let value as Substring: self = .string(String(value))
        case let value as Int: self = .int(value)
        case let value as any BinaryInteger:
            if let int = Int(exactly: value) {
                self = .int(int)
            } else if let number = BigNumber(exactly: value) {
                self = .bigNumber(number)
            } else {
                return nil
            }
        case let value as Double: self = .double(value)
        case let value as Float: self = .double(Double(value))
        case let value as [Any]:
            guard level <= Self.maximumDepth else { return nil }
            var elements: [PropertyValue] = []
            elements.reserveCapacity(value.count)
            for element in value {
                guard let converted = PropertyValue(any: element, level: level + 1) else { return nil }
                elements.append(converted)
            }
            self = .array(elements)
        case let value as [String: Any]:
            guard level <= Self.maximumDepth else { return nil }
            var members: [String: PropertyValue] = [:]
            members.reserveCapacity(value.count)
            for (key, member) in value {
                guard let converted = PropertyValue(any: member, level: level + 1) else { return nil }
                members[key] = converted
            }
            self = .object(members)
        // After arrays and dictionaries: casting one to a Foundation type such as NSNull or Date bridges it
        // to NSArray or NSDictionary first, element by element, all the way down.
        case let value as Decimal:
            guard let converted = PropertyValue(decimal: value) else { return nil }
            self = converted
        case let value as Date: self = .date(value)
        case let value as URL: self = .string(value.absoluteString)
        case let value as UUID: self = .string(value.uuidString)
        case is NSNull: self = .null
        default:
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .optional else { return nil }
            guard let wrapped = mirror.children.first?.value else {
                self = .null
                return
            }
            guard let converted = PropertyValue(any: wrapped, level: level) else { return nil }
            self = converted
        }
    }

    /// Converts an `NSNumber` by the type it was created with, never by its value: a Boolean by its class
    /// (see ``isBoolean(_:)``), other numbers by `objCType` (floating point, signed or unsigned integer).
    /// Nil for a type code that is not a number's.
    private init?(number: NSNumber) {
        if let decimal = number as? NSDecimalNumber {
            self.init(decimal: decimal.decimalValue)
            return
        }
        if Self.isBoolean(number) {
            self = .bool(number.boolValue)
            return
        }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "f"), UInt8(ascii: "d"):
            self = .double(number.doubleValue)
        case UInt8(ascii: "c"), UInt8(ascii: "s"), UInt8(ascii: "i"), UInt8(ascii: "l"), UInt8(ascii: "q"):
            self.init(integer: number.int64Value)
        case UInt8(ascii: "C"), UInt8(ascii: "S"), UInt8(ascii: "I"), UInt8(ascii: "L"), UInt8(ascii: "Q"):
            self.init(integer: number.uint64Value)
        default:
            return nil
        }
    }

    /// Whether `number` was made from a Boolean. On Darwin that is a `CFBoolean` (`kCFBooleanTrue` and
    /// `kCFBooleanFalse`), whose `objCType` is `c`, as is that of an `NSNumber` made from an `Int8`. In
    /// swift-corelibs-foundation `objCType` is `c` for any small integer too (`NSNumber(value: 127)`), but
    /// every Boolean (`NSNumber(value: true)`, JSON's and property lists' `true`) is of one class of its own.
    private static func isBoolean(_ number: NSNumber) -> Bool {
        #if canImport(Darwin)
        return CFGetTypeID(number) == CFBooleanGetTypeID()
        #else
        return ObjectIdentifier(Swift.type(of: number)) == booleanClass
        #endif
    }

    #if !canImport(Darwin)
    /// The class of swift-corelibs-foundation's Boolean `NSNumber`s.
    private static let booleanClass = ObjectIdentifier(Swift.type(of: NSNumber(value: true)))
    #endif

    /// ``int(_:)`` when `Int` holds `integer` (on every platform, whatever the width of `Int`), otherwise
    /// ``bigNumber(_:)``, exactly.
    init(integer: some FixedWidthInteger) {
        if let int = Int(exactly: integer) {
            self = .int(int)
        } else {
            self = .bigNumber(BigNumber(exactly: integer)!)  // an integer beyond Int always is one
        }
    }

    /// Converts a `Decimal` by its digits; nil for NaN.
    init?(decimal: Decimal) {
        guard !decimal.isNaN else { return nil }
        let text = decimal.description
        if let int = Int(text) {
            self = .int(int)
        } else if let number = BigNumber(text) {
            self = .bigNumber(number)
        } else if let double = Double(text), double.isFinite {
            self = .double(double)
        } else {
            return nil
        }
    }

    /// This value as the Foundation types vendor SDKs take: `String`, `Int`, `Double`, `Bool`, `NSNull`,
    /// `[Any]` and `[String: Any]`. A ``bigNumber(_:)`` becomes a `Decimal` when one holds it exactly, and
    /// stays a ``BigNumber`` otherwise (`1e400`), which no vendor SDK takes: the vendor destinations convert
    /// big numbers by their vendor's rule before they call this. ``init(any:)`` reads every value this
    /// gives back as the value it came from. An array or object nested deeper than ``maximumDepth`` (64) levels becomes
    /// `NSNull`, the rule ``jsonString`` follows.
    public var foundationValue: Any { foundationValue(level: 1) }

    private func foundationValue(level: Int) -> Any {
        switch self {
        case .string(let value): return value
        case .int(let value): return value
        case .double(let value): return value
        case .bigNumber(let value): return value.exactDecimal.map { $0 as Any } ?? value
        case .bool(let value): return value
        case .null: return NSNull()
        case .array where level > Self.maximumDepth, .object where level > Self.maximumDepth: return NSNull()
        case .array(let value): return value.map { $0.foundationValue(level: level + 1) }
        case .object(let value): return value.mapValues { $0.foundationValue(level: level + 1) }
        }
    }
}

extension Dictionary where Key == String, Value == PropertyValue {
    /// Converts a `[String: Any]` dictionary; nil if any value cannot be converted by
    /// ``PropertyValue/init(any:)``.
    public init?(any dictionary: [String: Any]) {
        var members: [String: PropertyValue] = [:]
        members.reserveCapacity(dictionary.count)
        for (key, value) in dictionary {
            guard let converted = PropertyValue(any: value) else { return nil }
            members[key] = converted
        }
        self = members
    }

    /// These properties as `[String: Any]` for vendor SDKs. See ``PropertyValue/foundationValue``.
    public var foundationValue: [String: Any] { mapValues(\.foundationValue) }
}

extension Event.Properties {
    /// These properties, merged, as `[String: Any]` for vendor SDKs. See ``PropertyValue/foundationValue``.
    public var foundationValue: [String: Any] { dictionary.foundationValue }
}
