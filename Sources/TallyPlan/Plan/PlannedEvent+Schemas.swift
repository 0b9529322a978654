import Tally

/// One schema of a planned event's properties, at any depth, as lint and validation read them.
struct PlannedSchema {
    /// Its JSON pointer in the event's ``PlannedEvent/objectSchema``: `/properties/contact/properties/email`.
    var pointer: String
    /// How messages name it: `email`, `contact.email`, `emails[]`, `contact.*` (the other members).
    var name: String
    var schema: PropertySchema
    /// Whether it, or a property containing it, is marked `personal`: validation then treats its values
    /// as personal data.
    var isCoveredByMark: Bool
    /// Whether it is a property of the event itself, not a schema inside one.
    var isTopLevel: Bool
    /// The property of the event that holds it (itself, at the top level): the one a client's
    /// personal-data rules can apply to.
    var topLevelName: String
}

extension PlannedEvent {
    /// Every schema of the event's properties, each before the ones inside it, properties in code point
    /// order.
    var plannedSchemas: [PlannedSchema] {
        var found: [PlannedSchema] = []
        func visit(
            _ schema: PropertySchema, pointer: String, name: String, covered: Bool, topLevel: String,
            isTopLevel: Bool = false
        ) {
            let covered = covered || schema.personal != nil
            found.append(
                PlannedSchema(
                    pointer: pointer, name: name, schema: schema, isCoveredByMark: covered, isTopLevel: isTopLevel,
                    topLevelName: topLevel))
            for (key, member) in (schema.properties ?? [:]).sorted(by: { $0.key < $1.key }) {
                visit(
                    member, pointer: pointer + "/properties/" + JSONPointer.escape(key.string),
                    name: name + "." + key.string, covered: covered, topLevel: topLevel)
            }
            if let items = schema.items {
                visit(items, pointer: pointer + "/items", name: name + "[]", covered: covered, topLevel: topLevel)
            }
            if case .schema(let other) = schema.additionalProperties {
                visit(
                    other, pointer: pointer + "/additionalProperties", name: name + ".*", covered: covered,
                    topLevel: topLevel)
            }
        }
        for (key, schema) in properties.sorted(by: { $0.key < $1.key }) {
            visit(
                schema, pointer: "/properties/" + JSONPointer.escape(key.string), name: key.string, covered: false,
                topLevel: key.string, isTopLevel: true)
        }
        return found
    }
}

extension PropertySchema {
    /// The schema an object member named `key` meets: its own under ``properties`` (by code points), else
    /// the ``additionalProperties`` schema; nil when neither says.
    func memberSchema(_ key: String) -> PropertySchema? {
        if let member = properties?[PropertyName(key)] { return member }
        if case .schema(let other) = additionalProperties { return other }
        return nil
    }
}

extension StringFormat {
    /// The kind of personal data every value of this format is, if any: `email` for ``email``. A property of
    /// such a format needs a `personal` mark, as `tally validate` finds such values by their shape
    /// (``PlanViolation/Kind/personalDataUnmarked``). JSON Schema has no format for phone numbers.
    var personalDataKind: PersonalDataKind? {
        self == .email ? .email : nil
    }
}

extension PersonalMark {
    /// The mark to add to a property that holds `kind`, as messages suggest it:
    /// `personal: { kind: email, rule: ... }`.
    static func suggestion(for kind: PersonalDataKind) -> String {
        "personal: { kind: \(kind), rule: ... }"
    }
}
