import Tally

/// The plan violations `tally coverage` found in recorded events (unplanned events and properties among
/// them), grouped by event and rule, each with how often it occurred and where it was first recorded.
///
/// Memory grows with the number of distinct violations (at most ``maximumListed`` are kept) and distinct
/// events, never with the number of events.
struct RecordedViolations {
    /// One violation of one event, by path and rule.
    struct Entry {
        var example: PlanViolation
        var count: Int
        /// The `origin` of the first record that broke it (`path:line`), when the recording carries one.
        var origin: String?

        /// What kind of failure it is: `unplanned event`, `unplanned property`, `sent without consent`,
        /// `wrong purpose`, `advertising identifier outside advertising` or `plan violation`.
        var label: String {
            switch example.kind {
            case .unknownEvent: return "unplanned event"
            case .unexpectedProperty: return "unplanned property"
            case .sentWithoutConsent: return "sent without consent"
            case .purposeMismatch: return "wrong purpose"
            case .advertisingIdentifierOutsideAdvertising: return "advertising identifier outside advertising"
            default: return "plan violation"
            }
        }
    }

    /// The most distinct violations listed; the others are counted in ``unlisted``.
    static let maximumListed = 10_000

    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private var origins: [String: String] = [:]
    /// How many violations, over all events.
    private(set) var count = 0
    /// Violations past ``maximumListed`` distinct ones.
    private(set) var unlisted = 0

    init() {}

    /// Notes one recorded event's violations and where it was recorded.
    mutating func add(_ event: CheckedEvents.Checked) {
        if let origin = event.origin, origins.count < Self.maximumListed {
            let key = Self.key(event.event.kind, event.event.name)  // by kind alone for identify, group, alias
            if origins[key] == nil { origins[key] = origin }
        }
        for violation in event.violations {
            count += 1
            // Identify, group and alias events of every id share an entry; the example names the first.
            let name = violation.eventKind.matchesByName ? violation.eventName : ""
            let signature =
                "\(violation.eventKind.rawValue) \(name) \(violation.groupingKey)"
            if entries[signature] != nil {
                entries[signature]!.count += 1
                if entries[signature]!.origin == nil { entries[signature]!.origin = event.origin }
            } else if entries.count < Self.maximumListed {
                entries[signature] = Entry(example: violation, count: 1, origin: event.origin)
                order.append(signature)
            } else {
                unlisted += 1
            }
        }
    }

    /// The violations found, in the order first seen.
    var listed: [Entry] { order.map { entries[$0]! } }

    /// The first `origin` recorded for an event of this kind and name, if any.
    func origin(of kind: Event.Kind, _ name: String) -> String? { origins[Self.key(kind, name)] }

    /// Identify, group and alias events by kind alone: a plan describes each of those kinds once, whatever
    /// the id or label.
    private static func key(_ kind: Event.Kind, _ name: String) -> String {
        kind.matchesByName ? "\(kind.rawValue) \(name)" : kind.rawValue
    }
}

/// The events of recording files as a sequence that reads them as it is iterated, for APIs that take a
/// sequence of events (``PlanCoverage``), validating each against the plan on every core and noting what
/// broke it in ``violations``. One pass only.
final class CheckedEvents: Sequence, IteratorProtocol {
    /// One decoded event, its origin and its violations (none when not validated).
    struct Checked: Sendable {
        var event: Event
        var origin: String?
        var violations: [PlanViolation]
    }

    let source: RecordingSource<Checked>
    private(set) var violations = RecordedViolations()
    private var batch: [Checked] = []
    private var position = 0

    /// Reads `files`; validates each event against `validator` when one is given.
    init(files: [String], validator: PlanValidator?) {
        source = RecordingSource(files: files) { line in
            let (event, origin, consent, stage) = try Record.planFields(fromLine: line)
            return Checked(
                event: event, origin: origin,
                violations: validator?.validate(event, recordedAt: stage, consent: consent) ?? [])
        }
    }

    func next() -> Event? {
        while position == batch.count {
            guard let next = source.nextBatch() else { return nil }
            batch = next
            position = 0
        }
        position += 1
        violations.add(batch[position - 1])
        return batch[position - 1].event
    }
}
