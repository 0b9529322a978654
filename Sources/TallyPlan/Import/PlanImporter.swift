// Reading schema files needs Yams, which the `Plans` trait brings.
#if Plans
import Foundation
import Tally
import Yams

/// Turns the schemas of another tool into a Tally plan, as YAML.
///
/// Every input file is composed with ``PlanDocument``, so every node keeps its line and column. The
/// readers rewrite the input's nodes into plan form, keeping those marks; the rewritten events of each file
/// are then read with ``PlanReader`` against that file's text, so a bad value (`minLength: "ten"`) is
/// reported where the input wrote it. What cannot be carried over is a warning at its source line.
struct PlanImporter {
    /// Why an import stopped, with the exit code of `tally import`.
    struct Failure: Error {
        let exitCode: Int32
        let diagnostics: [PlanDiagnostic]

        init(_ exitCode: Int32, _ diagnostics: [PlanDiagnostic]) {
            self.exitCode = exitCode
            self.diagnostics = diagnostics
        }

        init(_ exitCode: Int32, _ message: String, file: String) {
            self.init(exitCode, [PlanDiagnostic(.error, message, at: SourceLocation(file: file))])
        }
    }

    /// One event in plan form, with the document its marks point into.
    struct ImportedEvent {
        var node: Node
        let document: PlanDocument
        /// Whether its schemas were already read where they were written (RudderStack's events gather nodes
        /// from several files, so reading them against one file's text would misplace findings).
        var prechecked = false
    }

    let format: PlanImportFormat
    /// The file or directory imported, as given.
    let inputPath: String
    private(set) var diagnostics: [PlanDiagnostic] = []
    var events: [ImportedEvent] = []
    /// `destinations:` and `consent:` in plan form, from `tally-plan.json`.
    var planLevel: (pairs: [(Node, Node)], document: PlanDocument)?
    /// Each Iglu schema's `self.vendor`: when they all agree, the plan's `iglu: { vendor: ... }`.
    var igluVendors: [(vendor: String, node: Node, document: PlanDocument)] = []

    init(format: PlanImportFormat, inputPath: String) {
        self.format = format
        self.inputPath = inputPath
    }

    /// How a placeholder names an input file: its path inside the imported directory, or its name.
    func shortName(_ file: String) -> String {
        let prefix = inputPath.hasSuffix("/") ? inputPath : inputPath + "/"
        return file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : (file as NSString).lastPathComponent
    }

    mutating func warn(_ message: String, _ node: Node, in document: PlanDocument) {
        diagnostics.append(PlanDiagnostic(.warning, message, at: document.location(of: node)))
    }

    mutating func fail(_ message: String, _ node: Node, in document: PlanDocument) {
        diagnostics.append(PlanDiagnostic(.error, message, at: document.location(of: node)))
    }

    mutating func append(_ found: [PlanDiagnostic]) {
        diagnostics += found
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    // MARK: Reading files

    /// Composes the file at `url`, named `name` in diagnostics.
    static func document(at url: URL, name: String) throws(Failure) -> PlanDocument {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw Failure(
                ToolExitCode.missingInput, "The file cannot be read: \(error.localizedDescription)", file: name)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Failure(ToolExitCode.invalidInput, "The file is not UTF-8 text", file: name)
        }
        do {
            return try PlanDocument(text: text, file: name)
        } catch {
            var diagnostics = error.diagnostics
            for index in diagnostics.indices where diagnostics[index].message.hasPrefix("The file is empty") {
                diagnostics[index].message = "The file is empty"
            }
            throw Failure(ToolExitCode.invalidInput, diagnostics)
        }
    }

    /// Whether `path` is a directory; throws 66 when nothing is there.
    static func isDirectory(_ path: String) throws(Failure) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Failure(ToolExitCode.missingInput, "No such file or directory", file: path)
        }
        return isDirectory.boolValue
    }

    /// The regular files under `directory` whose names end with one of `suffixes`, by relative path, sorted.
    static func files(under directory: String, endingWith suffixes: [String]) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            guard suffixes.contains(where: { name.hasSuffix($0) }), !name.hasPrefix(".") else { continue }
            var isDirectory: ObjCBool = false
            let full = (directory as NSString).appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                found.append(relative)
            }
        }
        return found.sorted()
    }

    /// `directory/relative` as diagnostics name it: the directory as given, then the relative path.
    static func join(_ directory: String, _ relative: String) -> String {
        directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
    }

    // MARK: tally-plan.json

    /// Reads `tally-plan.json` in `directory` when there is one: the plan's destinations and consent.
    mutating func readPlanFacts(inDirectory directory: String) throws(Failure) {
        let path = Self.join(directory, "tally-plan.json")
        guard FileManager.default.fileExists(atPath: path) else { return }
        let document = try Self.document(at: URL(fileURLWithPath: path), name: path)
        guard let members = Self.members(document.root) else {
            throw Failure(
                ToolExitCode.invalidInput,
                [
                    PlanDiagnostic(
                        .error, "tally-plan.json must be a JSON object", at: document.location(of: document.root))
                ])
        }
        var pairs: [(Node, Node)] = []
        for (key, keyNode, value) in members {
            switch key {
            case "x-tally-destinations":
                pairs.append((Self.key("destinations", keyNode), normalized(value, in: document)))
            case "x-tally-consent":
                pairs.append((Self.key("consent", keyNode), normalized(value, in: document)))
            default:
                warn("'\(key)' in tally-plan.json is not carried over", keyNode, in: document)
            }
        }
        planLevel = (pairs, document)
    }

    // MARK: The plan

    /// Checks every event where its input wrote it, then writes the plan.
    ///
    /// - Returns: the plan as YAML text, or nil when an error was found (it is in ``diagnostics``).
    mutating func finish() -> String? {
        // Each input file's events are read against that file's text, so errors point into it.
        var byDocument: [(document: PlanDocument, prechecked: Bool, events: [Node])] = []
        for event in events {
            if let index = byDocument.firstIndex(where: {
                $0.document.file == event.document.file && $0.prechecked == event.prechecked
            }) {
                byDocument[index].events.append(event.node)
            } else {
                byDocument.append((event.document, event.prechecked, [event.node]))
            }
        }
        var planned: [PlannedEvent] = []
        for (document, prechecked, nodes) in byDocument {
            let root = Node([(Node("version"), Node("1")), (Node("events"), Node(nodes))])
            var reader = PlanReader(document: PlanDocument(root: root, locatingIn: document))
            planned += reader.readPlan()?.events ?? []
            if !prechecked { diagnostics += reader.diagnostics }
        }
        if let planLevel {
            let root = Node([(Node("version"), Node("1")), (Node("events"), Node([Node]()))] + planLevel.pairs)
            var reader = PlanReader(document: PlanDocument(root: root, locatingIn: planLevel.document))
            _ = reader.readPlan()
            diagnostics += reader.diagnostics.filter { !$0.message.contains("which no event") }
        }
        checkDuplicates(planned)
        guard !hasErrors else { return nil }

        var root: [(Node, Node)] = [(Node("version"), Node("1")), (Node("events"), Node(events.map(\.node)))]
        root += planLevel?.pairs ?? []
        if let first = igluVendors.first {
            if let other = igluVendors.first(where: { $0.vendor != first.vendor }) {
                warn(
                    "The schemas have several vendors ('\(first.vendor)', '\(other.vendor)'), so the plan names none: tally export --format iglu will need --vendor",
                    other.node, in: other.document)
            } else {
                let vendor = Node(
                    [(Self.key("vendor", first.node), Self.string(first.vendor, first.node))], .implicit, .flow)
                root.append((Self.key("iglu", nil), vendor))
            }
        }
        let text: String
        do {
            text = try Yams.serialize(node: Node(root), indent: 2, width: -1, allowUnicode: true)
        } catch {
            diagnostics.append(
                PlanDiagnostic(.error, "The plan cannot be written as YAML: \(error)", at: SourceLocation(file: "")))
            return nil
        }
        return text
    }

    /// Reports events planned twice: two inputs for the same kind and name.
    private mutating func checkDuplicates(_ events: [PlannedEvent]) {
        var seen: [String: PlannedEvent] = [:]
        for event in events {
            let key = event.kind.matchesByName ? "\(event.kind.rawValue) \(event.name)" : event.kind.rawValue
            if let first = seen[key] {
                let at = first.location.map { " (\($0))" } ?? ""
                let what = event.kind.matchesByName ? "\(event.kind.rawValue) '\(event.name)'" : "\(event.kind) event"
                diagnostics.append(
                    PlanDiagnostic(
                        .error, "\(what) is already imported\(at); a plan holds one of each",
                        at: event.location ?? SourceLocation(file: "")))
            } else {
                seen[key] = event
            }
        }
    }

    // MARK: Nodes

    /// The members of a mapping with scalar keys; nil when `node` is not a mapping.
    static func members(_ node: Node?) -> [(key: String, keyNode: Node, value: Node)]? {
        guard case .mapping(let mapping)? = node else { return nil }
        return mapping.compactMap { keyNode, value in
            guard case .scalar(let key) = keyNode else { return nil }
            return (key.string, keyNode, value)
        }
    }

    /// The member `key` of a mapping.
    static func member(_ key: String, of node: Node?) -> Node? {
        members(node)?.first { $0.key == key }?.value
    }

    /// The text of a scalar that reads as a string (not a number, Boolean or null).
    static func text(_ node: Node?, in document: PlanDocument) -> String? {
        guard case .scalar(let scalar)? = node, case .string(let text) = PlanReader(document: document).resolve(scalar)
        else { return nil }
        return text
    }

    /// A plan key, located where the input wrote `source`.
    static func key(_ name: String, _ source: Node?) -> Node {
        .scalar(Node.Scalar(name, .implicit, .plain, source?.mark))
    }

    /// A string scalar, quoted when plain text would read as something else; located at `source`.
    static func string(_ text: String, _ source: Node?) -> Node {
        .scalar(Node.Scalar(text, .implicit, readsAsStringWhenPlain(text) ? .plain : .doubleQuoted, source?.mark))
    }

    /// Whether `text`, written plain, reads back as this string both by YAML 1.1 (Yams) and by the plan
    /// reader's JSON-compatible rules: it starts with a letter and is none of the words either reads as
    /// a Boolean or null.
    static func readsAsStringWhenPlain(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter, text.last.map({ !$0.isWhitespace }) == true else {
            return false
        }
        let words: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null"]
        return !words.contains(text.lowercased())
    }

    /// `node` with every scalar rewritten so the plan reads the same value from the written YAML: strings
    /// quoted when needed, numbers, Booleans and null as written; marks kept. Sequences of scalars and
    /// mappings of scalars are written in flow style.
    func normalized(_ node: Node, in document: PlanDocument) -> Node {
        switch node {
        case .scalar(let scalar):
            switch PlanReader(document: document).resolve(scalar) {
            case .string(let text): return Self.string(text, node)
            default: return .scalar(Node.Scalar(scalar.string, .implicit, .plain, scalar.mark))
            }
        case .sequence(let sequence):
            let elements = sequence.map { normalized($0, in: document) }
            let flow = elements.allSatisfy { $0.scalar != nil }
            return .sequence(Node.Sequence(elements, .implicit, flow ? .flow : .block, sequence.mark))
        case .mapping(let mapping):
            let pairs = mapping.map { (normalized($0.key, in: document), normalized($0.value, in: document)) }
            return Self.mapping(pairs, mark: mapping.mark)
        case .alias:
            return node
        }
    }

    /// A mapping in flow style when it holds only scalars, flow sequences and flow mappings of scalars, else
    /// block style.
    static func mapping(_ pairs: [(Node, Node)], mark: Mark?) -> Node {
        let flow =
            !pairs.isEmpty
            && pairs.allSatisfy { _, value in
                switch value {
                case .scalar: return true
                case .sequence(let sequence): return sequence.style == .flow
                case .mapping(let mapping):
                    return mapping.style == .flow && mapping.allSatisfy { $0.value.scalar != nil }
                case .alias: return false
                }
            }
        return .mapping(Node.Mapping(pairs, .implicit, flow ? .flow : .block, mark))
    }
}
#endif
