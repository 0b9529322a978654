// Reading schema files needs Yams, which the `Plans` trait brings.
#if Plans
import Tally
import Yams

/// Event schemas (JSON Schema, any draft from 4) rewritten into plan events.
extension PlanImporter {
    /// Where one event's facts come from in an input file.
    struct EventSource {
        let document: PlanDocument
        /// The mapping that holds `description` and the `x-tally-*` keywords.
        let facts: Node
        /// The object schema of the event's properties; the same node as ``facts`` except for Segment, where
        /// it is the rule's `properties` (or `traits`) member. Nil when the input has none.
        let body: Node?
        /// The event name when `x-tally-name` is absent, and where the input wrote it.
        let name: String
        let nameNode: Node?
        /// The kind when `x-tally-kind` is absent (track when nil), and where the input wrote it.
        var kind: Event.Kind? = nil
        var kindNode: Node? = nil
        /// Keys of ``facts`` the format's reader has dealt with.
        var handledKeys: Set<String> = []
    }

    /// Keywords that identify a schema or its dialect; they carry no rule, so they are left behind quietly.
    static let identifierKeywords: Set<String> = [
        "$schema", "$id", "id", "$anchor", "$dynamicAnchor", "$vocabulary",
    ]

    /// The keywords of Tally's subset copied as they are (``PlanReader`` checks their values).
    static let copiedKeywords: Set<String> = [
        "type", "enum", "const", "pattern", "minLength", "maxLength", "minimum", "maximum", "multipleOf",
        "minItems", "maxItems", "minProperties", "maxProperties", "required", "description",
    ]

    /// The event in plan form: `name`, `kind`, `description`, `owner`, `purpose`, `expires`, `tags`,
    /// `properties`, `required`, `additionalProperties`.
    mutating func importEvent(_ source: EventSource) -> Node {
        let document = source.document
        let reader = PlanReader(document: document)
        var name = Self.string(source.name, source.nameNode)
        var kind = source.kind.flatMap { $0 == .track ? nil : Self.string($0.rawValue, source.kindNode) }
        var description: Node?
        var owner: Node?
        var purpose: Node?
        var expires: Node?
        var tags: Node?
        var extras: [(Node, Node)] = []
        var properties: Node?
        var required: Node?
        var additionalProperties: Node? = Self.key("true", source.body ?? source.facts)
        let bodyIsFacts = source.body == source.facts
        for (key, keyNode, value) in Self.members(source.facts) ?? [] {
            let text = Self.text(value, in: document)
            switch key {
            case "x-tally-name": name = normalized(value, in: document)
            case "x-tally-kind": kind = text == "track" ? nil : normalized(value, in: document)
            case "x-tally-purpose": purpose = text == "analytics" ? nil : normalized(value, in: document)
            case "x-tally-owner": owner = normalized(value, in: document)
            case "x-tally-expires": expires = normalized(value, in: document)
            case "x-tally-tags": tags = normalized(value, in: document)
            case "description": description = normalized(value, in: document)
            case _ where source.handledKeys.contains(key) || bodyIsFacts: break
            default: warn("'\(key)' is not carried over", keyNode, in: document)
            }
        }
        for (key, keyNode, value) in Self.members(source.body) ?? [] {
            switch key {
            case "x-tally-name", "x-tally-kind", "x-tally-purpose", "x-tally-owner", "x-tally-expires",
                "x-tally-tags", "description":
                if !bodyIsFacts { warn("'\(key)' of an event belongs on the rule's schema", keyNode, in: document) }
            case _ where bodyIsFacts && source.handledKeys.contains(key): break
            case "type":
                if Self.text(value, in: document) != "object" {
                    warn(
                        "The event schema's type is not carried over: a plan event's properties are an object",
                        keyNode, in: document)
                }
            case "properties": properties = importProperties(value, in: document, block: true)
            case "required": required = normalized(value, in: document)
            case "additionalProperties":
                if case .scalar(let scalar) = value, case .bool(let allowed) = reader.resolve(scalar) {
                    additionalProperties = allowed ? Self.key("true", value) : nil
                } else if case .mapping = value {
                    warn(
                        "An event's 'additionalProperties' schema is not carried over: a plan event allows other properties or not, so it allows them",
                        keyNode, in: document)
                } else {
                    additionalProperties = normalized(value, in: document)
                }
            case "title" where bodyIsFacts: break
            case _ where Self.identifierKeywords.contains(key): break
            case "deprecated", "$comment":
                extras.append((Self.key(key, keyNode), normalized(value, in: document)))
            default:
                warn(
                    "'\(key)' on an event schema is not carried over: a plan event takes 'properties', 'required' and 'additionalProperties'",
                    keyNode, in: document)
            }
        }
        if description == nil {
            warn(
                "The event has no description, which a plan needs: a placeholder was written; describe it",
                source.facts, in: document)
            description = Self.string("Imported from \(shortName(document.file)); describe it.", source.facts)
        }
        var pairs: [(Node, Node)] = [(Self.key("name", nil), name)]
        if let kind { pairs.append((Self.key("kind", nil), kind)) }
        if let description { pairs.append((Self.key("description", nil), description)) }
        if let owner { pairs.append((Self.key("owner", nil), owner)) }
        if let purpose { pairs.append((Self.key("purpose", nil), purpose)) }
        if let expires { pairs.append((Self.key("expires", nil), expires)) }
        if let tags { pairs.append((Self.key("tags", nil), tags)) }
        pairs += extras
        if let properties, properties.mapping?.isEmpty != true {
            pairs.append((Self.key("properties", nil), properties))
        }
        if let required { pairs.append((Self.key("required", nil), required)) }
        if let additionalProperties { pairs.append((Self.key("additionalProperties", nil), additionalProperties)) }
        return .mapping(Node.Mapping(pairs, .implicit, .block, source.facts.mark))
    }

    /// A `properties` mapping in plan form; each member's schema through ``importSchema(_:in:)``.
    mutating func importProperties(_ node: Node, in document: PlanDocument, block: Bool = false) -> Node {
        guard case .mapping(let mapping) = node else { return normalized(node, in: document) }
        var pairs: [(Node, Node)] = []
        for (keyNode, value) in mapping {
            guard let schema = importSchema(value, in: document) else { continue }
            pairs.append((normalized(keyNode, in: document), schema))
        }
        return block
            ? .mapping(Node.Mapping(pairs, .implicit, .block, mapping.mark)) : Self.mapping(pairs, mark: mapping.mark)
    }

    /// A personal property as `tally export` writes it when its rule changes the value before it leaves the
    /// app (any rule but `send`): the keywords beside `x-tally-personal` describe what arrives (`null` or the
    /// redaction marker), derived from the mark, and the mark's `value` holds the property's own rules. The
    /// plan's property is that `value` with `personal: {kind, rule}` and the description. Nil for any other
    /// schema.
    private mutating func arrivingPersonal(
        _ members: [(key: String, keyNode: Node, value: Node)], in document: PlanDocument
    ) -> Node? {
        guard let (_, markKey, mark) = members.first(where: { $0.key == "x-tally-personal" }),
            let markMembers = Self.members(mark),
            Self.text(markMembers.first { $0.key == "rule" }?.value, in: document) != "send"
        else { return nil }
        // What arrives is derived from the rule; anything else beside the mark would be lost, so say so.
        let derived: Set<String>
        switch Self.text(markMembers.first { $0.key == "rule" }?.value, in: document) {
        case "never_send": derived = ["type"]
        case "hash": derived = []
        default: derived = ["enum"]
        }
        for (key, keyNode, _) in members
        where key != "x-tally-personal" && key != "description" && !derived.contains(key) {
            warn(
                "'\(key)' beside an x-tally-personal mark whose rule changes the value is not carried over: the mark's 'value' holds the property's own rules",
                keyNode, in: document)
        }
        var pairs: [(Node, Node)] = []
        if let value = markMembers.first(where: { $0.key == "value" })?.value {
            pairs = Self.members(importSchema(value, in: document)).map { $0.map { ($0.keyNode, $0.value) } } ?? []
        }
        let personal = markMembers.filter { $0.key != "value" }.map {
            (normalized($0.keyNode, in: document), normalized($0.value, in: document))
        }
        pairs.append((Self.key("personal", markKey), Self.mapping(personal, mark: mark.mark)))
        if let description = members.first(where: { $0.key == "description" }) {
            pairs.append((Self.key("description", description.keyNode), normalized(description.value, in: document)))
        }
        return Self.mapping(pairs, mark: mark.mark)
    }

    /// One property schema in plan form: Tally's keywords kept, `x-tally-personal` as `personal`, draft 4's
    /// Boolean `exclusiveMinimum`/`exclusiveMaximum` as the bound itself, and every other keyword left
    /// behind with a warning at its line. Nil (with a warning) for the schema `false`.
    mutating func importSchema(_ node: Node, in document: PlanDocument) -> Node? {
        let reader = PlanReader(document: document)
        if case .scalar(let scalar) = node, case .bool(let accepts) = reader.resolve(scalar) {
            if accepts { return Self.mapping([], mark: scalar.mark) }
            warn(
                "The schema 'false' (nothing is valid) is not carried over; the property is left out", node,
                in: document)
            return nil
        }
        guard let members = Self.members(node) else { return normalized(node, in: document) }
        if let personal = arrivingPersonal(members, in: document) { return personal }
        // Draft 4 writes an exclusive bound as `minimum: n, exclusiveMinimum: true`.
        func isTrue(_ key: String) -> Bool {
            guard case .scalar(let scalar)? = members.first(where: { $0.key == key })?.value else { return false }
            return reader.resolve(scalar) == .bool(true)
        }
        let exclusive = ["minimum": isTrue("exclusiveMinimum"), "maximum": isTrue("exclusiveMaximum")]
        var pairs: [(Node, Node)] = []
        for (key, keyNode, value) in members {
            switch key {
            case "minimum", "maximum":
                if exclusive[key] == true { break }
                pairs.append((Self.key(key, keyNode), normalized(value, in: document)))
            case "exclusiveMinimum", "exclusiveMaximum":
                guard case .scalar(let scalar) = value, case .bool(let isExclusive) = reader.resolve(scalar) else {
                    pairs.append((Self.key(key, keyNode), normalized(value, in: document)))
                    break
                }
                let bound = key == "exclusiveMinimum" ? "minimum" : "maximum"
                guard isExclusive else { break }
                if let boundNode = members.first(where: { $0.key == bound })?.value {
                    pairs.append((Self.key(key, keyNode), normalized(boundNode, in: document)))
                } else {
                    warn(
                        "'\(key): true' without '\(bound)' bounds nothing; it is not carried over", keyNode,
                        in: document)
                }
            case _ where Self.copiedKeywords.contains(key):
                pairs.append((Self.key(key, keyNode), normalized(value, in: document)))
            case "uniqueItems":
                if case .scalar(let scalar) = value, reader.resolve(scalar) == .bool(false) { break }
                pairs.append((Self.key(key, keyNode), normalized(value, in: document)))
            case "format":
                if let format = Self.text(value, in: document), StringFormat(rawValue: format) == nil {
                    warn(
                        "The format '\(format)' is not one Tally checks; it is not carried over", value, in: document)
                    break
                }
                pairs.append((Self.key(key, keyNode), normalized(value, in: document)))
            case "items":
                if case .sequence = value {
                    warn("'items' as a list (one schema per position) is not carried over", keyNode, in: document)
                } else if let items = importSchema(value, in: document) {
                    pairs.append((Self.key(key, keyNode), items))
                }
            case "properties":
                pairs.append((Self.key(key, keyNode), importProperties(value, in: document)))
            case "additionalProperties":
                if case .mapping = value, let schema = importSchema(value, in: document) {
                    pairs.append((Self.key(key, keyNode), schema))
                } else {
                    pairs.append((Self.key(key, keyNode), normalized(value, in: document)))
                }
            case "x-tally-personal":
                pairs.append((Self.key("personal", keyNode), normalized(value, in: document)))
            case _ where Self.identifierKeywords.contains(key): break
            case _ where PlanReader.annotationKeywords.contains(key):
                pairs.append((Self.key(key, keyNode), normalized(value, in: document)))
            case _ where PlanReader.unsupportedKeywords.contains(key):
                warn(
                    "'\(key)' is outside Tally's keyword subset; it is not carried over, so the plan checks less than the source",
                    keyNode, in: document)
            case _ where PlanReader.isExtension(key):
                warn("The extension keyword '\(key)' is not carried over", keyNode, in: document)
            default:
                warn("The keyword '\(key)' is not one Tally knows; it is not carried over", keyNode, in: document)
            }
        }
        return Self.mapping(pairs, mark: node.mark)
    }
}
#endif
