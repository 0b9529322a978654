// Reading plan text needs Yams, which the `Plans` trait brings (PlanLoader explains the error without it).
#if Plans
import Foundation
import Tally
import Yams

/// Reading property schemas: the JSON Schema 2020-12 keyword subset, plus `personal` and the
/// `required: true` shorthand.
extension PlanReader {
    static let schemaKeywords = [
        "type", "enum", "const", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "multipleOf", "minLength", "maxLength", "format", "items", "minItems", "maxItems", "uniqueItems",
        "properties", "required", "additionalProperties", "minProperties", "maxProperties", "personal",
    ]
    /// Keywords JSON Schema defines that assert nothing (annotations, identifiers, and the content vocabulary,
    /// which 2020-12 makes annotation-only); accepted without a warning.
    static let annotationKeywords = [
        "description", "title", "examples", "default", "deprecated", "$comment", "readOnly", "writeOnly",
        "$schema", "$id", "$anchor", "$dynamicAnchor", "$vocabulary", "contentEncoding", "contentMediaType",
        "contentSchema",
    ]
    /// Real JSON Schema keywords outside Tally's subset: a plan using them is refused by validation unless the
    /// caller accepts unchecked keywords.
    static let unsupportedKeywords = [
        "$ref", "$dynamicRef", "$defs", "definitions", "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
        "prefixItems", "contains", "minContains", "maxContains", "patternProperties", "propertyNames",
        "dependentRequired", "dependentSchemas", "dependencies", "unevaluatedProperties", "unevaluatedItems",
    ]

    /// Whether `key` is an extension annotation: `x-` followed by anything, for a team's own tools.
    static func isExtension(_ key: String) -> Bool { key.hasPrefix("x-") }

    /// Reads a `properties` mapping. Returns the schemas and the names marked `required: true`.
    mutating func readProperties(_ node: Node, path: String) -> ([PropertyName: PropertySchema], [(PropertyName, Node)])
    {
        guard let members = mapping(node, "'properties'") else { return ([:], []) }
        var properties: [PropertyName: PropertySchema] = [:]
        var required: [(PropertyName, Node)] = []
        var spellings: [String: String] = [:]  // by canonical equivalence, as Swift strings compare
        for (name, keyNode, value) in members {
            if name.isEmpty { error("A property name must not be empty", keyNode) }
            if let other = spellings[name] {
                warning(
                    "'\(name)' and '\(other)' differ only in Unicode normalization: the plan keeps them apart, as JSON does, but an event (a Swift dictionary) can carry only one of them",
                    keyNode)
            } else {
                spellings[name] = name
            }
            let pointer = path + "/" + JSONPointer.escape(name)
            schemaLocations[pointer] = document.location(of: keyNode)
            let (schema, isRequired) = readSchema(value, path: pointer)
            properties[PropertyName(name)] = schema
            if isRequired { required.append((PropertyName(name), keyNode)) }
        }
        return (properties, required)
    }

    /// Reads one schema. Returns it and whether it said `required: true`.
    mutating func readSchema(_ node: Node, path: String) -> (PropertySchema, Bool) {
        var schema = PropertySchema()
        guard let members = mapping(node, "The schema of \(path)") else { return (schema, false) }
        var isRequired = false
        var requiredList: [(PropertyName, Node)] = []
        var keywordNodes: [String: Node] = [:]
        var valueNodes: [String: Node] = [:]
        var enumNodes: [Node] = []
        for (key, keyNode, value) in members {
            keywordNodes[key] = keyNode
            valueNodes[key] = value
            switch key {
            case "type": schema.types = readTypes(value)
            case "enum":
                guard case .sequence(let sequence) = value, !sequence.isEmpty else {
                    error("'enum' must be a non-empty list of values, not \(describe(value))", value)
                    break
                }
                var values: [PropertyValue] = []
                for element in sequence {
                    guard let member = self.value(element) else { continue }
                    enumNodes.append(element)
                    if values.contains(where: { JSONEquality.equal($0, member) }) {
                        warning("'enum' lists \(member.jsonString) twice", element)
                    }
                    values.append(member)
                }
                schema.enumValues = values
            case "const": schema.constValue = self.value(value)
            case "pattern":
                guard let pattern = string(value, "'pattern'") else { break }
                do {
                    _ = try NSRegularExpression(pattern: pattern)
                    schema.pattern = pattern
                } catch {
                    self.error("'pattern' is not a valid regular expression: \(pattern)", value)
                }
            case "minimum": schema.minimum = number(value, "'minimum'")
            case "maximum": schema.maximum = number(value, "'maximum'")
            case "exclusiveMinimum", "exclusiveMaximum":
                if case .scalar(let scalar) = value, case .bool = resolve(scalar) {
                    let bound = key == "exclusiveMinimum" ? "minimum" : "maximum"
                    error(
                        "'\(key)' is a number in JSON Schema 2020-12, not a Boolean: write '\(key): N' instead of '\(bound): N' with '\(key): true'",
                        value)
                    break
                }
                let bound = number(value, "'\(key)'")
                if key == "exclusiveMinimum" {
                    schema.exclusiveMinimum = bound
                } else {
                    schema.exclusiveMaximum = bound
                }
            case "multipleOf":
                guard let divisor = number(value, "'multipleOf'") else { break }
                guard SchemaNumber.compare(divisor, 0) > 0 else {
                    error("'multipleOf' must be greater than 0, not \(divisor)", value)
                    break
                }
                schema.multipleOf = divisor
            case "minLength": schema.minLength = count(value, "'minLength'")
            case "maxLength": schema.maxLength = count(value, "'maxLength'")
            case "minItems": schema.minItems = count(value, "'minItems'")
            case "maxItems": schema.maxItems = count(value, "'maxItems'")
            case "uniqueItems": schema.uniqueItems = bool(value, "'uniqueItems'") ?? false
            case "minProperties": schema.minProperties = count(value, "'minProperties'")
            case "maxProperties": schema.maxProperties = count(value, "'maxProperties'")
            case "format":
                guard let text = string(value, "'format'") else { break }
                if let format = StringFormat(rawValue: text) {
                    schema.format = format
                } else {
                    let suggestion = Self.closest(to: text, in: StringFormat.allCases.map(\.rawValue))
                    unchecked("format: \(text)", reason: .unknownFormat(suggestion: suggestion), value)
                }
            case "items":
                guard case .mapping = value else {
                    error(
                        "'items' must be one schema for every element (JSON Schema 2020-12), not \(describe(value))",
                        value)
                    break
                }
                schemaLocations[path + "/items"] = document.location(of: keyNode)
                schema.items = readSchema(value, path: path + "/items").0
            case "properties":
                let (properties, flagged) = readProperties(value, path: path + "/properties")
                schema.properties = properties
                requiredList += flagged
            case "required":
                if case .scalar(let scalar) = value, case .bool(let flag) = resolve(scalar) {
                    isRequired = flag
                } else {
                    requiredList += (strings(value, "'required' (a list of member names, or true on a property)") ?? [])
                        .map { (PropertyName($0.0), $0.1) }
                }
            case "additionalProperties":
                switch value {
                case .mapping:
                    schemaLocations[path + "/additionalProperties"] = document.location(of: keyNode)
                    schema.additionalProperties = .schema(readSchema(value, path: path + "/additionalProperties").0)
                default:
                    if let allowed = bool(value, "'additionalProperties' (true, false or a schema)") {
                        schema.additionalProperties = allowed ? .allowed : .forbidden
                    }
                }
            case "personal": schema.personal = readPersonalMark(value)
            case "pii":
                error(
                    "'pii' is now 'personal', which says what the value holds and what may happen to it: personal: { kind: email, rule: redact }",
                    keyNode)
            case "description": schema.description = string(value, "'description'")
            case _ where Self.annotationKeywords.contains(key) || Self.isExtension(key): break
            case "nullable":
                unchecked(
                    key, reason: .unknown(suggestion: nil), keyNode,
                    hint: "to allow null, add \"null\" to 'type': type: [string, \"null\"]")
            case _ where Self.unsupportedKeywords.contains(key):
                unchecked(key, reason: .unsupported, keyNode)
            default:
                if reportCommaInPlainValue(key, keyNode, value, in: node) { continue }
                // A misspelt annotation (`descripton`) changes nothing validation does; anything else might.
                if let suggestion = Self.closest(to: key, in: Self.annotationKeywords),
                    Self.closest(to: key, in: Self.schemaKeywords + Self.annotationKeywords) == suggestion
                {
                    unknownKey(key, keyNode, known: Self.annotationKeywords, what: "keyword")
                } else {
                    let suggestion = Self.closest(to: key, in: Self.schemaKeywords + Self.annotationKeywords)
                    unchecked(key, reason: .unknown(suggestion: suggestion), keyNode)
                }
            }
        }
        if !requiredList.isEmpty {
            schema.required = checkRequired(requiredList, declared: schema.properties ?? [:])
        }
        checkConsistency(schema, keywordNodes: keywordNodes, valueNodes: valueNodes, enumNodes: enumNodes, node: node)
        return (schema, isRequired)
    }

    private mutating func readTypes(_ node: Node) -> [SchemaType]? {
        let entries: [(String, Node)]
        if case .sequence(let sequence) = node {
            guard !sequence.isEmpty else {
                error("'type' must name at least one type", node)
                return nil
            }
            entries = strings(node, "'type'") ?? []
        } else {
            guard let name = string(node, "'type'") else { return nil }
            entries = [(name, node)]
        }
        var types: [SchemaType] = []
        for (name, element) in entries {
            guard let type = SchemaType(rawValue: name) else {
                let known = SchemaType.allCases.map(\.rawValue)
                let suggestion =
                    Self.closest(to: name, in: known + ["str", "int", "bool", "float", "double", "dict", "list"])
                    .map {
                        [
                            "str": "string", "int": "integer", "bool": "boolean", "float": "number", "double": "number",
                            "dict": "object", "list": "array",
                        ][$0] ?? $0
                    }
                    .map { "; did you mean '\($0)'?" } ?? ""
                error("Unknown type '\(name)'; expected one of \(known.joined(separator: ", "))\(suggestion)", element)
                continue
            }
            if types.contains(type) { error("'type' lists '\(name)' twice", element) }
            types.append(type)
        }
        return types.isEmpty ? nil : types
    }

    /// Errors for rules no value can meet; warnings for rules that cannot apply to the declared types.
    private mutating func checkConsistency(
        _ schema: PropertySchema, keywordNodes: [String: Node], valueNodes: [String: Node], enumNodes: [Node],
        node: Node
    ) {
        func at(_ keyword: String) -> Node { keywordNodes[keyword] ?? node }
        if let types = schema.types {
            let applicable: [(keywords: [String], types: Set<SchemaType>, noun: String)] = [
                (["pattern", "minLength", "maxLength", "format"], [.string], "strings"),
                (
                    ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"], [.integer, .number],
                    "numbers"
                ),
                (["items", "minItems", "maxItems", "uniqueItems"], [.array], "arrays"),
                (["properties", "additionalProperties", "minProperties", "maxProperties"], [.object], "objects"),
            ]
            let declared = types.map(\.rawValue).joined(separator: ", ")
            for rule in applicable where rule.types.isDisjoint(with: types) {
                for keyword in rule.keywords where keywordNodes[keyword] != nil {
                    warning(
                        "'\(keyword)' applies to \(rule.noun) but the type is \(declared); it never applies",
                        at(keyword))
                }
            }
            for (index, value) in (schema.enumValues ?? []).enumerated()
            where !types.contains(where: { $0.accepts(value) }) {
                let element = index < enumNodes.count ? enumNodes[index] : at("enum")
                warning("'enum' value \(value.jsonString) is not of type \(declared); no value can match it", element)
            }
            if let value = schema.constValue, !types.contains(where: { $0.accepts(value) }) {
                error(
                    "'const' value \(value.jsonString) is not of type \(declared); no value can match",
                    valueNodes["const"] ?? node)
            }
        }
        func extreme(_ numbers: [SchemaNumber?], highest: Bool) -> SchemaNumber? {
            numbers.compactMap { $0 }.max { SchemaNumber.compare($0, $1) * (highest ? 1 : -1) < 0 }
        }
        if let lower = extreme([schema.minimum, schema.exclusiveMinimum], highest: true),
            let upper = extreme([schema.maximum, schema.exclusiveMaximum], highest: false)
        {
            let order = SchemaNumber.compare(lower, upper)
            let exclusive = schema.exclusiveMinimum == lower || schema.exclusiveMaximum == upper
            if order > 0 || (order == 0 && exclusive) {
                error("No number meets both the lower bound \(lower) and the upper bound \(upper)", node)
            }
        }
        if let minimum = schema.minLength, let maximum = schema.maxLength, minimum > maximum {
            error("'minLength' \(minimum) is greater than 'maxLength' \(maximum)", at("minLength"))
        }
        if let minimum = schema.minItems, let maximum = schema.maxItems, minimum > maximum {
            error("'minItems' \(minimum) is greater than 'maxItems' \(maximum)", at("minItems"))
        }
        if let minimum = schema.minProperties, let maximum = schema.maxProperties, minimum > maximum {
            error("'minProperties' \(minimum) is greater than 'maxProperties' \(maximum)", at("minProperties"))
        }
    }
}
#endif
