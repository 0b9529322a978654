import Tally

/// What the generator emits for one planned event, worked out before any text is written.
extension SwiftCodeGenerator {
    struct GeneratedEvent {
        let planned: PlannedEvent
        let factoryName: String
        let typeName: String
        /// The id parameter of identify, group and alias events: `userId`, `groupId`, `newId`.
        let idLabel: String?
        let parameters: [Parameter]
        let constants: [(property: String, literal: String)]
        let enums: [GeneratedEnum]
    }

    struct Parameter {
        let property: String
        let label: String
        let type: String
        /// Not required: `T? = nil`, and left out of the event when nil.
        let isOptional: Bool
        /// Required but may be null: `T?` without a default, sent as `null` when nil.
        let isNullable: Bool
        let convert: (String) -> Code
        let documentation: String
    }

    struct GeneratedEnum {
        let name: String
        let cases: [(identifier: String, rawValue: String)]
        let documentation: String
    }

    /// The Swift type of a schema and how to turn a value of it into a `PropertyValue`.
    struct Mapping {
        let type: String
        let convert: (String) -> Code
        var enums: [GeneratedEnum] = []
    }

    /// Works out the Swift side of every event, in a stable order: by kind, then by name.
    func model(_ plan: TrackingPlan) -> [GeneratedEvent] {
        let kinds = Event.Kind.allCases
        let events = plan.events.sorted { a, b in
            let (kindA, kindB) = (kinds.firstIndex(of: a.kind)!, kinds.firstIndex(of: b.kind)!)
            return kindA != kindB ? kindA < kindB : Self.precedes(a.name, b.name)
        }
        let factoryNames = SwiftNames.deduplicated(events.map(factoryName), reserved: Self.reservedEventMembers)
        let typeNames = SwiftNames.deduplicated(
            factoryNames.map { SwiftNames.upperCamel(SwiftNames.bare($0), fallback: "Event") }.map(SwiftNames.safe),
            reserved: [Self.destinationNamesType])
        return zip(events, zip(factoryNames, typeNames)).map { event, names in
            generatedEvent(event, factoryName: names.0, typeName: names.1)
        }
    }

    /// The namespace's enum of the plan's destination names; an event's enum namespace never takes it.
    static let destinationNamesType = "Destinations"

    /// Members `Event` already has; a factory with one of these names gets a number instead.
    static let reservedEventMembers: Set<String> = [
        "track", "screen", "identify", "group", "alias", "kind", "name", "properties", "description", "init",
        "hash", "encode",
    ]

    private func factoryName(_ event: PlannedEvent) -> String {
        let base = SwiftNames.lowerCamel(event.name, fallback: "event")
        switch event.kind {
        case .track: return SwiftNames.safe(base)
        case .screen: return SwiftNames.safe(base.lowercased().hasSuffix("screen") ? base : base + "Screen")
        case .identify, .group, .alias:
            return SwiftNames.safe(event.kind.rawValue + SwiftNames.upperCamel(event.name, fallback: ""))
        }
    }

    private func generatedEvent(_ event: PlannedEvent, factoryName: String, typeName: String) -> GeneratedEvent {
        let idLabel: String? =
            switch event.kind {
            case .track, .screen: nil
            case .identify: "userId"
            case .group: "groupId"
            case .alias: "newId"
            }
        let required = Set(event.required.map(\.string))
        let schemas = Dictionary(
            event.properties.map { ($0.key.string, $0.value) }, uniquingKeysWith: { first, _ in first })
        // An event's properties are a [String: PropertyValue], which cannot hold two names that differ only in
        // Unicode normalization; the first in code point order is generated (tally lint warns about the pair).
        var generated: Set<String> = []
        let names = event.properties.keys.sorted().map(\.string).filter { generated.insert($0).inserted }
        let constants = names.compactMap { name in
            schemas[name]!.constValue.map { (property: name, literal: Self.literal($0)) }
        }
        // Required first, then optional; each group by name.
        let variable = names.filter { schemas[$0]!.constValue == nil }
        let parameterNames = variable.filter { required.contains($0) } + variable.filter { !required.contains($0) }
        let labels = SwiftNames.deduplicated(
            parameterNames.map { SwiftNames.safe(SwiftNames.lowerCamel($0, fallback: "value")) },
            reserved: Set(["properties"] + (idLabel.map { [$0] } ?? [])))
        let enumNames = SwiftNames.deduplicated(
            parameterNames.map { SwiftNames.safe(SwiftNames.upperCamel($0, fallback: "Value")) })
        var enums: [GeneratedEnum] = []
        var parameters: [Parameter] = []
        for (index, name) in parameterNames.enumerated() {
            let schema = schemas[name]!
            let mapping = self.mapping(
                schema, enumName: enumNames[index], qualifiedPrefix: "\(namespace).\(typeName).", property: name)
            enums += mapping.enums
            let isRequired = required.contains(name)
            parameters.append(
                Parameter(
                    property: name, label: labels[index], type: mapping.type, isOptional: !isRequired,
                    isNullable: isRequired && schema.isNullable && schema.types != nil, convert: mapping.convert,
                    documentation: parameterDocumentation(schema, property: name)))
        }
        return GeneratedEvent(
            planned: event, factoryName: factoryName, typeName: typeName, idLabel: idLabel, parameters: parameters,
            constants: constants, enums: enums)
    }

    /// The Swift type for `schema`.
    func mapping(_ schema: PropertySchema, enumName: String, qualifiedPrefix: String, property: String) -> Mapping {
        if let values = schema.enumValues {
            let strings = values.compactMap(\.stringValue)
            let onlyStringsAndNull = strings.count + values.filter(\.isNull).count == values.count
            if !strings.isEmpty, onlyStringsAndNull, schema.nonNullTypes.allSatisfy({ $0 == .string }) {
                let identifiers = SwiftNames.deduplicated(
                    strings.map { SwiftNames.safe(SwiftNames.lowerCamel($0, fallback: "empty")) })
                let generated = GeneratedEnum(
                    name: enumName, cases: Array(zip(identifiers, strings)),
                    documentation: "The values of `\(property)`." + (schema.description.map { " \($0)" } ?? ""))
                return Mapping(
                    type: qualifiedPrefix + enumName, convert: { Self.wrap(".string", "\($0).rawValue") },
                    enums: [generated])
            }
            return Mapping(type: "PropertyValue", convert: { .text($0) })
        }
        let types = schema.nonNullTypes
        guard types.count == 1 else { return Mapping(type: "PropertyValue", convert: { .text($0) }) }
        switch types[0] {
        case .string:
            if schema.format == .dateTime {
                return Mapping(type: "Date", convert: { Self.wrap("PropertyValue.date", $0) })
            }
            return Mapping(type: "String", convert: { Self.wrap(".string", $0) })
        case .integer: return Mapping(type: "Int", convert: { Self.wrap(".int", $0) })
        case .number: return Mapping(type: "Double", convert: { Self.wrap(".double", $0) })
        case .boolean: return Mapping(type: "Bool", convert: { Self.wrap(".bool", $0) })
        case .object: return Mapping(type: "[String: PropertyValue]", convert: { Self.wrap(".object", $0) })
        case .null: return Mapping(type: "PropertyValue", convert: { .text($0) })
        case .array:
            guard let items = schema.items else {
                return Mapping(type: "[PropertyValue]", convert: { Self.wrap(".array", $0) })
            }
            let element = mapping(items, enumName: enumName, qualifiedPrefix: qualifiedPrefix, property: property)
            let convert = element.convert
            if element.type == "PropertyValue" {
                return Mapping(type: "[PropertyValue]", convert: { Self.wrap(".array", $0) })
            }
            if items.isNullable, items.types != nil {
                return Mapping(
                    type: "[\(element.type)?]",
                    convert: {
                        .call(
                            head: ".array(",
                            argument: .map(
                                receiver: $0, parameter: "element",
                                body: .orNull(.map(receiver: "element", parameter: "value", body: convert("value")))),
                            close: ")")
                    },
                    enums: element.enums)
            }
            return Mapping(
                type: "[\(element.type)]",
                convert: {
                    .call(
                        head: ".array(", argument: .map(receiver: $0, parameter: "element", body: convert("element")),
                        close: ")")
                },
                enums: element.enums)
        }
    }

    /// `function(argument)`, breakable after the parenthesis.
    private static func wrap(_ function: String, _ argument: String) -> Code {
        .call(head: function + "(", argument: .text(argument), close: ")")
    }

    private func parameterDocumentation(_ schema: PropertySchema, property: String) -> String {
        var text = "`\(property)`"
        if let description = schema.description, !description.isEmpty {
            text += ": " + description.split(separator: "\n").joined(separator: " ")
        }
        if let mark = schema.personal {
            let fate =
                switch mark.rule {
                case .send?: "sent as it is"
                case .hash?: "the client hashes it"
                case .redact?: "the client redacts it"
                case .neverSend?: "the client removes it"
                case nil: "the client redacts it (no rule yet)"
                }
            // The sentence before ends with a full stop, so the mark never runs on from the name or description.
            if let last = text.last, !".!?".contains(last) { text += "." }
            text += " Personal data (\(mark.kind)): \(fate) (`\(namespace).rules`)."
        }
        return text
    }

    /// Byte order of UTF-8, which does not depend on locale or Unicode normalization.
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// An integer literal, its digits grouped by threes with `_` when it has more than six, as swift-format's
    /// GroupNumericLiterals rule asks.
    static func grouped(_ int: Int) -> String {
        let digits = String(int.magnitude)
        guard digits.count > 6 else { return String(int) }
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (int < 0 ? "-" : "") + groups.joined(separator: "_")
    }

    /// A Swift expression of type `PropertyValue` for a JSON value.
    static func literal(_ value: PropertyValue) -> String {
        switch value {
        case .string(let string): return ".string(\(SwiftNames.literal(string)))"
        case .int(let int): return ".int(\(grouped(int)))"
        case .double(let double): return ".double(\(double))"
        case .bigNumber(let number): return ".bigNumber(BigNumber(\(SwiftNames.literal(number.text)))!)"
        case .bool(let bool): return ".bool(\(bool))"
        case .null: return ".null"
        case .array(let elements): return ".array([\(elements.map(literal).joined(separator: ", "))])"
        case .object(let members):
            guard !members.isEmpty else { return ".object([:])" }
            let keys = members.keys.sorted(by: precedes)
            return
                ".object([\(keys.map { "\(SwiftNames.literal($0)): \(literal(members[$0]!))" }.joined(separator: ", "))])"
        }
    }
}
