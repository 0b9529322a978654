import Tally

/// A number as an exact decimal: a sign, significant digits and a power of ten. The slow, exact path of
/// number comparisons and of `multipleOf`; the fast paths compare `Int`s and `Double`s directly.
///
/// Any `Int`, any finite `Double` (by its exact binary value) and any ``BigNumber`` converts without loss.
struct ExactDecimal: Comparable, CustomStringConvertible {
    var isNegative: Bool
    /// Significant digits, most significant first, values 0 to 9; no leading or trailing zeros; empty for zero.
    var digits: [UInt8]
    /// The value is `digits × 10^exponent`.
    var exponent: Int

    var isZero: Bool { digits.isEmpty }

    init(isNegative: Bool, digits: [UInt8], exponent: Int) {
        let first = digits.firstIndex { $0 != 0 } ?? digits.count
        let last = digits.lastIndex { $0 != 0 }.map { $0 + 1 } ?? first
        self.digits = Array(digits[first..<last])
        self.isNegative = self.digits.isEmpty ? false : isNegative
        self.exponent = self.digits.isEmpty ? 0 : exponent + (digits.count - last)
    }

    init(_ value: Int) {
        self.init(
            isNegative: value < 0, digits: String(value.magnitude).utf8.map { $0 - UInt8(ascii: "0") }, exponent: 0)
    }

    init(_ value: BigNumber) {
        self.init(isNegative: value.isNegative, digits: value.digits, exponent: value.exponent)
    }

    /// The exact value of a finite double: its significand times a power of two, written in decimal.
    init(exactly value: Double) {
        precondition(value.isFinite, "Only finite doubles have a decimal value")
        guard value != 0 else {
            self.init(isNegative: false, digits: [], exponent: 0)
            return
        }
        // value = significand × 2^power with an integer significand.
        let significand = value.significandBitPattern | (value.isNormal ? 1 << 52 : 0)
        var power = Int(value.exponent) - 52
        if !value.isNormal { power = -1074 }
        // Little-endian decimal digits of the significand, then scaled.
        var little = String(significand).utf8.reversed().map { $0 - UInt8(ascii: "0") }
        var decimalExponent = 0
        if power >= 0 {
            Self.multiply(&little, byPowerOf: 2, power, chunk: 30)
        } else {
            // × 2^-k = × 5^k / 10^k
            Self.multiply(&little, byPowerOf: 5, -power, chunk: 13)
            decimalExponent = power
        }
        self.init(isNegative: value < 0, digits: little.reversed(), exponent: decimalExponent)
    }

    /// The decimal Tally writes for a double: its shortest form that reads back as the same double, `0.1` for
    /// 0.1. What `multipleOf` divides, so that 0.3 is a multiple of 0.1 as its JSON text says.
    init(shortest value: Double) {
        precondition(value.isFinite, "Only finite doubles have a decimal value")
        let parts = BigNumber.decimalParts(of: value.description)!  // Swift writes finite doubles in JSON's grammar
        self.init(isNegative: parts.isNegative, digits: parts.digits, exponent: parts.exponent)
    }

    /// The exact value of a JSON number: nil for other values and for non-finite doubles.
    init?(_ value: PropertyValue) {
        switch value {
        case .int(let int): self.init(int)
        case .double(let double) where double.isFinite: self.init(exactly: double)
        case .bigNumber(let big): self.init(big)
        default: return nil
        }
    }

    /// `digits` (little-endian) × base^count, `chunk` factors at a time so each step fits in 64 bits.
    private static func multiply(_ little: inout [UInt8], byPowerOf base: UInt64, _ count: Int, chunk: Int) {
        var remaining = count
        while remaining > 0 {
            let step = min(chunk, remaining)
            var factor: UInt64 = 1
            for _ in 0..<step { factor *= base }
            var carry: UInt64 = 0
            for index in little.indices {
                let product = UInt64(little[index]) * factor + carry
                little[index] = UInt8(product % 10)
                carry = product / 10
            }
            while carry > 0 {
                little.append(UInt8(carry % 10))
                carry /= 10
            }
            remaining -= step
        }
    }

    // MARK: Order

    /// The power of ten of the leading digit plus one: 123 has 3, 0.05 has -1.
    private var magnitude: Int { digits.count + exponent }

    static func < (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool { compare(lhs, rhs) < 0 }

    static func == (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
        lhs.isNegative == rhs.isNegative && lhs.exponent == rhs.exponent && lhs.digits == rhs.digits
    }

    /// -1, 0 or 1 as `lhs` is below, equal to or above `rhs`.
    static func compare(_ lhs: ExactDecimal, _ rhs: ExactDecimal) -> Int {
        if lhs.isZero || rhs.isZero {
            if lhs.isZero && rhs.isZero { return 0 }
            if lhs.isZero { return rhs.isNegative ? 1 : -1 }
            return lhs.isNegative ? -1 : 1
        }
        if lhs.isNegative != rhs.isNegative { return lhs.isNegative ? -1 : 1 }
        let sign = lhs.isNegative ? -1 : 1
        if lhs.magnitude != rhs.magnitude { return lhs.magnitude < rhs.magnitude ? -sign : sign }
        for (a, b) in zip(lhs.digits, rhs.digits) where a != b { return a < b ? -sign : sign }
        if lhs.digits.count == rhs.digits.count { return 0 }
        return lhs.digits.count < rhs.digits.count ? -sign : sign
    }

    // MARK: Division

    /// Whether `self / divisor` is an integer. `divisor` must not be zero.
    func isMultiple(of divisor: ExactDecimal) -> Bool {
        precondition(!divisor.isZero, "multipleOf is greater than zero")
        if isZero { return true }
        // self = a × 10^p, divisor = b × 10^q, neither a nor b ending in 0. With p < q the quotient needs a
        // divisible by 10, which it is not.
        guard exponent >= divisor.exponent else { return false }
        let modulus = divisor.digits
        var remainder: [UInt8] = []
        for digit in digits { remainder = Self.reduce(Self.timesTenPlus(remainder, digit), modulo: modulus) }
        // remainder × 10^(p - q), modulo b, by squaring.
        var power = Self.reduce([1], modulo: modulus)
        var base = Self.reduce([1, 0], modulo: modulus)
        var count = exponent - divisor.exponent
        while count > 0 {
            if count & 1 == 1 { power = Self.multiply(power, base, modulo: modulus) }
            base = Self.multiply(base, base, modulo: modulus)
            count >>= 1
        }
        return Self.multiply(remainder, power, modulo: modulus).isEmpty
    }

    // Non-negative integers as big-endian decimal digits without leading zeros ([] is zero).

    private static func timesTenPlus(_ value: [UInt8], _ digit: UInt8) -> [UInt8] {
        value.isEmpty && digit == 0 ? [] : value + [digit]
    }

    private static func lessThan(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count != b.count ? a.count < b.count : a.lexicographicallyPrecedes(b)
    }

    private static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = a
        var borrow: UInt8 = 0
        for offset in 0..<a.count {
            let index = a.count - 1 - offset
            let subtrahend = (offset < b.count ? b[b.count - 1 - offset] : 0) + borrow
            if result[index] >= subtrahend {
                result[index] -= subtrahend
                borrow = 0
            } else {
                result[index] = result[index] + 10 - subtrahend
                borrow = 1
            }
        }
        let first = result.firstIndex { $0 != 0 } ?? result.count
        return Array(result[first...])
    }

    private static func add(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var carry: UInt8 = 0
        for offset in 0..<max(a.count, b.count) {
            let sum =
                (offset < a.count ? a[a.count - 1 - offset] : 0) + (offset < b.count ? b[b.count - 1 - offset] : 0)
                + carry
            result.append(sum % 10)
            carry = sum / 10
        }
        if carry > 0 { result.append(carry) }
        let trimmed = Array(result.reversed())
        let first = trimmed.firstIndex { $0 != 0 } ?? trimmed.count
        return Array(trimmed[first...])
    }

    /// `value mod modulus` for a value below 20 × modulus, by subtraction.
    private static func reduce(_ value: [UInt8], modulo modulus: [UInt8]) -> [UInt8] {
        var value = value
        while !lessThan(value, modulus) { value = subtract(value, modulus) }
        return value
    }

    /// `(a × b) mod modulus` for a and b below modulus: Horner's scheme over b's digits.
    private static func multiply(_ a: [UInt8], _ b: [UInt8], modulo modulus: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        for digit in b {
            result = reduce(timesTenPlus(result, 0), modulo: modulus)
            for _ in 0..<digit { result = reduce(add(result, a), modulo: modulus) }
        }
        return result
    }

    var description: String {
        (isNegative ? "-" : "") + (digits.isEmpty ? "0" : digits.map { String($0) }.joined())
            + (exponent == 0 ? "" : "e\(exponent)")
    }
}
