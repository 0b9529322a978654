import Tally

/// Violations of recorded events, grouped by event, built one batch of events at a time.
///
/// Memory grows with the number of distinct events (at most ``maximumGroups`` are listed), never with the
/// number of events.
struct ValidationReport {
    struct Group {
        var name: String
        var kind: Event.Kind
        var events = 0
        var failingEvents = 0
        /// For identify, group and alias events, which a group holds whatever their ids: the report name
        /// of the first failing event (`identify user-42`), and whether failing events carry other ids.
        var firstFailing: String?
        var otherIds = false

        /// `track "menu_item_ordered"`, `identify user-42`, `identify user-42 and other ids`.
        var title: String {
            guard !kind.matchesByName, let firstFailing else { return kind.printed(name) }
            return otherIds ? "\(firstFailing) and other ids" : firstFailing
        }
        /// The JSON report's `name`: the event's ``Event/reportName``, `menu_item_ordered` or, for identify,
        /// group and alias events, that of the first failing one, `identify user-42`.
        var reportName: String {
            guard !kind.matchesByName, let firstFailing else { return name.isEmpty ? kind.rawValue : name }
            return firstFailing
        }
        /// By violation kind, path and rule: a count, the first description, and where the first event that
        /// broke it was recorded (`path:line`), when its recording says.
        var violations: [String: (count: Int, example: PlanViolation, origin: String?)] = [:]
    }

    /// One validated event: only what the report keeps of it.
    struct Checked: Sendable {
        var kind: Event.Kind
        var name: String
        var violations: [PlanViolation]
        /// Where it was tracked (`path:line`), when its recording says.
        var origin: String?

        /// Its ``Event/reportName``, which violations carry.
        var reportName: String? { violations.first?.eventName }
    }

    /// The most distinct events listed; the events of any further names are counted in ``unlisted``.
    static let maximumGroups = 10_000

    /// A group's kind and name, as a key that costs no allocation to make.
    private struct GroupKey: Hashable {
        var kind: Event.Kind
        var name: String
    }

    private var groups: [Group] = []
    private var index: [GroupKey: Int] = [:]
    private(set) var checked = 0
    private(set) var violationCount = 0
    /// Events (and, of them, failing events and violations) of names past ``maximumGroups``.
    private(set) var unlisted = (events: 0, failingEvents: 0, violations: 0)
    /// Lines of the recordings that could not be read, so their events were not validated.
    var unreadableLines = 0

    init() {}

    /// Validates `event` against `validator`, keeping only what the report needs.
    static func check(
        _ event: Event, origin: String? = nil, consent: DeliveredConsent? = nil, stage: Record.Stage = .delivered,
        with validator: PlanValidator
    ) -> Checked {
        Checked(
            kind: event.kind, name: event.name,
            violations: validator.validate(event, recordedAt: stage, consent: consent), origin: origin)
    }

    mutating func add(_ events: [Checked]) {
        for event in events { add(event) }
    }

    mutating func add(_ event: Checked) {
        checked += 1
        violationCount += event.violations.count
        let key = GroupKey(kind: event.kind, name: event.name)
        let position: Int
        if let existing = index[key] {
            position = existing
        } else if groups.count < Self.maximumGroups {
            groups.append(Group(name: event.name, kind: event.kind))
            position = groups.count - 1
            index[key] = position
        } else {
            unlisted.events += 1
            if !event.violations.isEmpty { unlisted.failingEvents += 1 }
            unlisted.violations += event.violations.count
            return
        }
        groups[position].events += 1
        guard !event.violations.isEmpty else { return }
        groups[position].failingEvents += 1
        if !event.kind.matchesByName, let reportName = event.reportName {
            if let first = groups[position].firstFailing {
                if first != reportName { groups[position].otherIds = true }
            } else {
                groups[position].firstFailing = reportName
            }
        }
        for violation in event.violations {
            let signature = violation.groupingKey
            let existing = groups[position].violations[signature]
            groups[position].violations[signature] = (
                (existing?.count ?? 0) + 1, existing?.example ?? violation, existing?.origin ?? event.origin
            )
        }
    }

    /// The groups with violations, sorted by name and kind.
    var failingGroups: [Group] {
        groups.filter { !$0.violations.isEmpty }.sorted { ($0.name, $0.kind.rawValue) < ($1.name, $1.kind.rawValue) }
    }

    var failingEvents: Int { groups.reduce(unlisted.failingEvents) { $0 + $1.failingEvents } }

    func text(files: Int, style: TerminalStyle) -> String {
        var lines: [String] = []
        for group in failingGroups {
            lines.append(
                style.bold(group.title)
                    + ": \(group.failingEvents) of \(Self.count(group.events, "event")) \(group.failingEvents == 1 ? "breaks" : "break") the plan"
            )
            for (_, entry) in group.violations.sorted(by: { $0.key < $1.key }) {
                lines.append(
                    "  \(style.red("×\(entry.count)")) \(PlanTool.located(entry.origin, style: style))\(entry.example.description)"
                )
            }
        }
        if unlisted.failingEvents > 0 {
            lines.append(
                "\(Self.count(unlisted.violations, "more violation")) in \(Self.count(unlisted.failingEvents, "event")) of names past the first \(Self.maximumGroups), not listed"
            )
        }
        var verdict =
            violationCount > 0
            ? style.red(Self.count(violationCount, "violation")) + " in \(Self.count(failingEvents, "event"))"
            : unreadableLines > 0 ? "no violations in the lines read" : style.green("every event is valid")
        if unreadableLines > 0 {
            verdict += "; " + style.red("\(Self.count(unreadableLines, "unreadable line")) not validated")
        }
        lines.append("Checked \(Self.count(checked, "event")) from \(Self.count(files, "recording")): \(verdict)")
        return lines.joined(separator: "\n") + "\n"
    }

    func json(files: Int) -> String {
        let groupsJSON: [PropertyValue] = failingGroups.map { group in
            var fields: [String: PropertyValue] = [
                "name": .string(group.reportName), "kind": .string(group.kind.rawValue), "events": .int(group.events),
                "failing_events": .int(group.failingEvents),
                "violations": .array(
                    group.violations.sorted(by: { $0.key < $1.key }).map { _, entry in
                        var violation: [String: PropertyValue] = [
                            "kind": .string(entry.example.kind.rawValue), "path": .string(entry.example.path),
                            "rule": .string(entry.example.rule), "count": .int(entry.count),
                            "message": .string(entry.example.message),
                        ]
                        if let origin = entry.origin { violation["origin"] = .string(origin) }
                        return .object(violation)
                    }),
            ]
            // As the text's `identify user-42 and other ids`: the failing events do not all carry that id.
            if group.otherIds { fields["other_ids"] = true }
            return .object(fields)
        }
        let report: PropertyValue = [
            "recordings": .int(files), "events_checked": .int(checked), "violations": .int(violationCount),
            "unreadable_lines": .int(unreadableLines), "events": .array(groupsJSON),
        ]
        return report.jsonString + "\n"
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
