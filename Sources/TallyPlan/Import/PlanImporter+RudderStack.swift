// Reading schema files needs Yams, which the `Plans` trait brings.
#if Plans
import Foundation
import Tally
import Yams

/// RudderStack's data catalog as YAML (`version: rudder/v1`, as `rudder-cli` reads it): `kind: events`,
/// `properties`, `custom-types` and `tracking-plan`.
///
/// Each rule of the tracking plan becomes an event: its `event` reference gives the name, kind and
/// description, its `properties` references the property schemas (a property's `config` in JSON Schema
/// spelling, a custom type's schema in place of its reference), `additional_properties` whether others are
/// allowed. The event and property schemas are rewritten into JSON Schema nodes that keep their marks and
/// then go through the same path as the other formats.
extension PlanImporter {
    /// One definition of the catalog, with the file it is in.
    struct CatalogEntry {
        let node: Node
        let document: PlanDocument
    }

    /// The catalog's definitions, by id.
    struct Catalog {
        var events: [String: CatalogEntry] = [:]
        var properties: [String: CatalogEntry] = [:]
        var customTypes: [String: CatalogEntry] = [:]
        var trackingPlans: [CatalogEntry] = []
    }

    /// RudderStack's snake_case `config` keys and the JSON Schema keywords they stand for.
    static let rudderConfigKeys: [String: String] = [
        "enum": "enum", "pattern": "pattern", "format": "format", "minimum": "minimum", "maximum": "maximum",
        "exclusive_minimum": "exclusiveMinimum", "exclusive_maximum": "exclusiveMaximum",
        "multiple_of": "multipleOf", "min_length": "minLength", "max_length": "maxLength",
        "min_items": "minItems", "max_items": "maxItems", "unique_items": "uniqueItems",
        "exclusiveMinimum": "exclusiveMinimum", "exclusiveMaximum": "exclusiveMaximum", "multipleOf": "multipleOf",
        "minLength": "minLength", "maxLength": "maxLength", "minItems": "minItems", "maxItems": "maxItems",
        "uniqueItems": "uniqueItems",
    ]

    /// A directory of data catalog YAML files, or one file.
    mutating func importRudderStack(path: String) throws(Failure) {
        var files: [(url: URL, name: String)] = []
        if try Self.isDirectory(path) {
            files = Self.files(under: path, endingWith: [".yaml", ".yml"]).map {
                (URL(fileURLWithPath: Self.join(path, $0)), Self.join(path, $0))
            }
            guard !files.isEmpty else {
                throw Failure(ToolExitCode.missingInput, "The directory holds no YAML (.yaml, .yml) files", file: path)
            }
        } else {
            files = [(URL(fileURLWithPath: path), path)]
        }
        var catalog = Catalog()
        for (url, name) in files { read(try Self.document(at: url, name: name), into: &catalog) }
        guard let plan = catalog.trackingPlans.first else {
            throw Failure(
                ToolExitCode.invalidInput,
                "No tracking plan (version: rudder/v1, kind: tracking-plan) in \(files.count == 1 ? "the file" : "the YAML files")",
                file: path)
        }
        for other in catalog.trackingPlans.dropFirst() {
            warn(
                "Only one tracking plan is imported, the first (\(plan.document.file)); this one is not",
                other.node, in: other.document)
        }
        importTrackingPlan(plan, catalog: catalog)
    }

    /// Files each definition of `document` by its id.
    private mutating func read(_ document: PlanDocument, into catalog: inout Catalog) {
        let root = document.root
        guard Self.members(root) != nil else {
            fail("A data catalog file is a mapping with version, kind, metadata and spec", root, in: document)
            return
        }
        let versionNode = Self.member("version", of: root)
        let version = Self.text(versionNode, in: document)
        guard version == "rudder/v1" else {
            fail(
                "Only 'version: rudder/v1' is read, not \(version.map { "'\($0)'" } ?? "a file without one"); rudder-cli migrate upgrades older files",
                versionNode ?? root, in: document)
            return
        }
        let kindNode = Self.member("kind", of: root)
        let spec = Self.member("spec", of: root)
        func entries(_ key: String) -> [Node] {
            guard case .sequence(let sequence)? = Self.member(key, of: spec) else { return [] }
            return Array(sequence)
        }
        func file(_ nodes: [Node], into table: inout [String: CatalogEntry]) {
            for node in nodes {
                guard let id = Self.text(Self.member("id", of: node), in: document) else {
                    fail("A definition needs an 'id'", node, in: document)
                    continue
                }
                table[id] = CatalogEntry(node: node, document: document)
            }
        }
        switch Self.text(kindNode, in: document) {
        case "events": file(entries("events"), into: &catalog.events)
        case "properties": file(entries("properties"), into: &catalog.properties)
        case "custom-types": file(entries("types"), into: &catalog.customTypes)
        case "tracking-plan":
            if let spec { catalog.trackingPlans.append(CatalogEntry(node: spec, document: document)) }
        case "categories":
            break  // Reported where an event names its category.
        default:
            warn("This kind of file is not carried over", kindNode ?? root, in: document)
        }
    }

    /// Every rule of the tracking plan as an event.
    private mutating func importTrackingPlan(_ plan: CatalogEntry, catalog: Catalog) {
        let document = plan.document
        for (key, keyNode, _) in Self.members(plan.node) ?? []
        where !["id", "display_name", "description", "rules"].contains(key) {
            warn("The tracking plan's '\(key)' is not carried over", keyNode, in: document)
        }
        guard case .sequence(let rules)? = Self.member("rules", of: plan.node) else {
            fail("The tracking plan needs 'rules'", plan.node, in: document)
            return
        }
        for rule in rules { importRule(rule, in: document, catalog: catalog) }
    }

    private mutating func importRule(_ rule: Node, in document: PlanDocument, catalog: Catalog) {
        let typeNode = Self.member("type", of: rule)
        if let type = Self.text(typeNode, in: document), type != "event_rule" {
            warn("A '\(type)' rule is not carried over; only event rules are", typeNode ?? rule, in: document)
            return
        }
        let eventNode = Self.member("event", of: rule)
        guard let reference = Self.text(eventNode, in: document) else {
            fail("A rule needs 'event', a reference such as \"#event:product_viewed\"", rule, in: document)
            return
        }
        guard let event = catalog.events[Self.referencedID(reference, prefix: "#event:")] else {
            fail("No event '\(reference)' in the catalog", eventNode ?? rule, in: document)
            return
        }
        let eventDocument = event.document
        let typeText = Self.text(Self.member("event_type", of: event.node), in: eventDocument) ?? "track"
        guard let kind = Event.Kind(rawValue: typeText), kind != .alias else {
            warn(
                "A '\(typeText)' event is not carried over: a plan has track, screen, identify and group events here",
                Self.member("event_type", of: event.node) ?? event.node, in: eventDocument)
            return
        }
        var body: [(Node, Node)] = []
        var properties: [(Node, Node)] = []
        var required: [Node] = []
        for (key, keyNode, value) in Self.members(rule) ?? [] {
            switch key {
            case "type", "id", "event": break
            case "additional_properties": body.append((Self.key("additionalProperties", keyNode), value))
            case "properties":
                guard case .sequence(let references) = value else {
                    fail("A rule's 'properties' is a list of {property, required}", value, in: document)
                    break
                }
                for reference in references {
                    guard let (name, schema, isRequired) = ruleProperty(reference, in: document, catalog: catalog)
                    else { continue }
                    properties.append((name, schema))
                    if isRequired { required.append(name) }
                }
            default:
                warn("The rule's '\(key)' is not carried over", keyNode, in: document)
            }
        }
        body.insert((Self.key("properties", rule), Node(properties, .implicit, .block)), at: 0)
        if !required.isEmpty { body.append((Self.key("required", rule), Node(required))) }
        if !body.contains(where: { $0.0.scalar?.string == "additionalProperties" }) {
            body.append((Self.key("additionalProperties", rule), Self.key("true", rule)))
        }
        let nameNode = Self.member("name", of: event.node)
        let id = Self.text(Self.member("id", of: event.node), in: eventDocument) ?? ""
        let name = Self.text(nameNode, in: eventDocument).flatMap { $0.isEmpty ? nil : $0 } ?? id
        let source = EventSource(
            document: eventDocument, facts: event.node, body: Node(body), name: name, nameNode: nameNode,
            kind: kind, kindNode: Self.member("event_type", of: event.node),
            handledKeys: ["id", "name", "event_type"])
        events.append(ImportedEvent(node: importEvent(source), document: eventDocument, prechecked: true))
    }

    /// One `{property, required}` entry of a rule: the property's wire name, its schema in plan form
    /// (checked where it is defined) and whether it is required.
    private mutating func ruleProperty(
        _ entry: Node, in document: PlanDocument, catalog: Catalog
    ) -> (Node, Node, Bool)? {
        var isRequired = false
        var reference: (String, Node)?
        for (key, keyNode, value) in Self.members(entry) ?? [] {
            switch key {
            case "property": reference = Self.text(value, in: document).map { ($0, value) }
            case "required":
                if case .scalar(let scalar) = value {
                    isRequired = PlanReader(document: document).resolve(scalar) == .bool(true)
                }
            default: warn("The rule property's '\(key)' is not carried over", keyNode, in: document)
            }
        }
        guard let (text, node) = reference else {
            fail("A rule property needs 'property', a reference such as \"#property:product_sku\"", entry, in: document)
            return nil
        }
        guard let property = catalog.properties[Self.referencedID(text, prefix: "#property:")] else {
            fail("No property '\(text)' in the catalog", node, in: document)
            return nil
        }
        let nameNode = Self.member("name", of: property.node) ?? Self.member("id", of: property.node)!
        guard let name = Self.text(nameNode, in: property.document) else {
            fail("A property needs a 'name'", property.node, in: property.document)
            return nil
        }
        var visiting: Set<String> = []
        let schema = propertySchema(property, catalog: catalog, visiting: &visiting)
        return (Self.string(name, nameNode), schema, isRequired)
    }

    /// A property's (or custom type's) schema in plan form, read where it is defined.
    private mutating func propertySchema(
        _ entry: CatalogEntry, catalog: Catalog, visiting: inout Set<String>
    ) -> Node {
        let document = entry.document
        var pairs: [(Node, Node)] = []
        for (key, keyNode, value) in Self.members(entry.node) ?? [] {
            switch key {
            case "id", "name": break
            case "description": pairs.append((Self.key("description", keyNode), value))
            case "type", "types":
                if let text = Self.text(value, in: document), text.hasPrefix("#custom-type:") {
                    let id = Self.referencedID(text, prefix: "#custom-type:")
                    guard let custom = catalog.customTypes[id], !visiting.contains(id) else {
                        fail("No custom type '\(text)' in the catalog (or it contains itself)", value, in: document)
                        continue
                    }
                    visiting.insert(id)
                    let schema = propertySchema(custom, catalog: catalog, visiting: &visiting)
                    visiting.remove(id)
                    for pair in Self.members(schema) ?? []
                    where !pairs.contains(where: { $0.0.scalar?.string == pair.key }) {
                        pairs.append((pair.keyNode, pair.value))
                    }
                } else {
                    pairs.append((Self.key("type", keyNode), value))
                }
            case "config":
                for (configKey, configKeyNode, configValue) in Self.members(value) ?? [] {
                    if let keyword = Self.rudderConfigKeys[configKey] {
                        pairs.append((Self.key(keyword, configKeyNode), configValue))
                    } else {
                        warn("The config '\(configKey)' is not carried over", configKeyNode, in: document)
                    }
                }
            case "item_type", "item_types":
                if let text = Self.text(value, in: document), text.hasPrefix("#custom-type:"),
                    let custom = catalog.customTypes[Self.referencedID(text, prefix: "#custom-type:")]
                {
                    pairs.append(
                        (Self.key("items", keyNode), propertySchema(custom, catalog: catalog, visiting: &visiting)))
                } else {
                    pairs.append((Self.key("items", keyNode), Node([(Self.key("type", value), value)])))
                }
            case "properties":
                // A custom object type's members: references to properties, as in a rule.
                guard case .sequence(let references) = value else {
                    warn("The custom type's 'properties' is not carried over", keyNode, in: document)
                    continue
                }
                var members: [(Node, Node)] = []
                var required: [Node] = []
                for reference in references {
                    guard let (name, schema, isRequired) = ruleProperty(reference, in: document, catalog: catalog)
                    else { continue }
                    members.append((name, schema))
                    if isRequired { required.append(name) }
                }
                pairs.append((Self.key("properties", keyNode), Node(members)))
                if !required.isEmpty { pairs.append((Self.key("required", keyNode), Node(required))) }
            default:
                warn("The definition's '\(key)' is not carried over", keyNode, in: document)
            }
        }
        // Read it where it is written, so a bad value is reported at its line.
        let schema = Node.mapping(Node.Mapping(pairs, .implicit, .any, entry.node.mark))
        let imported = importSchema(schema, in: document) ?? schema
        var reader = PlanReader(document: PlanDocument(root: imported, locatingIn: document))
        _ = reader.readSchema(imported, path: "")
        append(reader.diagnostics.filter { $0.severity == .error })
        return imported
    }

    /// `product_viewed` for `#event:product_viewed`; the text itself when it has no such prefix.
    static func referencedID(_ reference: String, prefix: String) -> String {
        reference.hasPrefix(prefix) ? String(reference.dropFirst(prefix.count)) : reference
    }
}
#endif
