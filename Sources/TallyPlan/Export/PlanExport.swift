import Foundation
import Tally

/// A tracking plan written in the schema format a production pipeline enforces: the files, and what the
/// format cannot say as the plan does.
///
/// ```swift
/// let plan = try TrackingPlan(contentsOf: URL(fileURLWithPath: "tracking-plan.yaml"))
/// let export = try PlanExport(plan, format: .iglu(vendor: "com.example"))
/// for file in export.files { print(file.path) }  // schemas/com.example/checkout_started/jsonschema/1-0-0
/// ```
///
/// Every format carries each event's properties (traits, for identify and group) as one JSON Schema object,
/// and Tally's own facts as `x-tally-*` keywords (name, kind, purpose, owner, expiry, tags, personal marks),
/// which the pipelines' validators ignore and `tally import` reads back. See <doc:PlansInProduction>.
public struct PlanExport: Sendable {
    /// A format and what it needs.
    public enum Format: Sendable, Hashable {
        /// One JSON Schema 2020-12 file per event, `<kind>.<name>.schema.json`: for warehouse checks and
        /// generic validators.
        case jsonSchema
        /// An Iglu static registry (Snowplow): `schemas/<vendor>/<name>/jsonschema/<version>`, self-describing
        /// draft 4 schemas.
        case iglu(vendor: String)
        /// Segment Protocols rules, `rules.json`: the body of the Public API's request that replaces a
        /// tracking plan's rules (draft-07, each schema wrapping the whole payload).
        case segment
    }

    /// One file of the export, its path relative to the output folder.
    public struct File: Sendable, Hashable {
        /// `schemas/com.example/checkout_started/jsonschema/1-0-0`.
        public var path: String
        /// The file's text: JSON, indented, keys in code point order, ending with a newline.
        public var contents: String
    }

    /// The files, in path order. Plan-level facts (destinations, consent) are in `tally-plan.json` when the
    /// plan has them.
    public var files: [File]
    /// What the format cannot say as the plan does, each a warning at the event or property it concerns: a
    /// format draft 4 does not define, an event kind Segment has no rule for, a name Iglu cannot hold.
    public var diagnostics: [PlanDiagnostic]
    /// For an Iglu export: the version each schema was given, by its path without the version
    /// (`com.example/checkout_started`), and whether it is new, unchanged, an addition or a breaking change.
    public var versions: [String: Release]

    /// The version an Iglu schema was given, and why.
    public struct Release: Sendable, Hashable {
        /// The version written.
        public var version: SchemaVer
        /// What changed against the registry's latest version.
        public var change: Change
    }

    /// What became of one Iglu schema against the registry it was exported into.
    public enum Change: String, Sendable, Hashable {
        /// Not in the registry before: `1-0-0`.
        case new
        /// Equal to the registry's latest version, which is kept.
        case unchanged
        /// Every event valid under the latest version stays valid: ADDITION is bumped.
        case addition
        /// Some event valid under the latest version may not be: MODEL is bumped.
        case breaking
    }

    /// Exports `plan`. For Iglu, `registry` holds the schemas already published, by path without the version
    /// (`com.example/checkout_started`), each version's JSON; a changed schema gets the next SchemaVer.
    public init(
        _ plan: TrackingPlan, format: Format, planFile: String = "plan",
        registry: [String: [SchemaVer: PropertyValue]] = [:]
    ) throws(PlanExportError) {
        files = []
        diagnostics = []
        versions = [:]
        switch format {
        case .jsonSchema: try exportJSONSchema(plan, planFile: planFile)
        case .iglu(let vendor): try exportIglu(plan, vendor: vendor, planFile: planFile, registry: registry)
        case .segment: exportSegment(plan, planFile: planFile)
        }
        if let extras = Self.planFacts(plan) {
            files.append(File(path: "tally-plan.json", contents: PrettyJSON.text(extras)))
        }
        files.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        diagnostics.sort { ($0.location, $0.message) < ($1.location, $1.message) }
    }

    /// What a redacted value arrives as: `[redacted]`, the marker Tally's `RedactionProcessor` and the plan's
    /// rules write by default, and the one ``PlanValidator`` accepts by default.
    static let redactionMarker = "[redacted]"

    /// `tally-plan.json`: the destinations and consent, which no event schema holds.
    static func planFacts(_ plan: TrackingPlan) -> PropertyValue? {
        var facts: [String: PropertyValue] = [:]
        if !plan.destinations.isEmpty {
            var destinations: [String: PropertyValue] = [:]
            for (name, purposes) in plan.destinations {
                var destination: [String: PropertyValue] = [
                    "purposes": .array(purposes.sorted().map { .string($0.rawValue) })
                ]
                if let domains = plan.destinationDomains[name], !domains.isEmpty {
                    destination["domains"] = .array(domains.sorted().map { .string($0) })
                }
                destinations[name] = .object(destination)
            }
            facts["x-tally-destinations"] = .object(destinations)
        }
        if !plan.consentRequired.isEmpty {
            facts["x-tally-consent"] = ["required": .array(plan.consentRequired.sorted().map { .string($0.rawValue) })]
        }
        return facts.isEmpty ? nil : .object(facts)
    }

    private mutating func note(_ message: String, _ event: PlannedEvent, pointer: String = "", planFile: String) {
        let location =
            event.propertyLocations[pointer] ?? event.location ?? SourceLocation(file: planFile, line: 1, column: 1)
        diagnostics.append(PlanDiagnostic(.warning, "\(event.kind.printed(event.name)): \(message)", at: location))
    }

    private mutating func schema(_ event: PlannedEvent, _ dialect: SchemaDialect, planFile: String) -> [String:
        PropertyValue]
    {
        var writer = ExportedSchema(dialect: dialect)
        let schema = writer.eventSchema(event)
        for difference in writer.differences {
            note(difference.message, event, pointer: difference.pointer, planFile: planFile)
        }
        return schema
    }

    private mutating func exportJSONSchema(_ plan: TrackingPlan, planFile: String) throws(PlanExportError) {
        var taken: Set<String> = []
        for event in plan.events {
            var schema = self.schema(event, .draft2020, planFile: planFile)
            schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
            schema["title"] = .string(event.name)
            let path = "\(event.kind.rawValue).\(Self.fileSafe(event.name)).schema.json"
            guard taken.insert(path.lowercased()).inserted else {
                throw PlanExportError(
                    "\(event.kind.printed(event.name)) and another event both become \(path) (names differing only in characters a file name cannot hold, or in case)"
                )
            }
            files.append(File(path: path, contents: PrettyJSON.text(.object(schema))))
        }
    }

    private mutating func exportIglu(
        _ plan: TrackingPlan, vendor: String, planFile: String, registry: [String: [SchemaVer: PropertyValue]]
    ) throws(PlanExportError) {
        guard Self.isIgluVendor(vendor) else {
            throw PlanExportError(
                "'\(vendor)' is not an Iglu vendor: use reversed domain notation of letters, digits, '-', '_' and '.', such as com.example"
            )
        }
        var taken: [String: PlannedEvent] = [:]
        for event in plan.events {
            let name = Self.igluName(event)
            if name != (event.kind == .track ? event.name : "\(event.kind.rawValue)_\(event.name)") {
                note(
                    "its Iglu name is '\(name)': Iglu names hold only letters, digits, '-' and '_' (x-tally-name keeps the plan's name)",
                    event, planFile: planFile)
            }
            if let other = taken[name] {
                throw PlanExportError(
                    "\(event.kind.printed(event.name)) and \(other.kind.printed(other.name)) both become the Iglu schema \(vendor)/\(name)"
                )
            }
            taken[name] = event
            var schema = self.schema(event, .draft4, planFile: planFile)
            schema["$schema"] =
                "http://iglucentral.com/schemas/com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0#"
            let key = "\(vendor)/\(name)"
            let published = registry[key] ?? [:]
            var version = SchemaVer.first
            var change = Change.new
            if let latest = published.keys.max(), let previous = published[latest] {
                let body = PropertyValue.object(schema)
                if Self.withoutSelf(previous) == body {
                    version = latest
                    change = .unchanged
                } else {
                    let breaking = !SchemaCompatibility.accepts(everythingOf: Self.withoutSelf(previous), new: body)
                    version = latest.bumped(breaking: breaking)
                    change = breaking ? .breaking : .addition
                }
            }
            schema["self"] = [
                "vendor": .string(vendor), "name": .string(name), "format": "jsonschema",
                "version": .string(version.description),
            ]
            versions[key] = Release(version: version, change: change)
            files.append(File(path: "schemas/\(key)/jsonschema/\(version)", contents: PrettyJSON.text(.object(schema))))
        }
    }

    private mutating func exportSegment(_ plan: TrackingPlan, planFile: String) {
        var rules: [PropertyValue] = []
        for event in plan.events {
            let type: String
            let payloadKey: String
            switch event.kind {
            case .track: (type, payloadKey) = ("TRACK", "properties")
            case .identify: (type, payloadKey) = ("IDENTIFY", "traits")
            case .group: (type, payloadKey) = ("GROUP", "traits")
            default:
                note(
                    "not exported: Segment Protocols has no rule type for \(event.kind.rawValue) events", event,
                    planFile: planFile)
                continue
            }
            var inner = self.schema(event, .draft7, planFile: planFile)
            var outer: [String: PropertyValue] = [
                "$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
            ]
            // The event's description and Tally facts describe the whole rule: they sit at its top level.
            for key in inner.keys where key.hasPrefix("x-tally-") || key == "description" {
                outer[key] = inner.removeValue(forKey: key)
            }
            outer["properties"] = .object(["context": .object([:]), payloadKey: .object(inner)])
            if !event.required.isEmpty { outer["required"] = [.string(payloadKey)] }
            rules.append([
                // Segment keys a TRACK rule by its event name; IDENTIFY and GROUP rules have no key (null), and
                // the plan's label travels as x-tally-name.
                "key": event.kind == .track ? .string(event.name) : .null, "type": .string(type), "version": 1,
                "jsonSchema": .object(outer),
            ])
        }
        files.append(File(path: "rules.json", contents: PrettyJSON.text(["rules": .array(rules)])))
    }

    /// A schema's JSON without its `self` block, to compare versions by what they say.
    private static func withoutSelf(_ value: PropertyValue) -> PropertyValue {
        guard var members = value.objectValue else { return value }
        members["self"] = nil
        return .object(members)
    }

    /// The schema's name in Iglu: a track event's name, `<kind>_<name>` for the others, with every character
    /// Iglu does not allow (`[a-zA-Z0-9_-]` only) as `_`.
    static func igluName(_ event: PlannedEvent) -> String {
        let name = event.kind == .track ? event.name : "\(event.kind.rawValue)_\(event.name)"
        return String(name.unicodeScalars.map { isIgluCharacter($0) ? Character($0) : "_" })
    }

    static func isIgluVendor(_ vendor: String) -> Bool {
        !vendor.isEmpty && vendor.unicodeScalars.allSatisfy { isIgluCharacter($0) || $0 == "." }
    }

    private static func isIgluCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
    }

    /// A name as a file name: characters outside `[A-Za-z0-9._-]` become `_`.
    static func fileSafe(_ name: String) -> String {
        String(
            name.unicodeScalars.map { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "._-".unicodeScalars.contains(scalar))
                    ? Character(scalar) : "_"
            })
    }
}

/// Why a plan cannot be exported: two events that would share a file, an Iglu vendor Iglu refuses.
public struct PlanExportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in a sentence.
    public var message: String

    init(_ message: String) { self.message = message }

    public var description: String { message }
}
