extension PropertyValue: Codable {
    /// Decodes any JSON-like value from a decoder.
    ///
    /// ```swift
    /// let value = try JSONDecoder().decode(PropertyValue.self, from: Data(#"{"tags":["a","b"]}"#.utf8))
    /// ```
    ///
    /// Foreign decoders such as `JSONDecoder` do not say whether a number was written as `1` or `1.0`, so
    /// through them a whole-number double may come back as ``int(_:)``. Use ``init(json:)`` and
    /// ``jsonString`` (as Tally's recordings do) for a lossless round trip.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for an array or object nested deeper than ``maximumDepth``
    ///   (64) levels below the outermost `PropertyValue` being decoded, so a deep document cannot exhaust
    ///   the stack; the decoder's own errors otherwise.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer() {
            if container.decodeNil() {
                self = .null
                return
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
                return
            } else if let int = try? container.decode(Int.self) {
                self = .int(int)
                return
            } else if let int = try? container.decode(Int64.self) {  // beyond a 32-bit Int (a watch's)
                self = PropertyValue(integer: int)
                return
            } else if let int = try? container.decode(UInt64.self) {  // beyond Int64, exactly
                self = PropertyValue(integer: int)
                return
            } else if let double = try? container.decode(Double.self) {
                self = .double(double)
                return
            } else if let string = try? container.decode(String.self) {
                self = .string(string)
                return
            }
        }
        // An array or an object: decoded with `try`, not `try?`, so an error inside, such as nesting too
        // deep, reaches the caller with its coding path. Decoded as Swift's own array and dictionary, so
        // keys are kept as written whatever the decoder's key strategy.
        let level = CodingLevel.decoding + 1
        if (try? decoder.unkeyedContainer()) != nil {
            guard level <= Self.maximumDepth else { throw Self.tooDeep(decoder.codingPath) }
            self = .array(
                try CodingLevel.$decoding.withValue(level) {
                    try decoder.singleValueContainer().decode([PropertyValue].self)
                })
        } else if (try? decoder.container(keyedBy: MemberKey.self)) != nil {
            guard level <= Self.maximumDepth else { throw Self.tooDeep(decoder.codingPath) }
            self = .object(
                try CodingLevel.$decoding.withValue(level) {
                    try decoder.singleValueContainer().decode([String: PropertyValue].self)
                })
        } else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "Expected a JSON value (string, number, boolean, array, object or null)"))
        }
    }

    /// Encodes the value; non-finite doubles are encoded as nil.
    ///
    /// A ``bigNumber(_:)`` is encoded as a `Decimal` when one holds it exactly (up to 38 significant digits);
    /// otherwise encoding throws `EncodingError.invalidValue` rather than round it. ``jsonString`` writes any
    /// big number exactly.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(PropertyValue.array(["a", 1]))   // ["a",1]
    /// ```
    ///
    /// - Throws: `EncodingError.invalidValue` for an array or object nested deeper than ``maximumDepth``
    ///   (64) levels below the outermost `PropertyValue` being encoded, so a deep value cannot exhaust the
    ///   stack; the encoder's own errors otherwise.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .array(let elements):
            let level = try Self.checkedLevel(CodingLevel.encoding + 1, of: self, at: encoder.codingPath)
            var container = encoder.singleValueContainer()
            try CodingLevel.$encoding.withValue(level) { try container.encode(elements) }
        case .object(let members):
            // As Swift's own dictionary, so keys are written as they are whatever the encoder's key strategy.
            let level = try Self.checkedLevel(CodingLevel.encoding + 1, of: self, at: encoder.codingPath)
            var container = encoder.singleValueContainer()
            try CodingLevel.$encoding.withValue(level) { try container.encode(members) }
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .int(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .double(let value):
            var container = encoder.singleValueContainer()
            value.isFinite ? try container.encode(value) : try container.encodeNil()
        case .bigNumber(let value):
            guard let decimal = value.exactDecimal else {
                throw EncodingError.invalidValue(
                    value,
                    EncodingError.Context(
                        codingPath: encoder.codingPath,
                        debugDescription: "\(value) has more significant digits than Decimal holds; use jsonString"))
            }
            var container = encoder.singleValueContainer()
            try container.encode(decimal)
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        }
    }

    private static func checkedLevel(_ level: Int, of value: PropertyValue, at path: [any CodingKey]) throws -> Int {
        guard level <= maximumDepth else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: path,
                    debugDescription:
                        "Arrays and objects nest deeper than \(maximumDepth) levels (PropertyValue.maximumDepth)"))
        }
        return level
    }

    private static func tooDeep(_ path: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: path,
                debugDescription:
                    "Arrays and objects nest deeper than \(maximumDepth) levels (PropertyValue.maximumDepth)"))
    }

    /// Any object member's key, to ask whether the value is an object.
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }
}

/// The level of the array or object being coded, counted from the outermost `PropertyValue` (0 outside
/// one). Coding is synchronous and nested calls run on the same thread, inside `withValue`; a task-local
/// value is the one way `Codable` lets a value pass something to the values inside it.
private enum CodingLevel {
    @TaskLocal static var decoding = 0
    @TaskLocal static var encoding = 0
}
