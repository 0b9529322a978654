import Foundation

extension PropertyValue {
    /// Converts a Foundation-style value, as vendor SDKs and older code hand around in `[String: Any]`.
    ///
    /// Strings, Booleans, integers of any width (beyond `Int` as ``bigNumber(_:)``), floating-point
    /// numbers, `Date` (by the date rule of
    /// ``date(_:)``), `URL` (its absolute string), `UUID` (its string), `NSNull`, arrays and string-keyed
    /// dictionaries of those convert; an `Optional` converts its wrapped value or becomes ``null``.
    /// Anything else returns nil rather than guessing, and so do arrays and dictionaries nested deeper
    /// than ``maximumDepth`` (64) levels.
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
        switch value {
        case let value as PropertyValue: self = value
        case let value as Bool where type(of: value) == Bool.self: self = .bool(value)
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

    /// This value as the Foundation types vendor SDKs take: `String`, `Int`, `Double`, `Bool`, `NSNull`,
    /// `[Any]` and `[String: Any]`. A ``bigNumber(_:)`` becomes a `Decimal` when one holds it exactly, and
    /// its JSON text otherwise. An array or object nested deeper than ``maximumDepth`` (64) levels becomes
    /// `NSNull`, the rule ``jsonString`` follows.
    public var foundationValue: Any { foundationValue(level: 1) }

    private func foundationValue(level: Int) -> Any {
        switch self {
        case .string(let value): return value
        case .int(let value): return value
        case .double(let value): return value
        case .bigNumber(let value): return value.exactDecimal.map { $0 as Any } ?? value.text
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
