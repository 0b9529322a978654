import Tally

/// The plan's runtime rules as Swift: `PlannedEvents.rules`, a `PlanRules` value the app gives its client.
extension SwiftCodeGenerator {
    /// The lines that declare `rules` in the namespace, indented as its members.
    func rulesDeclaration(_ plan: TrackingPlan, planFileName: String) -> [String] {
        let rules = plan.rules
        let indent = "    "
        var lines = [
            "\(indent)/// The runtime rules of \(planFileName.replacingNewlines): each event's purpose, the purposes that need",
            "\(indent)/// the user's consent, what each destination may receive and where it sends, and each personal",
            "\(indent)/// property's rule. One line makes a client follow them:",
            "\(indent)///",
            "\(indent)/// ```swift",
            "\(indent)/// let analytics = AnalyticsClient(",
            "\(indent)///     destinations: destinations, configuration: .init(rules: \(namespace).rules, hash: sha256))",
            "\(indent)/// ```",
            "\(indent)public static let rules = PlanRules(",
        ]
        var arguments: [[String]] = []
        if !rules.consentRequired.isEmpty {
            arguments.append(["consentRequired: \(Self.set(rules.consentRequired.map(Self.purpose)))"])
        }
        if !rules.purposes.isEmpty {
            arguments.append(
                ["purposes: ["]
                    + rules.purposes.keys.sorted(by: Self.precedes).map { key in
                        "\(indent)\(SwiftNames.literal(key)): \(Self.purpose(rules.purposes[key]!)),"
                    } + ["]"])
        }
        let personal = rules.personalProperties
        if !personal.isEmpty {
            arguments.append(
                ["personalProperties: ["]
                    + personal.map { property in
                        let event = property.event.map { "event: \(SwiftNames.literal($0)), " } ?? ""
                        return
                            "\(indent)PersonalProperty(\(event)key: \(SwiftNames.literal(property.key)), kind: \(Self.kind(property.kind)), rule: .\(Self.rule(property.rule))),"
                    } + ["]"])
        }
        for (label, sets) in [
            ("purposesByDestination", rules.purposesByDestination.mapValues { $0.map(Self.purpose) }),
            ("domainsByDestination", rules.domainsByDestination.mapValues { $0.map(SwiftNames.literal) }),
        ] where !sets.isEmpty {
            arguments.append(
                ["\(label): ["]
                    + sets.keys.sorted(by: Self.precedes).map { name in
                        "\(indent)\(SwiftNames.literal(name)): \(Self.set(sets[name]!)),"
                    } + ["]"])
        }
        guard !arguments.isEmpty else {
            lines[lines.count - 1] = "\(indent)public static let rules = PlanRules()"
            return lines
        }
        for (index, argument) in arguments.enumerated() {
            let comma = index < arguments.count - 1 ? "," : ""
            for (lineIndex, line) in argument.enumerated() {
                lines.append(indent + indent + line + (lineIndex == argument.count - 1 ? comma : ""))
            }
        }
        lines.append("\(indent))")
        return lines
    }

    /// The lines of the namespace's enum of destination names, indented as its members; none when the plan
    /// names no destination.
    func destinationNamesDeclaration(_ plan: TrackingPlan) -> [String] {
        let names = Set(plan.destinations.keys).union(plan.destinationDomains.keys).sorted(by: Self.precedes)
        guard !names.isEmpty else { return [] }
        let identifiers = SwiftNames.deduplicated(
            names.map { SwiftNames.safe(SwiftNames.lowerCamel($0, fallback: "destination")) })
        var lines = [
            "    /// The names of the plan's destinations (`destinations:`): name each vendor's destination with one,",
            "    /// so that `rules` gives it the purposes the plan allows it.",
            "    public enum \(Self.destinationNamesType) {",
        ]
        for (identifier, name) in zip(identifiers, names) {
            lines.append("        public static let \(identifier) = \(SwiftNames.literal(name))")
        }
        lines.append("    }")
        return lines
    }

    /// A set literal of already written elements, sorted, on one line.
    private static func set(_ elements: [String]) -> String {
        "[\(elements.sorted(by: precedes).joined(separator: ", "))]"
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
