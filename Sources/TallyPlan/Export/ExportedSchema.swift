import Foundation
import Tally

/// The JSON Schema dialects a plan is exported in: each production pipeline reads one.
enum SchemaDialect {
    /// JSON Schema 2020-12, the plan's own spelling: warehouses and generic validators.
    case draft2020
    /// Draft-07: Segment Protocols.
    case draft7
    /// Draft 4: Iglu (Snowplow). No `const`; `exclusiveMinimum` and `exclusiveMaximum` are Booleans beside
    /// `minimum` and `maximum`; fewer formats.
    case draft4

    /// The formats the dialect's specification defines; validators of the dialect need not check others.
    var definedFormats: Set<StringFormat> {
        switch self {
        case .draft2020: return Set(StringFormat.allCases)
        case .draft7:
            return [.dateTime, .date, .time, .email, .hostname, .ipv4, .ipv6, .uri, .uriReference, .jsonPointer]
        case .draft4: return [.dateTime, .email, .hostname, .ipv4, .ipv6, .uri]
        }
    }
}

/// Writes a planned event as a JSON Schema of its properties, the one mapping every export shares
/// (<doc:PlansInProduction>), and collects what the dialect cannot say exactly.
struct ExportedSchema {
    var dialect: SchemaDialect
    /// What the dialect's validators will not enforce as Tally does, each with its JSON pointer in the event
    /// schema.
    var differences: [(pointer: String, message: String)] = []

    init(dialect: SchemaDialect) { self.dialect = dialect }

    /// The event's properties (traits, for identify and group) as one object schema, with the event's
    /// Tally facts as `x-tally-*` keywords.
    mutating func eventSchema(_ event: PlannedEvent) -> [String: PropertyValue] {
        var schema = object(
            properties: event.properties, required: event.required,
            additionalProperties: event.additionalProperties ? nil : .forbidden, pointer: "")
        if !event.description.isEmpty { schema["description"] = .string(event.description) }
        schema["x-tally-name"] = .string(event.name)
        schema["x-tally-kind"] = .string(event.kind.rawValue)
        schema["x-tally-purpose"] = .string(event.purpose.rawValue)
        if let owner = event.owner { schema["x-tally-owner"] = .string(owner) }
        if let expires = event.expires { schema["x-tally-expires"] = .string(expires) }
        if !event.tags.isEmpty { schema["x-tally-tags"] = .array(event.tags.map { .string($0) }) }
        return schema
    }

    private mutating func object(
        properties: [PropertyName: PropertySchema]?, required: [PropertyName],
        additionalProperties: AdditionalProperties?, pointer: String
    ) -> [String: PropertyValue] {
        var schema: [String: PropertyValue] = ["type": "object"]
        if let properties {
            var members: [String: PropertyValue] = [:]
            for (name, member) in properties {
                members[name.string] = .object(
                    self.schema(member, pointer: pointer + "/properties/" + JSONPointer.escape(name.string)))
            }
            schema["properties"] = .object(members)
        }
        if !required.isEmpty { schema["required"] = .array(required.map { .string($0.string) }) }
        switch additionalProperties {
        case nil, .allowed?: break
        case .forbidden?: schema["additionalProperties"] = false
        case .schema(let other)?:
            schema["additionalProperties"] = .object(self.schema(other, pointer: pointer + "/additionalProperties"))
        }
        return schema
    }

    /// One property's schema in the dialect, as its values reach the pipeline.
    ///
    /// A `personal` property whose rule changes its value before it leaves the app is exported as what
    /// arrives: `redact` (or no rule) as `null` or the redaction marker, `never_send` as `null`, `hash` as any
    /// value (a hash keeps nothing of the value's type or format; that it no longer looks like the data is
    /// Tally's check alone, reported). The rules the value has in the app stay in `x-tally-personal`'s
    /// `value`, for `tally import`.
    mutating func schema(_ property: PropertySchema, pointer: String) -> [String: PropertyValue] {
        guard let personal = property.personal, personal.rule != .send else {
            return valueSchema(property, pointer: pointer)
        }
        var inApp = property
        inApp.personal = nil
        inApp.description = nil
        var ignored = ExportedSchema(dialect: dialect)
        var mark: [String: PropertyValue] = ["kind": .string(personal.kind.rawValue)]
        if let rule = personal.rule { mark["rule"] = .string(rule.rawValue) }
        let value = ignored.valueSchema(inApp, pointer: pointer)
        if !value.isEmpty { mark["value"] = .object(value) }
        var schema: [String: PropertyValue] = ["x-tally-personal": .object(mark)]
        switch personal.rule {
        case .hash?:
            differences.append(
                (
                    pointer,
                    "hashed before it leaves the app (\(personal.description)): exported as any value, and only Tally checks that it no longer looks like \(personal.kind.rawValue) data"
                ))
        case .neverSend?:
            schema["type"] = "null"
        case .redact?, nil, .send?:
            schema["enum"] = [.null, .string(PlanExport.redactionMarker)]
        }
        if let description = property.description { schema["description"] = .string(description) }
        return schema
    }

    /// A property's own rules, as the plan states them.
    private mutating func valueSchema(_ property: PropertySchema, pointer: String) -> [String: PropertyValue] {
        var schema: [String: PropertyValue] = [:]
        if property.properties != nil || !property.required.isEmpty || property.additionalProperties != nil {
            schema = object(
                properties: property.properties, required: property.required,
                additionalProperties: property.additionalProperties, pointer: pointer)
            schema["type"] = nil
        }
        if let types = property.types {
            schema["type"] = types.count == 1 ? .string(types[0].rawValue) : .array(types.map { .string($0.rawValue) })
        }
        if let values = property.enumValues { schema["enum"] = .array(values) }
        if let value = property.constValue {
            if dialect == .draft4 {
                // Draft 4 has no `const`; a one-value enum is the same rule.
                schema["enum"] = .array([value])
            } else {
                schema["const"] = value
            }
        }
        if let pattern = property.pattern {
            schema["pattern"] = .string(pattern)
            if dialect == .draft7, pattern.contains("(?!") {
                differences.append(
                    (
                        pointer,
                        "pattern '\(pattern)' uses a negative lookahead, which Segment Protocols does not support"
                    ))
            }
        }
        if let value = property.minLength { schema["minLength"] = .int(value) }
        if let value = property.maxLength { schema["maxLength"] = .int(value) }
        if let format = property.format {
            schema["format"] = .string(format.rawValue)
            if !dialect.definedFormats.contains(format) {
                differences.append(
                    (
                        pointer,
                        "format '\(format.rawValue)' is not defined in \(dialect.name): its validators need not check it"
                    ))
            }
        }
        writeBounds(property, into: &schema)
        if let value = property.multipleOf {
            schema["multipleOf"] = value.value
            if !value.isInteger {
                differences.append(
                    (
                        pointer,
                        "multipleOf \(value) has a fraction: validators that divide in binary floating point (python jsonschema, Ajv) refuse multiples Tally accepts, such as 0.07 of 0.01"
                    ))
            }
        }
        if let items = property.items { schema["items"] = .object(self.schema(items, pointer: pointer + "/items")) }
        if let value = property.minItems { schema["minItems"] = .int(value) }
        if let value = property.maxItems { schema["maxItems"] = .int(value) }
        if property.uniqueItems { schema["uniqueItems"] = true }
        if let value = property.minProperties { schema["minProperties"] = .int(value) }
        if let value = property.maxProperties { schema["maxProperties"] = .int(value) }
        if let description = property.description { schema["description"] = .string(description) }
        if let personal = property.personal {
            // Only `send` reaches here: the value arrives as the app has it.
            var mark: [String: PropertyValue] = ["kind": .string(personal.kind.rawValue)]
            if let rule = personal.rule { mark["rule"] = .string(rule.rawValue) }
            schema["x-tally-personal"] = .object(mark)
        }
        return schema
    }

    /// `minimum`, `maximum` and their exclusive forms. Draft 4 writes an exclusive bound as the Boolean
    /// beside `minimum` or `maximum`, so one schema holds one lower and one upper bound: the stricter.
    private func writeBounds(_ property: PropertySchema, into schema: inout [String: PropertyValue]) {
        guard dialect == .draft4 else {
            if let value = property.minimum { schema["minimum"] = value.value }
            if let value = property.maximum { schema["maximum"] = value.value }
            if let value = property.exclusiveMinimum { schema["exclusiveMinimum"] = value.value }
            if let value = property.exclusiveMaximum { schema["exclusiveMaximum"] = value.value }
            return
        }
        func bound(inclusive: SchemaNumber?, exclusive: SchemaNumber?, lower: Bool) -> (SchemaNumber, Bool)? {
            switch (inclusive, exclusive) {
            case (nil, nil): return nil
            case (let value?, nil): return (value, false)
            case (nil, let value?): return (value, true)
            case (let inclusive?, let exclusive?):
                let order = SchemaNumber.compare(exclusive, inclusive)
                // The exclusive bound is the stricter unless the inclusive one lies beyond it.
                return (lower ? order >= 0 : order <= 0) ? (exclusive, true) : (inclusive, false)
            }
        }
        if let (value, exclusive) = bound(
            inclusive: property.minimum, exclusive: property.exclusiveMinimum, lower: true)
        {
            schema["minimum"] = value.value
            if exclusive { schema["exclusiveMinimum"] = true }
        }
        if let (value, exclusive) = bound(
            inclusive: property.maximum, exclusive: property.exclusiveMaximum, lower: false)
        {
            schema["maximum"] = value.value
            if exclusive { schema["exclusiveMaximum"] = true }
        }
    }
}

extension SchemaDialect {
    /// How messages name the dialect.
    var name: String {
        switch self {
        case .draft2020: return "JSON Schema 2020-12"
        case .draft7: return "JSON Schema draft-07"
        case .draft4: return "JSON Schema draft 4"
        }
    }
}
