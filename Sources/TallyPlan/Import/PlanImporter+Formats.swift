// Reading schema files needs Yams, which the `Plans` trait brings.
#if Plans
import Foundation
import Tally
import Yams

/// The JSON Schema, Iglu and Segment readers.
extension PlanImporter {
    // MARK: json-schema

    /// A directory of JSON Schema files, one per event (and `tally-plan.json`), or one file.
    mutating func importJSONSchema(path: String) throws(Failure) {
        guard try Self.isDirectory(path) else {
            importJSONSchemaFile(try Self.document(at: URL(fileURLWithPath: path), name: path), path: path)
            return
        }
        let files = Self.files(under: path, endingWith: [".json"]).filter {
            ($0 as NSString).lastPathComponent != "tally-plan.json"
        }
        guard !files.isEmpty else {
            throw Failure(ToolExitCode.missingInput, "The directory holds no JSON Schema (.json) files", file: path)
        }
        for file in files {
            let name = Self.join(path, file)
            importJSONSchemaFile(try Self.document(at: URL(fileURLWithPath: name), name: name), path: file)
        }
        try readPlanFacts(inDirectory: path)
    }

    private mutating func importJSONSchemaFile(_ document: PlanDocument, path: String) {
        guard Self.members(document.root) != nil else {
            fail("An event schema must be a JSON object", document.root, in: document)
            return
        }
        var stem = (path as NSString).lastPathComponent
        for suffix in [".schema.json", ".json"] where stem.hasSuffix(suffix) {
            stem = String(stem.dropLast(suffix.count))
            break
        }
        let title = Self.member("title", of: document.root)
        let source = EventSource(
            document: document, facts: document.root, body: document.root,
            name: Self.text(title, in: document) ?? stem, nameNode: title)
        events.append(ImportedEvent(node: importEvent(source), document: document))
    }

    // MARK: iglu

    /// An Iglu static registry (the newest version of each schema under `schemas/<vendor>/<name>/jsonschema/`),
    /// or one self-describing schema file.
    mutating func importIglu(path: String) throws(Failure) {
        guard try Self.isDirectory(path) else {
            importIgluFile(try Self.document(at: URL(fileURLWithPath: path), name: path))
            return
        }
        let schemas = Self.join(path, "schemas")
        let root = FileManager.default.fileExists(atPath: schemas) ? schemas : path
        var newest: [String: (version: [Int], file: String)] = [:]
        for file in Self.files(under: root, endingWith: [""]) {
            let parts = file.split(separator: "/").map(String.init)
            guard parts.count == 4, parts[2] == "jsonschema" else { continue }
            let version = parts[3].split(separator: "-").compactMap { Int($0) }
            guard version.count == 3, parts[3].split(separator: "-").count == 3 else { continue }
            let schema = parts[0] + "/" + parts[1]
            if let known = newest[schema], known.version.lexicographicallyPrecedes(version) == false { continue }
            newest[schema] = (version, file)
        }
        guard !newest.isEmpty else {
            throw Failure(
                ToolExitCode.missingInput,
                "No Iglu schemas here: a static registry holds schemas/<vendor>/<name>/jsonschema/<MODEL-REVISION-ADDITION>",
                file: path)
        }
        for schema in newest.keys.sorted() {
            let name = Self.join(root, newest[schema]!.file)
            importIgluFile(try Self.document(at: URL(fileURLWithPath: name), name: name))
        }
        try readPlanFacts(inDirectory: path)
    }

    private mutating func importIgluFile(_ document: PlanDocument) {
        guard Self.members(document.root) != nil else {
            fail("A self-describing schema must be a JSON object", document.root, in: document)
            return
        }
        let description = Self.member("self", of: document.root)
        guard let nameNode = Self.member("name", of: description), let name = Self.text(nameNode, in: document)
        else {
            fail(
                "A self-describing schema needs 'self': {vendor, name, format, version}", description ?? document.root,
                in: document)
            return
        }
        if let vendor = Self.member("vendor", of: description), let text = Self.text(vendor, in: document) {
            igluVendors.append((text, vendor, document))
        }
        if let format = Self.member("format", of: description), Self.text(format, in: document) != "jsonschema" {
            warn("Only Iglu's 'jsonschema' format is read; this schema is read as one", format, in: document)
        }
        let source = EventSource(
            document: document, facts: document.root, body: document.root, name: name, nameNode: nameNode,
            handledKeys: ["self"])
        events.append(ImportedEvent(node: importEvent(source), document: document))
    }

    // MARK: segment

    /// A Protocols rules file, `{"rules": [...]}` or the Public API's `{"data": {"rules": [...]}}`, or a
    /// directory holding `rules.json` (and `tally-plan.json`).
    mutating func importSegment(path: String) throws(Failure) {
        let isDirectory = try Self.isDirectory(path)
        let file = isDirectory ? Self.join(path, "rules.json") : path
        guard FileManager.default.fileExists(atPath: file) else {
            throw Failure(ToolExitCode.missingInput, "The directory holds no rules.json", file: path)
        }
        let document = try Self.document(at: URL(fileURLWithPath: file), name: file)
        let rules =
            Self.member("rules", of: document.root) ?? Self.member("rules", of: Self.member("data", of: document.root))
        guard case .sequence(let sequence)? = rules else {
            throw Failure(
                ToolExitCode.invalidInput,
                [
                    PlanDiagnostic(
                        .error,
                        "A Segment rules file is {\"rules\": [...]} (or the API's {\"data\": {\"rules\": [...]}})",
                        at: document.location(of: rules ?? document.root))
                ])
        }
        // Protocols keeps every version of a rule; the newest is the one in force.
        var newest: [String: (version: Int64, index: Int)] = [:]
        func identity(_ rule: Node) -> String {
            let type = Self.text(Self.member("type", of: rule), in: document)?.uppercased() ?? ""
            return type + " " + (Self.text(Self.member("key", of: rule), in: document) ?? "")
        }
        func version(_ rule: Node) -> Int64 {
            Self.member("version", of: rule)?.scalar.flatMap { Int64($0.string) } ?? 1
        }
        for (index, rule) in sequence.enumerated() {
            let known = newest[identity(rule)]
            if known == nil || known!.version < version(rule) { newest[identity(rule)] = (version(rule), index) }
        }
        for (index, rule) in sequence.enumerated() {
            guard let kept = newest[identity(rule)], kept.index != index else {
                importSegmentRule(rule, in: document)
                continue
            }
            warn(
                "Version \(version(rule)) of this rule is not carried over: the newest, version \(kept.version), is",
                Self.member("version", of: rule) ?? rule, in: document)
        }
        if isDirectory { try readPlanFacts(inDirectory: path) }
    }

    private mutating func importSegmentRule(_ rule: Node, in document: PlanDocument) {
        guard let members = Self.members(rule) else {
            fail("A rule must be an object with 'key', 'type' and 'jsonSchema'", rule, in: document)
            return
        }
        let typeNode = Self.member("type", of: rule)
        let kind: Event.Kind
        let wrapper: String
        switch Self.text(typeNode, in: document)?.uppercased() {
        case "TRACK": (kind, wrapper) = (.track, "properties")
        case "IDENTIFY": (kind, wrapper) = (.identify, "traits")
        case "GROUP": (kind, wrapper) = (.group, "traits")
        case let type? where ["PAGE", "SCREEN", "COMMON"].contains(type):
            warn(
                "A \(type) rule is not carried over: a plan has track, screen, identify, group and alias events, each with its own properties",
                typeNode ?? rule, in: document)
            return
        default:
            fail(
                "A rule needs a 'type': TRACK, IDENTIFY or GROUP (PAGE and COMMON are not imported)", typeNode ?? rule,
                in: document)
            return
        }
        let keyNode = Self.member("key", of: rule)
        let key = Self.text(keyNode, in: document)
        if kind == .track, key == nil || key?.isEmpty == true {
            fail("A TRACK rule needs a 'key', the event name", keyNode ?? rule, in: document)
            return
        }
        guard let schema = Self.member("jsonSchema", of: rule) ?? Self.member("json_schema", of: rule),
            Self.members(schema) != nil
        else {
            fail("The rule needs a 'jsonSchema' object", rule, in: document)
            return
        }
        for (name, nameNode, _) in members
        where !["key", "type", "version", "jsonSchema", "json_schema", "createdAt", "updatedAt", "deprecatedAt"]
            .contains(name)
        {
            warn("The rule's '\(name)' is not carried over", nameNode, in: document)
        }
        let payload = Self.member("properties", of: schema)
        for (name, nameNode, value) in Self.members(payload) ?? [] where name != wrapper {
            guard Self.saysSomething(value, in: document) else { continue }
            let what = name == "context" ? "The rule's context schema" : "The rule's '\(name)' schema"
            warn("\(what) is not carried over: a plan describes an event's \(wrapper) only", nameNode, in: document)
        }
        let source = EventSource(
            document: document, facts: schema, body: Self.member(wrapper, of: payload),
            name: key ?? kind.rawValue, nameNode: keyNode, kind: kind, kindNode: typeNode,
            handledKeys: ["$schema", "type", "properties", "required"])
        events.append(ImportedEvent(node: importEvent(source), document: document))
    }

    /// Whether a schema asserts anything beyond "an object": `{}`, `true` and `{"type": "object"}` do not.
    private static func saysSomething(_ schema: Node, in document: PlanDocument) -> Bool {
        guard let members = members(schema) else {
            return text(schema, in: document) == nil && schema.scalar?.string != "true"
        }
        return members.contains { $0.key != "type" || text($0.value, in: document) != "object" }
    }
}
#endif
