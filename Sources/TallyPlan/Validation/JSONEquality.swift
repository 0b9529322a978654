import Tally

/// Equality of JSON values as JSON Schema defines it for `enum` and `const`: numbers are equal when they
/// denote the same mathematical value (`1` equals `1.0`), arrays element by element, objects member by
/// member, everything else as `PropertyValue` compares.
enum JSONEquality {
    static func equal(_ lhs: PropertyValue, _ rhs: PropertyValue) -> Bool {
        switch (lhs, rhs) {
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)):
            return Double(exactly: a) == b || Int(exactly: b) == a
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            for (key, value) in a {
                guard let other = b[key], equal(value, other) else { return false }
            }
            return true
        default:
            return lhs == rhs
        }
    }
}
