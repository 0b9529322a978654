extension PropertyValue {
    /// The deepest nesting of arrays and objects any path of Tally reads or writes: 64 levels.
    ///
    /// An array or object is at level 1; the arrays and objects inside it are at level 2, and so on. A value
    /// directly in ``Event/properties`` counts from there, so the properties dictionary itself is level 0.
    ///
    /// One rule, everywhere a `PropertyValue` is read or written, so that what one path writes every other
    /// path reads:
    ///
    /// | path | deeper than 64 levels |
    /// |---|---|
    /// | the client (``InputLimits``) | cut: the container at the level past the limit becomes `null`, reported as ``Problem/Code/nestingTooDeep``; ``InputLimits/maximumDepth`` (32 by default) cannot exceed this limit |
    /// | ``init(json:)``, record lines | refused with a ``JSONError`` (in a recording: that line, named by its number) |
    /// | ``jsonString``, record lines written | cut to `null`; ``RecordingDestination`` reports ``Problem/Code/nestingTooDeep`` |
    /// | `Codable` | refused with an `EncodingError` or `DecodingError` naming the coding path |
    /// | ``init(any:)`` / ``foundationValue`` | refused (nil) / cut to `NSNull` |
    ///
    /// Reading and writing stay within a small stack at this depth (a thread of 512 KiB, the size of a
    /// secondary thread on Apple platforms), however deep the input is. Comparing and hashing values
    /// never recurse deeper than this either.
    public static let maximumDepth = 64

    /// Whether arrays and objects nest in this value deeper than `levels` levels, where this value, if it
    /// is an array or object, is at level `level`. Never looks further down than `levels + 1`.
    package func nests(deeperThan levels: Int, level: Int = 1) -> Bool {
        switch self {
        case .array(let elements):
            return level > levels || elements.contains { $0.nests(deeperThan: levels, level: level + 1) }
        case .object(let members):
            return level > levels || members.values.contains { $0.nests(deeperThan: levels, level: level + 1) }
        default:
            return false
        }
    }

    /// JSON pointers (RFC 6901) below `path` to each array or object nested past `levels` levels, where
    /// this value, if it is an array or object, is at `level`.
    package func paths(deeperThan levels: Int, level: Int = 1, path: String, into paths: inout [String]) {
        switch self {
        case .array(let elements):
            guard level <= levels else { return paths.append(path) }
            for (index, element) in elements.enumerated() {
                element.paths(deeperThan: levels, level: level + 1, path: "\(path)/\(index)", into: &paths)
            }
        case .object(let members):
            guard level <= levels else { return paths.append(path) }
            for key in members.keys.sorted() {
                members[key]!.paths(
                    deeperThan: levels, level: level + 1, path: path + "/" + JSONPointer.escape(key), into: &paths)
            }
        default:
            return
        }
    }
}

extension Dictionary where Key == String, Value == PropertyValue {
    /// JSON pointers below `path` to each array or object nested past `levels` levels, with the values of
    /// this dictionary at level 1.
    package func paths(deeperThan levels: Int, path: String) -> [String] {
        var paths: [String] = []
        for key in keys.sorted() where self[key]!.nests(deeperThan: levels) {
            self[key]!.paths(deeperThan: levels, path: path + "/" + JSONPointer.escape(key), into: &paths)
        }
        return paths
    }
}

// MARK: - Equality and hashing without deep recursion

extension PropertyValue {
    /// Two values are equal when they are the same case with equal payloads: `1` and `1.0` differ, object
    /// members compare by key whatever their order, strings by Unicode canonical equivalence.
    ///
    /// Values nested deeper than ``maximumDepth`` are compared with a list of pending pairs instead of
    /// recursion, so comparing them needs no more stack than comparing values at the limit.
    public static func == (lhs: PropertyValue, rhs: PropertyValue) -> Bool {
        lhs.isEqual(to: rhs, level: 1)
    }

    private func isEqual(to other: PropertyValue, level: Int) -> Bool {
        switch (self, other) {
        case (.string(let a), .string(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.bigNumber(let a), .bigNumber(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null): return true
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return false }
            guard level < Self.maximumDepth else { return Self.pendingPairsEqual(self, other) }
            for index in a.indices where !a[index].isEqual(to: b[index], level: level + 1) { return false }
            return true
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            guard level < Self.maximumDepth else { return Self.pendingPairsEqual(self, other) }
            for (key, value) in a {
                guard let counterpart = b[key], value.isEqual(to: counterpart, level: level + 1) else { return false }
            }
            return true
        default:
            return false
        }
    }

    /// Compares two values of any depth with a list of pairs still to compare, on the heap.
    private static func pendingPairsEqual(_ lhs: PropertyValue, _ rhs: PropertyValue) -> Bool {
        var pending = [(lhs, rhs)]
        while let (a, b) = pending.popLast() {
            switch (a, b) {
            case (.array(let x), .array(let y)):
                guard x.count == y.count else { return false }
                pending.append(contentsOf: zip(x, y))
            case (.object(let x), .object(let y)):
                guard x.count == y.count else { return false }
                for (key, value) in x {
                    guard let counterpart = y[key] else { return false }
                    pending.append((value, counterpart))
                }
            case (.array, _), (.object, _), (_, .array), (_, .object):
                return false
            default:
                guard a.isEqual(to: b, level: 1) else { return false }
            }
        }
        return true
    }

    /// Hashes the case and payload. Below ``maximumDepth`` levels only each container's size is hashed:
    /// equal values still hash equally, and hashing needs no deeper recursion than the limit.
    public func hash(into hasher: inout Hasher) {
        hash(into: &hasher, level: 1)
    }

    private func hash(into hasher: inout Hasher, level: Int) {
        switch self {
        case .string(let value):
            hasher.combine(0 as UInt8)
            hasher.combine(value)
        case .int(let value):
            hasher.combine(1 as UInt8)
            hasher.combine(value)
        case .double(let value):
            hasher.combine(2 as UInt8)
            hasher.combine(value)
        case .bool(let value):
            hasher.combine(3 as UInt8)
            hasher.combine(value)
        case .null:
            hasher.combine(4 as UInt8)
        case .bigNumber(let value):
            hasher.combine(7 as UInt8)
            hasher.combine(value)
        case .array(let elements):
            hasher.combine(5 as UInt8)
            hasher.combine(elements.count)
            guard level <= Self.maximumDepth else { return }
            for element in elements { element.hash(into: &hasher, level: level + 1) }
        case .object(let members):
            hasher.combine(6 as UInt8)
            hasher.combine(members.count)
            guard level <= Self.maximumDepth else { return }
            // Members in any order hash the same: combine each member's own hash commutatively.
            var sum = 0
            for (key, value) in members {
                var member = Hasher()
                member.combine(key)
                value.hash(into: &member, level: level + 1)
                sum &+= member.finalize()
            }
            hasher.combine(sum)
        }
    }
}
