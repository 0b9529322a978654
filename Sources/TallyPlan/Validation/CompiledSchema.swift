import Foundation
import Tally

/// A ``PropertySchema`` turned into what validation reads fastest: a type bit mask, bounds ready for one
/// `Int` or `Double` comparison, a compiled regular expression and member lookups, plus flags that let a
/// value skip every group of rules it cannot break.
///
/// Immutable after creation, so it is safe to share across threads.
final class CompiledSchema: Sendable {
    struct TypeMask: OptionSet, Sendable {
        let rawValue: UInt8
        static let string = TypeMask(rawValue: 1 << 0)
        static let integer = TypeMask(rawValue: 1 << 1)
        static let number = TypeMask(rawValue: 1 << 2)
        static let boolean = TypeMask(rawValue: 1 << 3)
        static let array = TypeMask(rawValue: 1 << 4)
        static let object = TypeMask(rawValue: 1 << 5)
        static let null = TypeMask(rawValue: 1 << 6)
        static let any = TypeMask(rawValue: 0x7F)

        init(rawValue: UInt8) { self.rawValue = rawValue }

        init(_ type: SchemaType) {
            switch type {
            case .string: self = .string
            case .integer: self = .integer
            case .number: self = .number
            case .boolean: self = .boolean
            case .array: self = .array
            case .object: self = .object
            case .null: self = .null
            }
        }
    }

    enum Additional: Sendable {
        case allowed
        case forbidden
        case schema(CompiledSchema)
    }

    struct Member: Sendable {
        let schema: CompiledSchema
        let isRequired: Bool
    }

    /// Which groups of rules the schema has, so a value skips the others without touching them.
    struct Rules: OptionSet, Sendable {
        let rawValue: UInt8
        static let personal = Rules(rawValue: 1 << 0)
        static let enumeration = Rules(rawValue: 1 << 1)
        static let constant = Rules(rawValue: 1 << 2)
        static let string = Rules(rawValue: 1 << 3)
        static let number = Rules(rawValue: 1 << 4)
        static let array = Rules(rawValue: 1 << 5)
        static let object = Rules(rawValue: 1 << 6)
    }

    let source: PropertySchema
    let types: TypeMask
    let enumValues: [PropertyValue]?
    /// The enum as strings when every value is one: a cheaper comparison for the common case.
    let enumStrings: [String]?
    /// Their fingerprints, which decide most comparisons without touching the strings.
    let enumFingerprints: [NameFingerprint]
    let constValue: PropertyValue?
    let pattern: CompiledPattern?
    let minimum: CompiledNumber?
    let maximum: CompiledNumber?
    let exclusiveMinimum: CompiledNumber?
    let exclusiveMaximum: CompiledNumber?
    let multipleOf: CompiledNumber?
    let minLength: Int
    let maxLength: Int
    let format: StringFormat?
    let items: CompiledSchema?
    let minItems: Int
    let maxItems: Int
    let uniqueItems: Bool
    let members: MemberTable
    let requiredNames: [PropertyName]
    let additional: Additional
    let minProperties: Int
    let maxProperties: Int
    let personal: PersonalMark?

    let rules: Rules

    /// - Parameter objectDefault: what to allow beyond the members when the schema does not say; JSON
    ///   Schema's default is `.allowed`, a planned event's is its own setting.
    init(_ schema: PropertySchema, objectDefault: Additional = .allowed) {
        source = schema
        types = schema.types.map { $0.reduce(into: TypeMask()) { $0.insert(TypeMask($1)) } } ?? .any
        enumValues = schema.enumValues
        if let values = schema.enumValues, values.allSatisfy({ $0.stringValue != nil }) {
            enumStrings = values.map { $0.stringValue! }
        } else {
            enumStrings = nil
        }
        enumFingerprints = enumStrings?.map(NameFingerprint.init) ?? []
        constValue = schema.constValue
        pattern = schema.pattern.map(CompiledPattern.init)
        minimum = schema.minimum.map(CompiledNumber.init)
        maximum = schema.maximum.map(CompiledNumber.init)
        exclusiveMinimum = schema.exclusiveMinimum.map(CompiledNumber.init)
        exclusiveMaximum = schema.exclusiveMaximum.map(CompiledNumber.init)
        multipleOf = schema.multipleOf.map(CompiledNumber.init)
        minLength = schema.minLength ?? 0
        maxLength = schema.maxLength ?? .max
        format = schema.format
        items = schema.items.map { CompiledSchema($0) }
        minItems = schema.minItems ?? 0
        maxItems = schema.maxItems ?? .max
        uniqueItems = schema.uniqueItems
        let required = Set(schema.required)
        var members: [PropertyName: Member] = [:]
        for (name, property) in schema.properties ?? [:] {
            members[name] = Member(schema: CompiledSchema(property), isRequired: required.contains(name))
        }
        self.members = MemberTable(members)
        requiredNames = schema.required
        switch schema.additionalProperties {
        case nil: additional = objectDefault
        case .allowed: additional = .allowed
        case .forbidden: additional = .forbidden
        case .schema(let nested): additional = .schema(CompiledSchema(nested))
        }
        minProperties = schema.minProperties ?? 0
        maxProperties = schema.maxProperties ?? .max
        personal = schema.personal

        var rules: Rules = []
        if schema.personal != nil { rules.insert(.personal) }
        if schema.enumValues != nil { rules.insert(.enumeration) }
        if schema.constValue != nil { rules.insert(.constant) }
        if schema.minLength != nil || schema.maxLength != nil || schema.pattern != nil || schema.format != nil {
            rules.insert(.string)
        }
        if schema.minimum != nil || schema.maximum != nil || schema.exclusiveMinimum != nil
            || schema.exclusiveMaximum != nil || schema.multipleOf != nil
        {
            rules.insert(.number)
        }
        if schema.items != nil || schema.minItems != nil || schema.maxItems != nil || schema.uniqueItems {
            rules.insert(.array)
        }
        if case .allowed = additional, members.isEmpty, schema.required.isEmpty, schema.minProperties == nil,
            schema.maxProperties == nil
        {
        } else {
            rules.insert(.object)
        }
        self.rules = rules
    }

    /// How `type` reads in rules: `type: string` or `type: [string, null]`.
    var typeRule: String {
        let names = (source.types ?? []).map(\.rawValue)
        return names.count == 1 ? "type: \(names[0])" : "type: [\(names.joined(separator: ", "))]"
    }
}

/// An object's declared members, found by name.
///
/// Plans have a handful of properties per event, so up to 32 members are kept in arrays and found by a
/// linear scan of ``NameFingerprint``s (no hashing); larger sets use a dictionary. Names match by their
/// Unicode code points (their UTF-8 bytes), as JSON compares member names, never by `String`'s canonical
/// equivalence.
struct MemberTable: Sendable {
    private let fingerprints: [NameFingerprint]
    let names: [PropertyName]
    /// The members' schemas, kept alive by `owners`; validation reads them through `Unmanaged` to skip a
    /// retain and release per property on its hot path.
    let schemas: [Unmanaged<CompiledSchema>]
    private let owners: [CompiledSchema]
    let isRequired: [Bool]
    private let dictionary: [PropertyName: Int]?

    static let linearLimit = 32

    init(_ members: [PropertyName: CompiledSchema.Member]) {
        let sorted = members.sorted { $0.key < $1.key }
        names = sorted.map(\.key)
        fingerprints = names.map { NameFingerprint($0.string) }
        owners = sorted.map(\.value.schema)
        schemas = owners.map { Unmanaged.passUnretained($0) }
        isRequired = sorted.map(\.value.isRequired)
        dictionary =
            members.count > Self.linearLimit
            ? Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) }) : nil
    }

    var isEmpty: Bool { names.isEmpty }

    /// The position of the member called `name`, if declared.
    @inline(__always)
    func index(of name: String) -> Int? {
        if let dictionary { return dictionary[PropertyName(name)] }
        let fingerprint = NameFingerprint(name)
        for index in fingerprints.indices where fingerprints[index] == fingerprint {
            // Up to 16 bytes the fingerprint holds every byte; longer names compare the rest.
            if fingerprint.length <= 16 || names[index].string.hasSameCodePoints(as: name) { return index }
        }
        return nil
    }
}

/// A cheap summary of a name: its UTF-8 length and its first and last eight bytes. Names that differ
/// almost always differ here, and computing it is two loads.
struct NameFingerprint: Equatable, Sendable {
    let length: Int
    let head: UInt64
    let tail: UInt64

    @inline(__always)
    init(_ name: String) {
        if let fingerprint = name.utf8.withContiguousStorageIfAvailable({ NameFingerprint(bytes: $0) }) {
            self = fingerprint
        } else {
            self = Array(name.utf8).withUnsafeBufferPointer { NameFingerprint(bytes: $0) }
        }
    }

    @inline(__always)
    private init(bytes: UnsafeBufferPointer<UInt8>) {
        length = bytes.count
        let raw = UnsafeRawBufferPointer(bytes)
        if length >= 8 {
            head = raw.loadUnaligned(as: UInt64.self)
            tail = raw.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
        } else {
            var packed: UInt64 = 0
            for byte in bytes { packed = packed << 8 | UInt64(byte) }
            head = packed
            tail = 0
        }
    }
}

/// A compiled `pattern`, searched the way JSON Schema does: unanchored, so `b` matches `abc`.
///
/// `NSRegularExpression` is immutable once created and documented as safe to use from several threads
/// at once, which is what `@unchecked Sendable` promises here.
struct CompiledPattern: @unchecked Sendable {
    let source: String
    /// nil when the pattern does not compile; then no string matches it. (Plans loaded from files never get
    /// here: the loader rejects such patterns.)
    let expression: NSRegularExpression?

    init(_ source: String) {
        self.source = source
        self.expression = try? NSRegularExpression(pattern: source)
    }

    func hasMatch(in string: String) -> Bool {
        guard let expression else { return false }
        let range = NSRange(string.startIndex..<string.endIndex, in: string)
        return expression.firstMatch(in: string, options: [], range: range) != nil
    }
}
