import Tally

/// Equality of JSON values as JSON Schema defines it for `enum`, `const` and `uniqueItems`: numbers are equal
/// when they denote the same mathematical value (`1` equals `1.0`, exactly at any size), strings when they
/// have the same Unicode code points (not by `String`'s canonical equivalence), arrays element by element,
/// objects member by member with names compared by code points.
enum JSONEquality {
    static func equal(_ lhs: PropertyValue, _ rhs: PropertyValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return a.hasSameCodePoints(as: b)
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Int(exactly: b) == a
        case (.bigNumber(let a), .bigNumber(let b)): return a == b
        case (.bigNumber, .int), (.int, .bigNumber): return false  // a big number never fits in Int
        case (.bigNumber(let a), .double(let b)), (.double(let b), .bigNumber(let a)):
            guard b.isFinite else { return false }
            return ExactDecimal(a) == ExactDecimal(exactly: b)
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null): return true
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            for (key, value) in a {
                guard let other = member(key, of: b), equal(value, other) else { return false }
            }
            return true
        default:
            return false
        }
    }

    /// The member called `name`, matched by code points. A dictionary finds keys by canonical equivalence and
    /// holds one key of each equivalence class, so one lookup and a byte comparison settle it.
    @inline(__always)
    static func member(_ name: String, of object: [String: PropertyValue]) -> PropertyValue? {
        guard let index = object.index(forKey: name) else { return nil }
        let (key, value) = object[index]
        guard key.hasSameCodePoints(as: name) else { return Optional.none }  // `nil` alone would be PropertyValue.null
        return value
    }

    /// The positions of the first two equal elements, or nil when all differ.
    static func firstRepeat(in elements: [PropertyValue]) -> (Int, Int)? {
        guard elements.count > 1 else { return nil }
        if elements.count <= 16 {
            for second in 1..<elements.count {
                for first in 0..<second where equal(elements[first], elements[second]) { return (first, second) }
            }
            return nil
        }
        // Bucket by a hash that equal values share, then compare within a bucket.
        var buckets: [Int: [Int]] = [:]
        var repeats: [(Int, Int)] = []
        for (index, element) in elements.enumerated() {
            let key = hash(element)
            if let earlier = buckets[key]?.first(where: { equal(elements[$0], element) }) {
                repeats.append((earlier, index))
                break
            }
            buckets[key, default: []].append(index)
        }
        return repeats.first
    }

    /// A hash equal values share: numbers by their nearest double, strings by code points, objects whatever
    /// their member order.
    private static func hash(_ value: PropertyValue) -> Int {
        var hasher = Hasher()
        switch value {
        case .string(let string): hasher.combine(PropertyName(string))
        case .int(let int): hasher.combine(Double(int))
        case .double(let double): hasher.combine(double == 0 ? 0 : double)
        case .bigNumber(let number): hasher.combine(number.doubleValue)
        case .bool(let bool): hasher.combine(bool)
        case .null: hasher.combine(0 as UInt8)
        case .array(let elements):
            hasher.combine(elements.count)
            for element in elements { hasher.combine(hash(element)) }
        case .object(let members):
            hasher.combine(members.count)
            hasher.combine(members.reduce(0) { $0 &+ (PropertyName($1.key).hashValue ^ hash($1.value)) })
        }
        return hasher.finalize()
    }
}
