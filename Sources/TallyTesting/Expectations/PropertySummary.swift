import Tally

/// A cheap, order-independent summary of a property dictionary, for rejecting unequal events before
/// comparing them in full.
///
/// Comparing two dictionaries with `==` hashes every key of one to find it in the other, which is most of
/// the cost of an expectation over a large recording. The summary adds up a few bits of each value in one
/// walk over the dictionary, then, only when those agree, a hash of each key and string value in a
/// second. Equal dictionaries always pass ``mayEqual(_:)``, so failing it proves the dictionaries differ;
/// passing it proves nothing and the full comparison follows.
///
/// For that promise the summary keeps only what `==` cannot tell apart. Strings are equal under Unicode
/// canonical equivalence, so equal strings may differ in bytes (the Kelvin sign equals "K"): keys and
/// string values are hashed by their bytes only while every one of them is ASCII, where equal strings have
/// equal bytes, and otherwise left out. An integer contributes its bits, a double its bits with `-0.0`
/// counted as `0.0`, a Boolean its value, an array or object its count.
struct PropertySummary: Sendable {
    private let values: UInt64
    /// The keys' and string values' summary, or nil when one of them is not ASCII.
    private let text: UInt64?

    /// Summarises the expected properties.
    init(_ properties: Event.Properties) {
        values = Self.valuesSummary(properties)
        text = Self.textSummary(properties)
    }

    /// False only when `properties` cannot equal the summarised dictionary. The text is read only when
    /// the values agree, so an event whose numbers differ costs one walk over its values.
    func mayEqual(_ properties: Event.Properties) -> Bool {
        guard Self.valuesSummary(properties) == values else { return false }
        guard let text, let other = Self.textSummary(properties) else { return true }
        return text == other
    }

    private static func valuesSummary(_ properties: Event.Properties) -> UInt64 {
        var sum = UInt64(truncatingIfNeeded: properties.count)
        for (_, value) in properties { sum &+= bits(of: value) }
        return sum
    }

    private static func textSummary(_ properties: Event.Properties) -> UInt64? {
        var sum: UInt64 = 0
        for (key, value) in properties {
            guard let keyBits = asciiBits(of: key) else { return nil }
            sum &+= keyBits
            if case .string(let string) = value {
                guard let stringBits = asciiBits(of: string) else { return nil }
                // Spread apart from the keys, so a key and a value swapping places still differ.
                sum &+= stringBits &* 0x9FB2_1C65_1E98_DF25
            }
        }
        return sum
    }

    private static func bits(of value: PropertyValue) -> UInt64 {
        // Each kind is spread by its own odd multiplier, so an integer and a double, say, rarely collide.
        switch value {
        case .string: return 0x9E37_79B9_7F4A_7C15
        case .int(let int): return UInt64(bitPattern: Int64(int)) &* 0xBF58_476D_1CE4_E5B9
        case .double(let double): return (double == 0 ? 0 : double.bitPattern) &* 0x94D0_49BB_1331_11EB
        case .bigNumber: return 0x3C79_AC49_2BA7_B653  // rare: one value for all, consistent with ==
        case .bool(let bool): return bool ? 0x2545_F491_4F6C_DD1D : 0x5851_F42D_4C95_7F2D
        case .array(let array): return UInt64(truncatingIfNeeded: array.count) &* 0x1405_7B7E_F767_814F | 1
        case .object(let object): return UInt64(truncatingIfNeeded: object.count) &* 0x2127_599B_F432_5C37 | 2
        case .null: return 0xD6E8_FEB8_6659_FD93
        }
    }

    /// A hash of the key's bytes, read eight at a time, or nil if one of them is not ASCII (or the bytes
    /// are not contiguous, which native strings always are).
    private static func asciiBits(of key: String) -> UInt64? {
        let summary = key.utf8.withContiguousStorageIfAvailable { bytes -> UInt64? in
            let raw = UnsafeRawBufferPointer(bytes)
            var hash = UInt64(truncatingIfNeeded: raw.count) &* 0x9E37_79B9_7F4A_7C15
            var seen: UInt64 = 0
            func mix(_ word: UInt64) {
                seen |= word
                hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
            }
            if raw.count < 8 {
                var word: UInt64 = 0
                for (offset, byte) in raw.enumerated() { word |= UInt64(byte) << (8 * offset) }
                mix(word)
            } else {
                var offset = 0
                while offset + 8 <= raw.count {
                    mix(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                    offset += 8
                }
                // The last, partial word overlaps the one before it.
                if offset < raw.count { mix(raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self)) }
            }
            return seen & 0x8080_8080_8080_8080 == 0 ? hash : nil
        }
        return summary ?? nil
    }
}
