import Foundation

/// A JSON number that neither `Int` nor `Double` holds, kept exactly as its JSON text.
///
/// JSON puts no limit on numbers. Tally reads an integer written without a fraction or exponent as
/// ``PropertyValue/int(_:)`` when it fits in `Int`, and any other number as ``PropertyValue/double(_:)``
/// when it is a finite double. What is left, integers beyond 64 bits such as `18446744073709551617` and
/// numbers beyond the largest double such as `1e400`, becomes ``PropertyValue/bigNumber(_:)``: reading and
/// writing a recording never changes such a number, never turns it into `null`, and a tracking plan
/// compares it exactly.
///
/// ```swift
/// let value = try PropertyValue(json: "18446744073709551617")
/// // .bigNumber(18446744073709551617)
/// print(value.jsonString)  // 18446744073709551617
/// ```
///
/// Two big numbers are equal when they denote the same value: `1e400` equals `10E+399`. Like the other cases
/// of ``PropertyValue``, `.bigNumber` never equals `.int` or `.double`; JSON Schema's numeric equality across
/// them is the tracking plan validator's business.
public struct BigNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number as JSON text, as it was read or given: `18446744073709551617`, `-1.5e400`.
    public let text: String
    /// Whether the number is below zero.
    package let isNegative: Bool
    /// The significant decimal digits (values 0 to 9), without leading or trailing zeros; never empty, since
    /// zero fits in `Int`.
    package let digits: [UInt8]
    /// The power of ten the digits are scaled by: the value is `digits × 10^exponent`. Held within
    /// ±``exponentLimit``.
    package let exponent: Int

    /// Exponents beyond this (in either direction) are held at it. Numbers that far out differ only in texts
    /// no one writes, such as `1e100000000` and `1e100000001`. Small enough for a 32-bit `Int` (a watch's),
    /// with the number's other digits added, on every platform alike.
    package static let exponentLimit = 100_000_000

    /// Reads a JSON number that neither `Int` nor `Double` holds.
    ///
    /// ```swift
    /// let past64 = BigNumber("18446744073709551617")  // an integer past UInt64
    /// let huge = BigNumber("1e400")                   // beyond the largest double
    /// let small = BigNumber("12")                     // nil: use .int(12)
    /// let fraction = BigNumber("0.1")                 // nil: use .double(0.1)
    /// ```
    ///
    /// - Parameter text: a number in JSON's grammar: an optional `-`, digits without leading zeros, an
    ///   optional fraction and exponent.
    /// - Returns: nil when `text` is not a JSON number, or when it is an integer literal that fits in `Int`,
    ///   or another number that reads as a finite `Double`; those are ``PropertyValue/int(_:)`` and
    ///   ``PropertyValue/double(_:)``.
    public init?(_ text: String) {
        guard let parts = Self.decimalParts(of: text) else { return nil }
        if parts.isIntegerLiteral {
            guard Int(text) == nil else { return nil }
        } else if let double = Double(text), double.isFinite {
            return nil
        }
        self.init(text: text, parts: parts)
    }

    /// An integer of any width that `Int` does not hold, such as `UInt64.max`; nil when it fits in `Int`.
    public init?(exactly value: some BinaryInteger) {
        guard Int(exactly: value) == nil else { return nil }
        self.init(String(value))
    }

    /// For readers that have checked the grammar and that neither `Int` nor `Double` holds `text`.
    package init(validatedText text: String) {
        guard let parts = Self.decimalParts(of: text) else { preconditionFailure("Not a JSON number: \(text)") }
        self.init(text: text, parts: parts)
    }

    private init(text: String, parts: DecimalParts) {
        self.text = text
        self.isNegative = parts.isNegative
        self.digits = parts.digits
        self.exponent = parts.exponent
    }

    /// Whether the number has no fractional part. `1e400` is an integer, as JSON Schema counts them.
    public var isInteger: Bool { exponent >= 0 }

    /// The nearest `Double`: infinite beyond the largest double.
    public var doubleValue: Double { Double(text) ?? (isNegative ? -.infinity : .infinity) }

    /// The number as a `Decimal`, when one holds it exactly (at most 38 significant digits and a power of ten
    /// from -128 to 127); nil otherwise.
    public var exactDecimal: Decimal? {
        guard digits.count <= 38, (-128...127).contains(exponent) else { return nil }
        let significand = digits.map { String($0) }.joined()
        return Decimal(string: (isNegative ? "-" : "") + significand + "e" + String(exponent))
    }

    /// The JSON text.
    public var description: String { text }

    public static func == (lhs: BigNumber, rhs: BigNumber) -> Bool {
        lhs.isNegative == rhs.isNegative && lhs.exponent == rhs.exponent && lhs.digits == rhs.digits
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(isNegative)
        hasher.combine(exponent)
        hasher.combine(digits)
    }

    // MARK: Reading

    /// JSON number text taken apart: the value is `digits × 10^exponent`, negated when `isNegative`.
    package struct DecimalParts: Sendable {
        /// Whether a `-` leads (also for `-0`).
        package var isNegative = false
        /// Whether the text has neither a fraction nor an exponent.
        package var isIntegerLiteral = true
        /// Significant digits (values 0 to 9) without leading or trailing zeros; empty for zero.
        package var digits: [UInt8] = []
        /// The power of ten, held within ±``exponentLimit``.
        package var exponent = 0
    }

    /// Splits JSON number text into sign, significant digits and exponent; nil when it is not a JSON number.
    package static func decimalParts(of text: String) -> DecimalParts? {
        let bytes = Array(text.utf8)
        var index = 0
        var parts = DecimalParts()
        func isDigit(_ position: Int) -> Bool {
            position < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position])
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            parts.isNegative = true
            index += 1
        }
        guard isDigit(index) else { return nil }
        var mantissa: [UInt8] = []
        var fractionDigits = 0
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            guard !isDigit(index) else { return nil }  // no leading zeros
            mantissa.append(0)
        } else {
            while isDigit(index) {
                mantissa.append(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            parts.isIntegerLiteral = false
            index += 1
            guard isDigit(index) else { return nil }
            while isDigit(index) {
                mantissa.append(bytes[index] - UInt8(ascii: "0"))
                fractionDigits += 1
                index += 1
            }
        }
        var exponent = 0
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            parts.isIntegerLiteral = false
            index += 1
            var negative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                negative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard isDigit(index) else { return nil }
            while isDigit(index) {
                // At most 10 × exponentLimit + 9: no overflow, even in a 32-bit Int.
                if exponent <= exponentLimit {
                    let digit = Int(bytes[index] - UInt8(ascii: "0"))  // int-width: ok (0 to 9)
                    exponent = exponent * 10 + digit  // int-width: ok (bounded above)
                }
                index += 1
            }
            if negative { exponent = -exponent }
        }
        guard index == bytes.count else { return nil }
        // Normalise: drop leading and trailing zeros, moving trailing ones into the exponent.
        let first = mantissa.firstIndex { $0 != 0 } ?? mantissa.count
        let last = mantissa.lastIndex { $0 != 0 }.map { $0 + 1 } ?? first
        parts.digits = Array(mantissa[first..<last])
        let scale = exponent - fractionDigits + (mantissa.count - last)
        parts.exponent = parts.digits.isEmpty ? 0 : min(max(scale, -exponentLimit), exponentLimit)
        return parts
    }
}
