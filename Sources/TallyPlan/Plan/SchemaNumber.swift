import Tally

/// A number in a tracking plan, exactly as JSON wrote it: an integer of any size, or a double.
///
/// Bounds (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`) and `multipleOf` are schema numbers,
/// so `maximum: 9007199254740992` (2^53) rejects 9007199254740993 and `maximum: 1e400` needs no double that
/// large. An integer written without fraction or exponent is exact at any size; a number with a fraction or
/// exponent is the nearest double, as JSON readers (and Tally's recordings) read it.
///
/// ```swift
/// let price = PropertySchema(types: [.number], minimum: 0, multipleOf: 0.01)
/// let id = PropertySchema(types: [.integer], maximum: SchemaNumber(json: "18446744073709551615"))
/// ```
public struct SchemaNumber: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral
{
    /// The number: `PropertyValue.int`, a finite `PropertyValue.double` or `PropertyValue.bigNumber`.
    public let value: PropertyValue

    /// An integer.
    public init(_ value: Int) { self.value = .int(value) }

    /// A double; nil for NaN and infinities, which JSON cannot write.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        self.value = .double(value)
    }

    /// A number too large for `Int` or `Double`.
    public init(_ value: BigNumber) { self.value = .bigNumber(value) }

    /// A JSON number held in a property value; nil for any other value and for NaN and infinities.
    public init?(_ value: PropertyValue) {
        switch value {
        case .int, .bigNumber: self.value = value
        case .double(let double) where double.isFinite: self.value = value
        default: return nil
        }
    }

    /// Reads JSON number text, such as `12`, `0.5`, `1e-3` or `18446744073709551617`; nil for other text.
    public init?(json text: String) {
        guard let value = try? PropertyValue(json: text), let number = SchemaNumber(value) else { return nil }
        self = number
    }

    public init(integerLiteral value: Int) { self.value = .int(value) }

    public init(floatLiteral value: Double) { self.value = .double(value) }

    /// The number as JSON writes it: `12`, `0.5`, `18446744073709551617`.
    public var description: String { value.jsonString }

    /// Whether the number has no fractional part: `3`, `3.0` and `1e400` are integers.
    public var isInteger: Bool {
        switch value {
        case .int: return true
        case .double(let double): return double.rounded(.towardZero) == double
        case .bigNumber(let big): return big.isInteger
        default: return false
        }
    }
}

extension SchemaNumber {
    /// -1, 0 or 1 as `lhs` is below, equal to or above `rhs`, exactly.
    static func compare(_ lhs: SchemaNumber, _ rhs: SchemaNumber) -> Int {
        CompiledNumber.compare(lhs.value, rhs)
    }
}

/// A ``SchemaNumber`` prepared for comparisons: most take one `Int` or `Double` comparison, and only a tie
/// between a value and a bound that no double holds exactly takes the exact decimal path.
///
/// A plain value with no references, so validation reads it without retains; the exact path is handed the
/// ``SchemaNumber`` itself, only when it needs it.
struct CompiledNumber: Sendable {
    /// The bound as an `Int` when it is an integer that fits (``hasInt``): integers compare against it exactly.
    let int: Int
    let hasInt: Bool
    /// The nearest double (infinite beyond the largest one). Rounding is monotonic, so a value whose double
    /// is strictly below or above this one is strictly below or above the bound.
    let double: Double
    /// Whether ``double`` is the bound exactly.
    let isExactDouble: Bool

    init(_ number: SchemaNumber) {
        switch number.value {
        case .int(let int):
            self.int = int
            self.hasInt = true
            self.double = Double(int)
            self.isExactDouble = Int(exactly: Double(int)) == int
        case .double(let double):
            self.int = Int(exactly: double) ?? 0
            self.hasInt = Int(exactly: double) != nil
            self.double = double
            self.isExactDouble = true
        case .bigNumber(let big):
            self.int = 0
            self.hasInt = false
            self.double = big.doubleValue
            self.isExactDouble = false
        default:
            preconditionFailure("A SchemaNumber holds a number")
        }
    }

    /// -1, 0 or 1 as `value` is below, equal to or above the bound `number` this was compiled from.
    @inline(__always)
    func compare(_ value: Int, exact number: @autoclosure () -> SchemaNumber) -> Int {
        if hasInt { return value < int ? -1 : (value > int ? 1 : 0) }
        let rounded = Double(value)
        if rounded < double { return -1 }
        if rounded > double { return 1 }
        return Self.compare(.int(value), number())
    }

    /// -1, 0 or 1 as `value` (finite) is below, equal to or above the bound `number` this was compiled from.
    @inline(__always)
    func compare(_ value: Double, exact number: @autoclosure () -> SchemaNumber) -> Int {
        if value < double { return -1 }
        if value > double { return 1 }
        if isExactDouble { return 0 }
        return Self.compare(.double(value), number())
    }

    /// The exact comparison of any JSON number with a bound: through decimals unless both are plain.
    static func compare(_ value: PropertyValue, _ number: SchemaNumber) -> Int {
        switch (value, number.value) {
        case (.int(let a), .int(let b)): return a < b ? -1 : (a > b ? 1 : 0)
        case (.double(let a), .double(let b)): return a < b ? -1 : (a > b ? 1 : 0)
        default:
            guard let lhs = ExactDecimal(value), let rhs = ExactDecimal(number.value) else { return 0 }
            return ExactDecimal.compare(lhs, rhs)
        }
    }

    /// Whether `value` divided by `number` (this divisor, greater than zero) is an integer, taking each as the
    /// decimal JSON writes for it (a double as its shortest form that reads back the same, so 0.3 is a
    /// multiple of 0.1).
    @inline(__always)
    func divides(_ value: Int, exact number: @autoclosure () -> SchemaNumber) -> Bool {
        if hasInt { return value % int == 0 }
        return Self.divides(.int(value), number())
    }

    static func divides(_ value: PropertyValue, _ number: SchemaNumber) -> Bool {
        guard let dividend = decimal(value), let divisor = decimal(number.value), !divisor.isZero else {
            return true
        }
        return dividend.isMultiple(of: divisor)
    }

    private static func decimal(_ value: PropertyValue) -> ExactDecimal? {
        switch value {
        case .int(let int): return ExactDecimal(int)
        case .double(let double) where double.isFinite: return ExactDecimal(shortest: double)
        case .bigNumber(let big): return ExactDecimal(big)
        default: return nil
        }
    }
}
