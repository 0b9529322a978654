// Reading plan text needs Yams, which the `Plans` trait brings (PlanLoader explains the error without it).
#if Plans
import Tally
import Yams

/// Walks a composed plan document and builds a ``TrackingPlan``, collecting every error and warning with
/// its location instead of stopping at the first.
struct PlanReader {
    let document: PlanDocument
    private(set) var diagnostics: [PlanDiagnostic] = []
    /// Keywords read but not checked, in reading order.
    private(set) var uncheckedKeywords: [UncheckedKeyword] = []
    /// Where each schema of the event being read is declared, by JSON pointer
    /// (``PlannedEvent/propertyLocations``).
    var schemaLocations: [String: SourceLocation] = [:]

    init(document: PlanDocument) {
        self.document = document
    }

    mutating func error(_ message: String, _ node: Node) {
        diagnostics.append(PlanDiagnostic(.error, message, at: document.location(of: node)))
    }

    mutating func warning(_ message: String, _ node: Node) {
        diagnostics.append(PlanDiagnostic(.warning, message, at: document.location(of: node)))
    }

    /// Warns about a key nobody reads, suggesting the closest known one.
    mutating func unknownKey(_ key: String, _ node: Node, known: [String], what: String) {
        var message = "Unknown \(what) '\(key)' is ignored"
        if let suggestion = Self.closest(to: key, in: known) { message += "; did you mean '\(suggestion)'?" }
        warning(message, node)
    }

    /// Records a keyword that validation will not check, with a warning saying so: lint shows it, and
    /// `tally validate` refuses the plan unless told to accept unchecked keywords.
    mutating func unchecked(_ keyword: String, reason: UncheckedKeyword.Reason, _ node: Node, hint: String? = nil) {
        let entry = UncheckedKeyword(keyword, reason: reason, at: document.location(of: node))
        uncheckedKeywords.append(entry)
        warning(entry.explanation + (hint.map { "; \($0)" } ?? ""), node)
    }

    // MARK: The plan

    static let planKeys = ["version", "events", "destinations", "consent", "iglu", "$schema", "title", "description"]
    static let eventKeys = [
        "name", "kind", "description", "owner", "purpose", "expires", "tags", "properties", "required",
        "additionalProperties", "deprecated", "$comment", "title",
    ]
    /// The event keys validation reads.
    static let eventValidationKeys = ["properties", "required", "additionalProperties"]

    /// Reads the whole plan; nil when the document is not a mapping at all.
    mutating func readPlan() -> TrackingPlan? {
        let root = document.root
        guard let members = mapping(root, "The plan") else { return nil }
        var version: Int?
        var events: [PlannedEvent] = []
        var sawEvents = false
        var destinations: [String: Set<ConsentPurpose>] = [:]
        var destinationDomains: [String: Set<String>] = [:]
        var consentRequired: [(purpose: ConsentPurpose, node: Node)] = []
        var igluVendor: String?
        for (key, keyNode, value) in members {
            switch key {
            case "version":
                guard let number = count(value, "'version'") else { break }
                if number != TrackingPlan.currentVersion {
                    error(
                        "Plan version \(number) is not supported; this tally reads version \(TrackingPlan.currentVersion)",
                        value)
                }
                version = number
            case "events":
                sawEvents = true
                guard case .sequence(let sequence) = value else {
                    error(
                        "'events' must be a list of events, each starting with '- name:', not \(describe(value))", value
                    )
                    break
                }
                events = sequence.compactMap { readEvent($0) }
            case "destinations":
                (destinations, destinationDomains) = readDestinations(value)
            case "consent":
                consentRequired = readConsent(value)
            case "iglu":
                igluVendor = readIglu(value)
            case "$schema", "title":
                _ = string(value, "'\(key)'")
            case "description":
                _ = string(value, "'description'")
            default:
                unknownKey(key, keyNode, known: Self.planKeys, what: "plan key")
            }
        }
        if version == nil, !members.contains(where: { $0.key == "version" }) {
            error("The plan needs 'version: \(TrackingPlan.currentVersion)'", root)
        }
        if !sawEvents { error("The plan needs an 'events' list", root) }
        checkDuplicates(events)
        var plan = TrackingPlan(
            version: version ?? TrackingPlan.currentVersion, events: events,
            uncheckedKeywords: uncheckedKeywords.sorted { $0.location < $1.location }, destinations: destinations,
            consentRequired: Set(consentRequired.map(\.purpose)), destinationDomains: destinationDomains)
        plan.igluVendor = igluVendor
        for (purpose, node) in consentRequired where plan.consentRequiredLocations[purpose] == nil {
            plan.consentRequiredLocations[purpose] = document.location(of: node)
        }
        return plan
    }

    /// `iglu: { vendor: com.example }`: the vendor `tally export --format iglu` names its schemas with.
    private mutating func readIglu(_ node: Node) -> String? {
        guard let members = mapping(node, "'iglu'") else { return nil }
        var vendor: String?
        for (key, keyNode, value) in members {
            switch key {
            case "vendor":
                guard let text = string(value, "'iglu.vendor'") else { break }
                guard PlanExport.isIgluVendor(text) else {
                    error(
                        "'iglu.vendor' must be in reversed domain notation of letters, digits, '-', '_' and '.', such as com.example, not '\(text)'",
                        value)
                    break
                }
                vendor = text
            default:
                unknownKey(key, keyNode, known: ["vendor"], what: "key of 'iglu'")
            }
        }
        return vendor
    }

    // MARK: Events

    private mutating func readEvent(_ node: Node) -> PlannedEvent? {
        guard let members = mapping(node, "An event") else { return nil }
        var event = PlannedEvent(name: "", location: document.location(of: node))
        var sawName = false
        var sawDescription = false
        var propertiesNode: Node?
        var requiredList: [(PropertyName, Node)] = []
        for (key, keyNode, value) in members {
            switch key {
            case "name":
                sawName = true
                guard let name = string(value, "'name'") else { break }
                if name.allSatisfy(\.isWhitespace) { error("An event name must not be empty", value) }
                event.name = name
            case "kind":
                guard let text = string(value, "'kind'") else { break }
                if let kind = Event.Kind(rawValue: text) {
                    event.kind = kind
                } else {
                    let kinds = Event.Kind.allCases.map(\.rawValue)
                    let suggestion = Self.closest(to: text, in: kinds).map { "; did you mean '\($0)'?" } ?? ""
                    error(
                        "Unknown kind '\(text)'; expected one of \(kinds.joined(separator: ", "))\(suggestion)", value)
                }
            case "description":
                sawDescription = true
                event.description = string(value, "'description'") ?? ""
            case "owner":
                event.owner = string(value, "'owner'")
            case "purpose":
                if let purpose = string(value, "'purpose'") {
                    if purpose.isEmpty { error("'purpose' must name a purpose, such as analytics", value) }
                    event.purpose = ConsentPurpose(purpose)
                }
            case "expires":
                event.expires = day(value, "'expires'")
            case "tags":
                event.tags = strings(value, "'tags'")?.map(\.0) ?? []
            case "properties":
                propertiesNode = value
            case "required":
                requiredList = (strings(value, "'required'") ?? []).map { (PropertyName($0.0), $0.1) }
            case "additionalProperties":
                event.additionalProperties = bool(value, "An event's 'additionalProperties'") ?? false
            case "deprecated", "$comment", "title":
                break
            case _ where Self.isExtension(key):
                break
            case _ where Self.unsupportedKeywords.contains(key) || Self.schemaKeywords.contains(key):
                unchecked(
                    key, reason: .unsupported, keyNode,
                    hint: "an event takes 'properties', 'required' and 'additionalProperties'")
            default:
                if reportCommaInPlainValue(key, keyNode, value, in: node) { continue }
                // A misspelt `owner` or `tags` changes nothing validation does; a misspelt `required` does.
                let suggestion = Self.closest(to: key, in: Self.eventKeys)
                if let suggestion, !Self.eventValidationKeys.contains(suggestion) {
                    unknownKey(key, keyNode, known: Self.eventKeys, what: "event key")
                } else {
                    unchecked(key, reason: .unknown(suggestion: suggestion), keyNode)
                }
            }
        }
        if !sawName {
            error("An event needs a 'name'", node)
            return nil
        }
        if !sawDescription { error("Event '\(event.name)' needs a 'description'", node) }
        if let propertiesNode {
            schemaLocations = [:]
            let (properties, requiredByFlag) = readProperties(propertiesNode, path: "/properties")
            event.properties = properties
            event.propertyLocations = schemaLocations
            requiredList += requiredByFlag
            if event.kind == .alias, !properties.isEmpty {
                error("Alias events carry no properties; remove 'properties' from '\(event.name)'", propertiesNode)
            }
        }
        event.required = checkRequired(requiredList, declared: event.properties)
        return event
    }

    /// Checks a `required` list against the declared properties and returns the sorted, unique names.
    mutating func checkRequired(
        _ required: [(PropertyName, Node)], declared: [PropertyName: PropertySchema]
    ) -> [PropertyName] {
        var names: Set<PropertyName> = []
        for (name, node) in required {
            if declared[name] == nil {
                error("Required property '\(name)' is not declared under 'properties'", node)
            }
            names.insert(name)
        }
        return names.sorted()
    }

    /// Reports events planned twice: the same kind and name for track and screen events, the same kind for
    /// identify, group and alias events (their names are ids, so the plan describes each kind once).
    private mutating func checkDuplicates(_ events: [PlannedEvent]) {
        var seen: [PropertyName: PlannedEvent] = [:]  // keyed by code points, as JSON compares names
        for event in events where !event.name.isEmpty {
            let key = PropertyName(
                event.kind.matchesByName ? "\(event.kind.rawValue) \(event.name)" : event.kind.rawValue)
            if let first = seen[key] {
                let at = first.location.map { " at \($0.line):\($0.column)" } ?? ""
                let message =
                    event.kind.matchesByName
                    ? "Duplicate event: \(event.kind.rawValue) '\(event.name)' is already planned\(at)"
                    : "A plan describes at most one \(event.kind.rawValue) event; '\(first.name)' is already planned\(at)"
                diagnostics.append(
                    PlanDiagnostic(.error, message, at: event.location ?? SourceLocation(file: document.file)))
            } else {
                seen[key] = event
            }
        }
    }

    // MARK: Suggestions

    /// The known word closest to `word` by edit distance, if it is close enough to be a likely typo.
    static func closest(to word: String, in known: [String]) -> String? {
        Suggestions.closest(to: word, in: known)
    }
}
#endif
