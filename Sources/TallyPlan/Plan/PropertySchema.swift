import Tally

/// The rules for one property value: a subset of JSON Schema 2020-12, plus Tally's `personal` mark.
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
    /// `enum`: the value must equal one of these, by JSON Schema's equality: numbers by value (`1` equals
    /// `1.0`), strings by code points.
    public var enumValues: [PropertyValue]?
    /// `const`: the value must equal this one. `.some(.null)` means the value must be `null`.
    public var constValue: PropertyValue?
    /// `pattern`: a regular expression a string must contain a match for (unanchored, as in JSON Schema).
    public var pattern: String?
    /// `minimum`: numbers must be at least this.
    public var minimum: SchemaNumber?
    /// `maximum`: numbers must be at most this.
    public var maximum: SchemaNumber?
    /// `exclusiveMinimum`: numbers must be greater than this.
    public var exclusiveMinimum: SchemaNumber?
    /// `exclusiveMaximum`: numbers must be less than this.
    public var exclusiveMaximum: SchemaNumber?
    /// `multipleOf`: numbers divided by this (greater than zero) must give an integer, in decimal: 0.3 is a
    /// multiple of 0.1.
    public var multipleOf: SchemaNumber?
    /// `minLength`: strings must have at least this many Unicode code points.
    public var minLength: Int?
    /// `maxLength`: strings must have at most this many Unicode code points.
    public var maxLength: Int?
    /// `format`: a string must be a valid value of this format.
    public var format: StringFormat?
    /// `minItems`: arrays must have at least this many elements.
    public var minItems: Int?
    /// `maxItems`: arrays must have at most this many elements.
    public var maxItems: Int?
    /// `uniqueItems: true`: no two elements of an array may be equal (by the equality of ``enumValues``).
    public var uniqueItems: Bool
    /// `properties`: the schemas of an object's members, by name; nil when not given.
    public var properties: [PropertyName: PropertySchema]?
    /// `required`: the members an object must have, in code point order.
    public var required: [PropertyName]
    /// `additionalProperties`: what an object may hold beyond ``properties``; nil means the JSON Schema
    /// default, anything.
    public var additionalProperties: AdditionalProperties?
    /// `minProperties`: objects must have at least this many members.
    public var minProperties: Int?
    /// `maxProperties`: objects must have at most this many members.
    public var maxProperties: Int?
    /// `personal:`: the value is personal data, what it holds and what may happen to it. See
    /// ``PersonalMark`` and ``PlanViolation/Kind/personalDataPresent``.
    public var personal: PersonalMark?
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
        pattern: String? = nil, minimum: SchemaNumber? = nil, maximum: SchemaNumber? = nil,
        exclusiveMinimum: SchemaNumber? = nil, exclusiveMaximum: SchemaNumber? = nil, multipleOf: SchemaNumber? = nil,
        minLength: Int? = nil, maxLength: Int? = nil, format: StringFormat? = nil, items: PropertySchema? = nil,
        minItems: Int? = nil, maxItems: Int? = nil, uniqueItems: Bool = false,
        properties: [PropertyName: PropertySchema]? = nil, required: [PropertyName] = [],
        additionalProperties: AdditionalProperties? = nil, minProperties: Int? = nil, maxProperties: Int? = nil,
        personal: PersonalMark? = nil, description: String? = nil
    ) {
        self.types = types
        self.enumValues = enumValues
        self.constValue = constValue
        self.pattern = pattern
        self.minimum = minimum
        self.maximum = maximum
        self.exclusiveMinimum = exclusiveMinimum
        self.exclusiveMaximum = exclusiveMaximum
        self.multipleOf = multipleOf
        self.minLength = minLength
        self.maxLength = maxLength
        self.format = format
        self.itemsStorage = items.map { [$0] } ?? []
        self.minItems = minItems
        self.maxItems = maxItems
        self.uniqueItems = uniqueItems
        self.properties = properties
        self.required = required.sorted()
        self.additionalProperties = additionalProperties
        self.minProperties = minProperties
        self.maxProperties = maxProperties
        self.personal = personal
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

/// The string formats Tally checks, as JSON Schema 2020-12 names them. Each is checked by hand against its
/// RFC's grammar, without regular expressions; see ``isValid(_:)`` for the exact rules.
public enum StringFormat: String, Sendable, Hashable, CaseIterable {
    /// RFC 3339 date-time: `2026-11-22T03:17:53Z`, `2026-11-22T04:17:53.120+01:00`.
    case dateTime = "date-time"
    /// RFC 3339 full-date: `2026-11-22`.
    case date
    /// RFC 3339 full-time, with its offset: `03:17:53Z`, `04:17:53.120+01:00`.
    case time
    /// An e-mail address by RFC 5321: `ada@example.com`, `user@localhost`, `"a b"@[127.0.0.1]`.
    case email
    /// A host name by RFC 1123: `api.example.com`, `localhost`.
    case hostname
    /// An IPv4 address in dotted-quad form: `192.168.0.1`.
    case ipv4
    /// An IPv6 address by RFC 4291: `::1`, `2001:db8::8a2e:370:7334`, `::ffff:192.0.2.1`.
    case ipv6
    /// An absolute URI by RFC 3986: `https://example.com/a?b#c`, `mailto:ada@example.com`.
    case uri
    /// A URI or a relative reference by RFC 3986: `../menu?item=3`.
    case uriReference = "uri-reference"
    /// A UUID in its 8-4-4-4-12 hexadecimal form, either case.
    case uuid
    /// A JSON pointer by RFC 6901: `/items/0/name`.
    case jsonPointer = "json-pointer"
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

/// A plan's `personal:` mark on a property: what kind of personal data it holds (`email`, `free_text`...)
/// and what may happen to it before it leaves the app.
///
/// ```yaml
/// email: { type: string, personal: { kind: email, rule: hash } }
/// comment: { type: string, personal: { kind: free_text, rule: never_send } }
/// ```
///
/// Validation holds each value to its rule (``PlanViolation/Kind/personalDataPresent``): `redact` allows
/// only absent, `null` or the redaction marker; `never_send` only absent or `null`; `hash` anything that
/// no longer looks like the kind (no e-mail address left in it, say); `send` anything. A mark without a
/// rule is checked as `redact`, and `tally lint` fails on it.
public struct PersonalMark: Sendable, Hashable {
    /// What the value holds.
    public var kind: PersonalDataKind
    /// What may happen to it; nil when the plan does not say, which `tally lint` reports.
    public var rule: PersonalDataRule?

    /// Creates a mark.
    public init(kind: PersonalDataKind, rule: PersonalDataRule?) {
        self.kind = kind
        self.rule = rule
    }

    /// How reports spell the mark: `personal: email, rule: hash`.
    public var description: String {
        "personal: \(kind)" + (rule.map { ", rule: \($0)" } ?? "")
    }
}
