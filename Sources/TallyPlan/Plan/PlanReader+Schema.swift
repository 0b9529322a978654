import Foundation
import Tally
import Yams

/// Reading property schemas: the JSON Schema 2020-12 keyword subset, plus `pii` and the `required: true`
/// shorthand.
extension PlanReader {
    static let schemaKeywords = [
        "type", "enum", "const", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "minLength", "maxLength", "format", "items", "minItems", "maxItems", "properties", "required",
        "additionalProperties", "pii",
    ]
    /// Annotations JSON Schema defines that change nothing about validation; accepted without a warning.
    static let annotationKeywords = ["description", "title", "examples", "default", "deprecated", "$comment", "readOnly", "writeOnly"]
    /// Real JSON Schema keywords outside Tally's subset; they get a clearer warning than a typo does.
    static let unsupportedKeywords = [
        "$ref", "$defs", "definitions", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "prefixItems",
        "contains", "minContains", "maxContains", "uniqueItems", "multipleOf", "patternProperties",
        "propertyNames", "dependentRequired", "dependentSchemas", "minProperties", "maxProperties",
        "unevaluatedProperties", "unevaluatedItems", "contentEncoding", "contentMediaType",
    ]

    /// Reads a `properties` mapping. Returns the schemas and the names marked `required: true`.
    mutating func readProperties(_ node: Node, path: String) -> ([String: PropertySchema], [(String, Node)]) {
        guard let members = mapping(node, "'properties'") else { return ([:], []) }
        var properties: [String: PropertySchema] = [:]
        var required: [(String, Node)] = []
        for (name, keyNode, value) in members {
            if name.isEmpty { error("A property name must not be empty", keyNode) }
            let (schema, isRequired) = readSchema(value, path: path + "/" + JSONPointer.escape(name))
            properties[name] = schema
            if isRequired { required.append((name, keyNode)) }
        }
        return (properties, required)
    }

    /// Reads one schema. Returns it and whether it said `required: true`.
    mutating func readSchema(_ node: Node, path: String) -> (PropertySchema, Bool) {
        var schema = PropertySchema()
        guard let members = mapping(node, "The schema of \(path)") else { return (schema, false) }
        var isRequired = false
        var requiredList: [(String, Node)] = []
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
                if key == "exclusiveMinimum" { schema.exclusiveMinimum = bound } else { schema.exclusiveMaximum = bound }
            case "minLength": schema.minLength = count(value, "'minLength'")
            case "maxLength": schema.maxLength = count(value, "'maxLength'")
            case "minItems": schema.minItems = count(value, "'minItems'")
            case "maxItems": schema.maxItems = count(value, "'maxItems'")
            case "format":
                guard let text = string(value, "'format'") else { break }
                if let format = StringFormat(rawValue: text) {
                    schema.format = format
                } else {
                    let known = StringFormat.allCases.map(\.rawValue)
                    warning(
                        "Format '\(text)' is not checked; Tally checks \(known.joined(separator: ", "))"
                            + (Self.closest(to: text, in: known).map { "; did you mean '\($0)'?" } ?? ""), value)
                }
            case "items":
                guard case .mapping = value else {
                    error("'items' must be one schema for every element (JSON Schema 2020-12), not \(describe(value))", value)
                    break
                }
                schema.items = readSchema(value, path: path + "/items").0
            case "properties":
                let (properties, flagged) = readProperties(value, path: path + "/properties")
                schema.properties = properties
                requiredList += flagged
            case "required":
                if case .scalar(let scalar) = value, case .bool(let flag) = resolve(scalar) {
                    isRequired = flag
                } else {
                    requiredList += strings(value, "'required' (a list of member names, or true on a property)") ?? []
                }
            case "additionalProperties":
                switch value {
                case .mapping: schema.additionalProperties = .schema(readSchema(value, path: path + "/additionalProperties").0)
                default:
                    if let allowed = bool(value, "'additionalProperties' (true, false or a schema)") {
                        schema.additionalProperties = allowed ? .allowed : .forbidden
                    }
                }
            case "pii": schema.pii = bool(value, "'pii'") ?? false
            case "description": schema.description = string(value, "'description'")
            case _ where Self.annotationKeywords.contains(key): break
            case "nullable":
                unknownKey(key, keyNode, known: [], what: "keyword", hint: "to allow null, add \"null\" to 'type': type: [string, \"null\"]")
            case _ where Self.unsupportedKeywords.contains(key):
                unknownKey(key, keyNode, known: [], what: "keyword", hint: "it is JSON Schema but not in the subset Tally checks")
            default:
                unknownKey(key, keyNode, known: Self.schemaKeywords + Self.annotationKeywords, what: "keyword")
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
                let suggestion = Self.closest(to: name, in: known + ["str", "int", "bool", "float", "double", "dict", "list"])
                    .map { ["str": "string", "int": "integer", "bool": "boolean", "float": "number", "double": "number", "dict": "object", "list": "array"][$0] ?? $0 }
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
        _ schema: PropertySchema, keywordNodes: [String: Node], valueNodes: [String: Node], enumNodes: [Node], node: Node
    ) {
        func at(_ keyword: String) -> Node { keywordNodes[keyword] ?? node }
        if let types = schema.types {
            let applicable: [(keywords: [String], types: Set<SchemaType>, noun: String)] = [
                (["pattern", "minLength", "maxLength", "format"], [.string], "strings"),
                (["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"], [.integer, .number], "numbers"),
                (["items", "minItems", "maxItems"], [.array], "arrays"),
                (["properties", "additionalProperties"], [.object], "objects"),
            ]
            let declared = types.map(\.rawValue).joined(separator: ", ")
            for rule in applicable where rule.types.isDisjoint(with: types) {
                for keyword in rule.keywords where keywordNodes[keyword] != nil {
                    warning("'\(keyword)' applies to \(rule.noun) but the type is \(declared); it never applies", at(keyword))
                }
            }
            for (index, value) in (schema.enumValues ?? []).enumerated() where !types.contains(where: { $0.accepts(value) }) {
                let element = index < enumNodes.count ? enumNodes[index] : at("enum")
                warning("'enum' value \(value.jsonString) is not of type \(declared); no value can match it", element)
            }
            if let value = schema.constValue, !types.contains(where: { $0.accepts(value) }) {
                error("'const' value \(value.jsonString) is not of type \(declared); no value can match", valueNodes["const"] ?? node)
            }
        }
        let lower = [schema.minimum, schema.exclusiveMinimum].compactMap { $0 }.max()
        let upper = [schema.maximum, schema.exclusiveMaximum].compactMap { $0 }.min()
        if let lower, let upper {
            let exclusive = schema.exclusiveMinimum == lower || schema.exclusiveMaximum == upper
            if lower > upper || (lower == upper && exclusive) {
                error("No number meets both the lower bound \(lower.shortDescription) and the upper bound \(upper.shortDescription)", node)
            }
        }
        if let minimum = schema.minLength, let maximum = schema.maxLength, minimum > maximum {
            error("'minLength' \(minimum) is greater than 'maxLength' \(maximum)", at("minLength"))
        }
        if let minimum = schema.minItems, let maximum = schema.maxItems, minimum > maximum {
            error("'minItems' \(minimum) is greater than 'maxItems' \(maximum)", at("minItems"))
        }
    }
}

extension Double {
    /// `3` for 3.0, `2.5` for 2.5: how a bound reads in messages and rules.
    var shortDescription: String {
        if rounded() == self, abs(self) < 1e15 { return String(Int(self)) }
        return description
    }
}
