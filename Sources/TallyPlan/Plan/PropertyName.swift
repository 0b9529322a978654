import Foundation

/// A property name in a tracking plan, compared by its Unicode code points as JSON and JSON Schema compare
/// member names.
///
/// Swift's `String` treats canonically equivalent texts as equal: "é" written as one code point (U+00E9)
/// equals "e" followed by a combining acute accent (U+0065 U+0301). JSON does not: those are two different
/// names, and a plan may declare both. Plans therefore key their properties by `PropertyName`, which is
/// equal, hashed and ordered by code points (UTF-8 byte order is code point order).
///
/// ```swift
/// let composed: PropertyName = "caf\u{E9}"
/// let decomposed: PropertyName = "cafe\u{301}"
/// print(composed == decomposed)                  // false
/// print(composed.string == decomposed.string)    // true: String compares canonically
/// ```
public struct PropertyName: Sendable, Hashable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name.
    public let string: String

    /// Creates a name.
    public init(_ string: String) { self.string = string }

    public init(stringLiteral value: String) { self.string = value }

    /// The name itself.
    public var description: String { string }

    public static func == (lhs: PropertyName, rhs: PropertyName) -> Bool {
        lhs.string.hasSameCodePoints(as: rhs.string)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(string.utf8.count)
        let hashed: Void? = string.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
        if hashed == nil { Array(string.utf8).withUnsafeBytes { hasher.combine(bytes: $0) } }
    }

    /// Code point order.
    public static func < (lhs: PropertyName, rhs: PropertyName) -> Bool {
        lhs.string.utf8.lexicographicallyPrecedes(rhs.string.utf8)
    }
}

extension String {
    /// Whether both strings have the same Unicode code points, which `==` does not tell: it also equates
    /// canonically equivalent strings.
    @inline(__always)
    func hasSameCodePoints(as other: String) -> Bool {
        let count = utf8.count
        guard count == other.utf8.count else { return false }
        // Up to 16 bytes, the fingerprint holds every byte: two loads each instead of a call.
        if count <= 16 { return NameFingerprint(self) == NameFingerprint(other) }
        let compared = utf8.withContiguousStorageIfAvailable { lhs in
            other.utf8.withContiguousStorageIfAvailable { rhs in
                count == 0 || memcmp(lhs.baseAddress!, rhs.baseAddress!, count) == 0
            }
        }
        if let compared, let compared { return compared }
        return utf8.elementsEqual(other.utf8)
    }
}
