import Tally

/// The plan's runtime rules as Swift: `PlannedEvents.rules`, a `PlanRules` value the app gives its client.
extension SwiftCodeGenerator {
    /// The lines that declare `rules` in the namespace, indented as its members.
    func rulesDeclaration(_ plan: TrackingPlan, planFileName: String) -> [String] {
        let rules = plan.rules
        let indent = Self.level
        let summary =
            "The runtime rules of \(planFileName.replacingNewlines): each event's purpose, the purposes that need "
            + "the user's consent, what each destination may receive and where it sends, and each personal "
            + "property's rule. One line makes a client follow them:"
        var lines = Self.docComment(summary, indent: indent)
        lines += [
            "\(indent)///",
            "\(indent)/// ```swift",
            "\(indent)/// let analytics = AnalyticsClient(",
            "\(indent)///     destinations: destinations,",
            "\(indent)///     configuration: .init(rules: \(namespace).rules, hash: sha256))",
            "\(indent)/// ```",
        ]
        // Each argument's lines at the arguments' indentation, the last without the separating comma.
        var arguments: [(String) -> [String]] = []
        let inner = indent + Self.level
        if !rules.consentRequired.isEmpty {
            let purposes = rules.consentRequired.map(Self.purpose).sorted(by: Self.precedes)
            arguments.append { comma in
                Self.arrayLiteral(purposes, indent: inner, prefix: "consentRequired: ", suffix: comma)
            }
        }
        if !rules.purposes.isEmpty {
            let entries = rules.purposes.keys.sorted(by: Self.precedes).map { key in
                (SwiftNames.literal(key), [Self.purpose(rules.purposes[key]!)])
            }
            arguments.append { comma in
                Self.dictionaryLiteral("purposes", entries, single: true, indent: inner, suffix: comma)
            }
        }
        let personal = rules.personalProperties
        if !personal.isEmpty {
            arguments.append { comma in
                var lines = ["\(inner)personalProperties: ["]
                for property in personal {
                    var labelled = property.event.map { ["event: \(SwiftNames.literal($0))"] } ?? []
                    labelled += [
                        "key: \(SwiftNames.literal(property.key))", "kind: \(Self.kind(property.kind))",
                        "rule: .\(Self.rule(property.rule))",
                    ]
                    let separator = personal.count > 1 ? "," : ""
                    lines += Self.call("PersonalProperty", labelled, indent: inner + Self.level, tail: separator)
                }
                return lines + ["\(inner)]\(comma)"]
            }
        }
        for (label, sets) in [
            ("purposesByDestination", rules.purposesByDestination.mapValues { $0.map(Self.purpose) }),
            ("domainsByDestination", rules.domainsByDestination.mapValues { $0.map(SwiftNames.literal) }),
        ] where !sets.isEmpty {
            let entries = sets.keys.sorted(by: Self.precedes).map { name in
                (SwiftNames.literal(name), sets[name]!.sorted(by: Self.precedes))
            }
            arguments.append { comma in
                Self.dictionaryLiteral(label, entries, single: false, indent: inner, suffix: comma)
            }
        }
        guard !arguments.isEmpty else { return lines + ["\(indent)public static let rules = PlanRules()"] }
        lines.append("\(indent)public static let rules = PlanRules(")
        for (index, argument) in arguments.enumerated() {
            lines += argument(index < arguments.count - 1 ? "," : "")
        }
        lines.append("\(indent))")
        return lines
    }

    /// `label: [key: value, ...]` on several lines, one entry per line; each value is `values[0]` when
    /// `single`, else an array literal of `values`.
    private static func dictionaryLiteral(
        _ label: String, _ entries: [(key: String, values: [String])], single: Bool, indent: String,
        suffix: String
    ) -> [String] {
        var lines = ["\(indent)\(label): ["]
        for entry in entries {
            let separator = entries.count > 1 ? "," : ""
            if single {
                lines += Self.lines(
                    .text(entry.values[0]), indent: indent + level, prefix: "\(entry.key): ", suffix: separator)
            } else {
                lines += arrayLiteral(
                    entry.values, indent: indent + level, prefix: "\(entry.key): ", suffix: separator)
            }
        }
        return lines + ["\(indent)]\(suffix)"]
    }

    /// The lines of the namespace's enum of destination names, indented as its members; none when the plan
    /// names no destination.
    func destinationNamesDeclaration(_ plan: TrackingPlan) -> [String] {
        let names = Set(plan.destinations.keys).union(plan.destinationDomains.keys).sorted(by: Self.precedes)
        guard !names.isEmpty else { return [] }
        let identifiers = SwiftNames.deduplicated(
            names.map { SwiftNames.safe(SwiftNames.lowerCamel($0, fallback: "destination")) })
        var lines = Self.docComment(
            "The names of the plan's destinations (`destinations:`): name each vendor's destination with "
                + "one, so that `rules` gives it the purposes the plan allows it.",
            indent: Self.level)
        lines.append("    public enum \(Self.destinationNamesType) {")
        for (identifier, name) in zip(identifiers, names) {
            lines += Self.lines(
                .text(SwiftNames.literal(name)), indent: "        ", prefix: "public static let \(identifier) = ")
        }
        lines.append("    }")
        return lines
    }

    /// A purpose: Tally's static member for the three it names, else a string literal.
    private static func purpose(_ purpose: ConsentPurpose) -> String {
        switch purpose {
        case .analytics: ".analytics"
        case .advertising: ".advertising"
        case .necessary: ".necessary"
        default: SwiftNames.literal(purpose.rawValue)
        }
    }

    /// A personal-data kind: Tally's static member for the kinds it names, else a string literal.
    private static func kind(_ kind: PersonalDataKind) -> String {
        let members: [PersonalDataKind: String] = [
            .email: "email", .phone: "phone", .name: "name", .preciseLocation: "preciseLocation",
            .coarseLocation: "coarseLocation", .deviceIdentifier: "deviceIdentifier",
            .advertisingIdentifier: "advertisingIdentifier", .userIdentifier: "userIdentifier", .freeText: "freeText",
        ]
        return members[kind].map { ".\($0)" } ?? SwiftNames.literal(kind.rawValue)
    }

    private static func rule(_ rule: PersonalDataRule) -> String {
        switch rule {
        case .send: "send"
        case .hash: "hash"
        case .redact: "redact"
        case .neverSend: "neverSend"
        }
    }
}
