import Foundation

/// A JSON value carried by an event: the type of every property, trait and context entry.
///
/// `PropertyValue` is what lets tests compare properties without casts. It is `Sendable`, `Hashable` and
/// expressible by literals, so a property dictionary reads like JSON:
///
/// ```swift
/// let properties: [String: PropertyValue] = [
///     "item_name": "Pizza",
///     "price": 9.5,
///     "quantity": 2,
///     "toppings": ["basil", "mozzarella"],
/// ]
/// ```
///
/// ## Numbers
/// Integers and doubles are distinct cases and stay distinct through Tally's JSON codec: `2` is
/// ``int(_:)`` and `2.0` is ``double(_:)``, and ``jsonString`` writes the double as `2.0` so that
/// ``init(json:)`` reads it back as a double. Two values of different cases are never equal, even when
/// they denote the same number.
///
/// A JSON number that neither case holds (an integer beyond 64 bits such as `18446744073709551617`, or a
/// number beyond the largest double such as `1e400`) is ``bigNumber(_:)``, kept exactly as its text; see
/// ``BigNumber``.
///
/// ``int(_:)`` holds an `Int`, which has 32 bits on Apple Watch hardware (arm64_32; the simulators have 64).
/// There an integer beyond 32 bits, read from JSON, converted from an `Int64` or an `NSNumber`, is
/// ``bigNumber(_:)``: exact, and written back as the same JSON text, but not equal to ``int(_:)`` of the same
/// number made on a 64-bit device. Compare such values by their JSON text (``jsonString``) when a recording
/// may come from a watch.
///
/// JSON has no NaN or infinity. The client replaces such doubles with ``null`` and reports a
/// ``Problem/Code/nonFiniteNumber`` problem; ``jsonString`` writes them as `null` too.
///
/// ## Dates
/// A date is stored as a string: ``date(_:)`` formats it as ISO 8601 in UTC with millisecond precision,
/// for example `2026-11-22T03:17:53.120Z`. That is the single rule Tally uses everywhere a date becomes a
/// property.
public enum PropertyValue: Sendable, Hashable {
    /// A string.
    case string(String)
    /// A signed integer: 64 bits, or 32 on Apple Watch hardware (arm64_32), where an integer beyond 32 bits
    /// is ``bigNumber(_:)`` instead. See "Numbers" above.
    case int(Int)
    /// A double-precision floating-point number.
    case double(Double)
    /// A number too large for ``int(_:)`` or ``double(_:)``, kept exactly. See ``BigNumber``.
    indirect case bigNumber(BigNumber)
    /// A Boolean.
    case bool(Bool)
    /// An ordered list of values.
    case array([PropertyValue])
    /// A string-keyed map of values.
    case object([String: PropertyValue])
    /// JSON `null`.
    case null
}

extension PropertyValue {
    /// The string, if this is ``string(_:)``.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, if this is ``int(_:)``.
    public var intValue: Int? {
        if case .int(let value) = self { return value }
        return nil
    }

    /// The number as a double, if this is ``double(_:)`` or ``int(_:)``.
    public var doubleValue: Double? {
        switch self {
        case .double(let value): return value
        case .int(let value): return Double(value)
        default: return nil
        }
    }

    /// The Boolean, if this is ``bool(_:)``.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, if this is ``array(_:)``.
    public var arrayValue: [PropertyValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, if this is ``object(_:)``.
    public var objectValue: [String: PropertyValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The JSON type name of this value: `string`, `integer`, `number`, `boolean`, `array`, `object` or
    /// `null`, as JSON Schema spells them. A ``bigNumber(_:)`` without a fractional part is an `integer`.
    public var typeName: String {
        switch self {
        case .string: return "string"
        case .int: return "integer"
        case .double: return "number"
        case .bigNumber(let number): return number.isInteger ? "integer" : "number"
        case .bool: return "boolean"
        case .array: return "array"
        case .object: return "object"
        case .null: return "null"
        }
    }

    /// A string property holding `date` as ISO 8601 in UTC with milliseconds, for example
    /// `2026-11-22T03:17:53.120Z`.
    ///
    /// This is the one rule Tally applies to dates, in properties, traits and recordings. The form has four
    /// year digits: a date before year 0000 or after 9999 is written as the nearest end of that range
    /// (`9999-12-31T23:59:59.999Z`), and a NaN time interval as `0000-01-01T00:00:00.000Z`.
    public static func date(_ date: Date) -> PropertyValue {
        .string(ISO8601.string(from: date))
    }
}

// MARK: - Literals

extension PropertyValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension PropertyValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension PropertyValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension PropertyValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PropertyValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: PropertyValue...) { self = .array(elements) }
}

extension PropertyValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, PropertyValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension PropertyValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension PropertyValue: ExpressibleByStringInterpolation {}

// MARK: - Description

extension PropertyValue: CustomStringConvertible {
    /// The value as compact JSON, keys sorted.
    public var description: String { jsonString }
}
