import Tally

/// The rules for one property value: a subset of JSON Schema 2020-12, plus Tally's `pii` flag.
///
/// A schema is a recursive value: arrays have an ``items`` schema and objects have ``properties``, each
/// a schema of its own. Every rule is optional; a schema with none accepts any value.
///
/// ```swift
/// let price = PropertySchema(types: [.number], minimum: 0)
/// let toppings = PropertySchema(types: [.array], items: PropertySchema(types: [.string]), maxItems: 10)
/// ```
///
/// The plan file spells the same rules in YAML or JSON; see <doc:TrackingPlans> for the keywords and their
/// exact semantics.
public struct PropertySchema: Sendable, Hashable {
    /// The accepted JSON types, in declared order; nil accepts every type. `type: [string, "null"]` is
    /// `[.string, .null]`.
    public var types: [SchemaType]?
    /// `enum`: the value must equal one of these (JSON equality, so `1` equals `1.0`).
    public var enumValues: [PropertyValue]?
    /// `const`: the value must equal this one. `.some(.null)` means the value must be `null`.
    public var constValue: PropertyValue?
    /// `pattern`: a regular expression a string must contain a match for (unanchored, as in JSON Schema).
    public var pattern: String?
    /// `minimum`: numbers must be at least this.
    public var minimum: Double?
    /// `maximum`: numbers must be at most this.
    public var maximum: Double?
    /// `exclusiveMinimum`: numbers must be greater than this.
    public var exclusiveMinimum: Double?
    /// `exclusiveMaximum`: numbers must be less than this.
    public var exclusiveMaximum: Double?
    /// `minLength`: strings must have at least this many Unicode code points.
    public var minLength: Int?
    /// `maxLength`: strings must have at most this many Unicode code points.
    public var maxLength: Int?
    /// `format`: a string must be a valid date-time, e-mail address, URI or UUID.
    public var format: StringFormat?
    /// `minItems`: arrays must have at least this many elements.
    public var minItems: Int?
    /// `maxItems`: arrays must have at most this many elements.
    public var maxItems: Int?
    /// `properties`: the schemas of an object's members, by name; nil when not given.
    public var properties: [String: PropertySchema]?
    /// `required`: the members an object must have, sorted.
    public var required: [String]
    /// `additionalProperties`: what an object may hold beyond ``properties``; nil means the JSON Schema
    /// default, anything.
    public var additionalProperties: AdditionalProperties?
    /// `pii: true`: the value is personal data and must not be sent unredacted. See
    /// ``PlanViolation/Kind/piiPresent``.
    public var pii: Bool
    /// `description`: what the property means, used for generated doc comments.
    public var description: String?

    // Arrays give the recursion storage; `items` is the public face.
    private var itemsStorage: [PropertySchema]

    /// `items`: the schema every element of an array must meet.
    public var items: PropertySchema? {
        get { itemsStorage.first }
        set { itemsStorage = newValue.map { [$0] } ?? [] }
    }

    /// Creates a schema; every rule not given is absent.
    public init(
        types: [SchemaType]? = nil, enumValues: [PropertyValue]? = nil, constValue: PropertyValue? = nil,
        pattern: String? = nil, minimum: Double? = nil, maximum: Double? = nil, exclusiveMinimum: Double? = nil,
        exclusiveMaximum: Double? = nil, minLength: Int? = nil, maxLength: Int? = nil, format: StringFormat? = nil,
        items: PropertySchema? = nil, minItems: Int? = nil, maxItems: Int? = nil,
        properties: [String: PropertySchema]? = nil, required: [String] = [],
        additionalProperties: AdditionalProperties? = nil, pii: Bool = false, description: String? = nil
    ) {
        self.types = types
        self.enumValues = enumValues
        self.constValue = constValue
        self.pattern = pattern
        self.minimum = minimum
        self.maximum = maximum
        self.exclusiveMinimum = exclusiveMinimum
        self.exclusiveMaximum = exclusiveMaximum
        self.minLength = minLength
        self.maxLength = maxLength
        self.format = format
        self.itemsStorage = items.map { [$0] } ?? []
        self.minItems = minItems
        self.maxItems = maxItems
        self.properties = properties
        self.required = required.sorted()
        self.additionalProperties = additionalProperties
        self.pii = pii
        self.description = description
    }

    /// Whether `null` is an accepted type, as in `type: [string, "null"]`.
    public var isNullable: Bool { types?.contains(.null) ?? true }

    /// The declared types other than `null`.
    public var nonNullTypes: [SchemaType] { (types ?? []).filter { $0 != .null } }
}

/// A JSON type name as JSON Schema spells it.
public enum SchemaType: String, Sendable, Hashable, CaseIterable, Comparable {
    /// A string.
    case string
    /// A number with no fractional part: `3` and `3.0` both are.
    case integer
    /// Any number, integer or not.
    case number
    /// `true` or `false`.
    case boolean
    /// An ordered list.
    case array
    /// A string-keyed map.
    case object
    /// JSON `null`.
    case null

    /// Whether `value` is of this type, by JSON Schema rules: an ``integer`` is an `.int` or a finite
    /// `.double` with no fractional part, and a ``number`` is either case.
    public func accepts(_ value: PropertyValue) -> Bool {
        switch (self, value) {
        case (.string, .string), (.boolean, .bool), (.array, .array), (.object, .object), (.null, .null): return true
        case (.integer, .int), (.number, .int), (.number, .double), (.number, .bigNumber): return true
        case (.integer, .bigNumber(let number)): return number.isInteger
        case (.integer, .double(let double)): return double.isFinite && double.rounded(.towardZero) == double
        default: return false
        }
    }

    public static func < (lhs: SchemaType, rhs: SchemaType) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// The string formats Tally checks. Each is checked by hand, without regular expressions.
public enum StringFormat: String, Sendable, Hashable, CaseIterable {
    /// RFC 3339 date-time: `2026-11-22T03:17:53Z`, `2026-11-22T04:17:53.120+01:00`.
    case dateTime = "date-time"
    /// An e-mail address: a local part, one `@`, a domain with at least one dot and no spaces.
    case email
    /// An absolute URI (RFC 3986): a scheme, a colon, then characters allowed in URIs.
    case uri
    /// A UUID in its 8-4-4-4-12 hexadecimal form, either case.
    case uuid
}

/// What an object may hold beyond the members its schema names.
public indirect enum AdditionalProperties: Sendable, Hashable {
    /// Any other member is fine (`additionalProperties: true`).
    case allowed
    /// Any other member is a violation (`additionalProperties: false`).
    case forbidden
    /// Any other member must meet this schema (`additionalProperties: {type: string}`).
    case schema(PropertySchema)
}
