import Tally

/// Checks events against a tracking plan, fast enough to run on every event an app sends.
///
/// Create one per plan and keep it: creating it compiles the plan into lookups and regular expressions.
/// Validating a valid event allocates nothing; each violation found is described by a
/// ``PlanViolation`` with its path, rule and value.
///
/// ```swift
/// let validator = PlanValidator(plan: plan)
/// let violations = validator.validate(Event("menu_item_ordered", ["item_name": "Pizza"]))
/// #expect(violations.isEmpty)
///
/// // Many events at once, for recordings and test expectations:
/// let all = validator.validate(spy.events)
/// ```
///
/// ## Semantics
/// The keyword subset follows JSON Schema 2020-12 (see <doc:TrackingPlans>). Tally's own rules:
/// - Track and screen events match the planned event of the same kind and name; identify, group and alias
///   events, whose names are ids, match the plan's event of their kind.
/// - An event's purpose (`Event.purpose`) must be its planned event's (``PlannedEvent/purpose``), or it is a
///   ``PlanViolation/Kind/purposeMismatch`` violation; and a value of a property the planned event marks
///   `personal: { kind: advertising_id }`, at any depth, on an event whose purpose is not `advertising` is an
///   ``PlanViolation/Kind/advertisingIdentifierOutsideAdvertising`` violation, and so is a top-level property
///   of a key the plan marks as the advertising identifier on any event (the client's rules remove it from
///   such an event, at either stage handing it over is the mistake). Both come before the violations of the
///   properties.
/// - Strings compare by Unicode code points everywhere (event and property names, `enum`, `const`,
///   `required`), never by `String`'s canonical equivalence; numbers compare exactly at any size.
/// - Keywords the plan has but Tally does not check (``TrackingPlan/uncheckedKeywords``) are skipped; load
///   plans with ``TrackingPlan/init(contentsOf:allowingUncheckedKeywords:)``, which refuses them by default.
/// - At event level, properties the plan does not declare are violations unless the event says
///   `additionalProperties: true`. Nested objects follow JSON Schema: extra members are fine unless
///   `additionalProperties` is `false` or a schema.
/// - When a value has the wrong type, its other rules are not checked.
/// - A `personal` property follows its rule (``PersonalMark``): with `redact` or no rule it may be absent,
///   `null` or the ``redactionMarker``; any other value is a ``PlanViolation/Kind/personalDataPresent``
///   violation. A redacted value is not checked further, nor is a hashed one (rule `hash`), which only must
///   no longer look like the data: a hash keeps nothing of the value's type, length or format.
/// - With `scansUnmarkedValues`, a string that looks like an e-mail address or an international phone
///   number (`PersonalDataScan`) in a property the plan does not mark `personal` (on it or on a property
///   containing it), at any depth, is a
///   ``PlanViolation/Kind/personalDataUnmarked`` violation, in planned and unknown events alike. `tally
///   validate`, `tally coverage`, the collector and a ``TrackingPlan``'s own checks (`expectValid(against:
///   plan)`, ``TrackingPlan/violations(in:)``) scan; an app's validation processor and a validator built
///   without the flag do not.
/// - An event recorded as the app tracked it (`Record.Stage.tracked`: a spy's, before any client's rules)
///   is judged as a client following the plan would deliver it: ``validate(_:recordedAt:consent:)`` first
///   applies the plan's personal-data rules (``TrackingPlan/personalProperties``), so a spy test that
///   passes an e-mail address the plan says to hash is not a violation, while the same address in a
///   delivered record is.
public struct PlanValidator: Sendable {
    /// The plan this validator checks against.
    public let plan: TrackingPlan
    /// The string a redacted value is replaced with; `[redacted]`, as Tally's `RedactionProcessor` writes
    /// by default.
    public let redactionMarker: String
    /// Whether values in properties the plan does not mark `personal` are scanned for personal data.
    public let scansUnmarkedValues: Bool

    /// The plan's personal-data rules, applied to tracked events before they are judged.
    private let personalData: PersonalDataProcessor
    /// The top-level keys the plan marks as the advertising identifier on any event: such a key holds one
    /// wherever it appears, as the client's rules (`PlanRules`) take it.
    private let advertisingKeys: Set<String>
    private let tracks: EventTable
    private let screens: EventTable
    private let identify: CompiledEvent?
    private let group: CompiledEvent?
    private let alias: CompiledEvent?

    /// Compiles `plan`.
    ///
    /// - Parameters:
    ///   - plan: the plan; if it lists an event twice, the first wins.
    ///   - redactionMarker: the value that counts as redacted for `personal` properties.
    ///   - scansUnmarkedValues: whether a value that looks like personal data in a property the plan does
    ///     not mark `personal` is a violation (``PlanViolation/Kind/personalDataUnmarked``). It reads every
    ///     string, so it costs time on every event.
    public init(plan: TrackingPlan, redactionMarker: String = "[redacted]", scansUnmarkedValues: Bool = false) {
        self.plan = plan
        self.redactionMarker = redactionMarker
        self.scansUnmarkedValues = scansUnmarkedValues
        self.advertisingKeys = Set(
            plan.personalProperties.filter { $0.kind == .advertisingIdentifier }.map(\.key))
        self.personalData = PersonalDataProcessor(
            plan.personalProperties, hash: { _ in Self.hashStandIn }, replacement: redactionMarker)
        var tracks: [CompiledEvent] = []
        var screens: [CompiledEvent] = []
        var byKind: [Event.Kind: CompiledEvent] = [:]
        for event in plan.events {
            let compiled = CompiledEvent(event)
            switch event.kind {
            case .track: tracks.append(compiled)
            case .screen: screens.append(compiled)
            case .identify, .group, .alias: if byKind[event.kind] == nil { byKind[event.kind] = compiled }
            }
        }
        self.tracks = EventTable(tracks)
        self.screens = EventTable(screens)
        self.identify = byKind[.identify]
        self.group = byKind[.group]
        self.alias = byKind[.alias]
    }

    /// A validator that judges as every gate of the plan does: `tally validate`, `tally coverage`, the
    /// collector, and a ``TrackingPlan``'s own checks (`expectValid(against: plan)`). Values that look like personal data in
    /// properties the plan does not mark `personal` are violations (``scansUnmarkedValues``), and the
    /// redaction marker is the default one.
    package init(forGates plan: TrackingPlan) {
        self.init(plan: plan, scansUnmarkedValues: true)
    }

    /// The violations of one event, sorted by path; empty when it is valid.
    public func validate(_ event: Event) -> [PlanViolation] {
        validate(event, index: nil)
    }

    /// The violations of an event as a client delivered it, with what the client knew of the user's consent
    /// for its purpose then (`Envelope.consent`): the violations of the event alone, and first a
    /// ``PlanViolation/Kind/sentWithoutConsent`` when the plan says the event's purpose needs consent
    /// (``TrackingPlan/consentRequired``) and it went out without the user's grant:
    /// `DeliveredConsent.denied`, `DeliveredConsent.notAsked`, or `DeliveredConsent.notRequired` (the
    /// client did not gate a purpose the plan gates). A nil consent (a client that uses no consent, or a
    /// record written before recordings kept it) is not a violation: there is nothing to go by.
    ///
    /// ```swift
    /// let violations = validator.validate(record.event, consent: record.envelope.consent)
    /// // [sentWithoutConsent: "sent while the user's consent was not_asked (consent required for advertising)..."]
    /// ```
    public func validate(_ event: Event, consent: DeliveredConsent?) -> [PlanViolation] {
        let found = validate(event, index: nil)
        guard let consent, consent != .granted, plan.consentRequired.contains(event.purpose) else { return found }
        return [
            PlanViolation(
                .sentWithoutConsent, eventName: event.reportName, eventKind: event.kind, path: "",
                rule: "consent required for \(event.purpose)", actual: .string(consent.rawValue))
        ] + found
    }

    /// The violations of a delivered event: ``validate(_:consent:)`` with its event and its
    /// `Envelope.consent`.
    public func validate(_ envelope: Envelope) -> [PlanViolation] {
        validate(envelope.event, consent: envelope.consent)
    }

    /// The violations of an event recorded at `stage`: a delivered event as ``validate(_:consent:)`` judges
    /// it; a tracked one (a spy's, `Record.Stage.tracked`) as a client following the plan would deliver it,
    /// after the plan's personal-data rules: a value to hash counts as hashed, one to redact as redacted, one
    /// never to send as absent.
    ///
    /// ```swift
    /// // A spy recorded signed_up with the address in the clear; the plan says hash it: no violation.
    /// let violations = validator.validate(record.event, recordedAt: record.stage, consent: record.envelope.consent)
    /// ```
    public func validate(
        _ event: Event, recordedAt stage: Record.Stage, consent: DeliveredConsent? = nil
    ) -> [PlanViolation] {
        guard stage == .tracked else { return validate(event, consent: consent) }
        var delivered = event
        _ = personalData.apply(to: &delivered)
        return validate(delivered, consent: consent)
    }

    /// What a value to hash stands as in a tracked event once the plan's rules are applied: no hash function
    /// is at hand, and any hash passes its rule.
    static let hashStandIn = "[hashed]"

    /// The violations of every event, in order; each carries its event's ``PlanViolation/eventIndex``.
    ///
    /// This is what a test expectation over recorded events calls.
    public func validate(_ events: some Sequence<Event>) -> [PlanViolation] {
        var violations: [PlanViolation] = []
        for (index, event) in events.enumerated() {
            violations += validate(event, index: index)
        }
        return violations
    }

    /// Whether `event` is valid against the plan.
    public func isValid(_ event: Event) -> Bool {
        validate(event, index: nil).isEmpty
    }

    /// The planned event `event` is judged against: the track or screen event of its name (by code points),
    /// or the plan's event of its kind for identify, group and alias events; nil when the plan has none.
    ///
    /// ```swift
    /// // A vendor's format names no purpose: give the event the one its plan entry says.
    /// if let planned = validator.plannedEvent(for: event) { event.purpose = planned.purpose }
    /// ```
    public func plannedEvent(for event: Event) -> PlannedEvent? {
        compiledEvent(for: event)?.event
    }

    private func compiledEvent(for event: Event) -> CompiledEvent? {
        switch event.kind {
        case .track: tracks.event(named: event.name)
        case .screen: screens.event(named: event.name)
        case .identify: identify
        case .group: group
        case .alias: alias
        }
    }

    private func validate(_ event: Event, index: Int?) -> [PlanViolation] {
        let compiled = compiledEvent(for: event)
        var run = ValidationRun(redactionMarker: redactionMarker)
        guard let compiled else {
            if scansUnmarkedValues { run.scanUnmarked(event.properties.dictionary, skipping: [], marks: nil) }
            return [
                PlanViolation(
                    .unknownEvent, eventName: event.reportName, eventKind: event.kind, path: "",
                    rule: unknownEventRule(event),
                    actual: nil, eventIndex: index)
            ] + run.finish(for: event, index: index)
        }
        let properties = event.properties.dictionary
        run.checkMembers(properties, of: compiled.schema, personal: false, scanning: scansUnmarkedValues) {
            "/properties"
        }
        // The members were asked, in the same pass, whether any unmarked one holds a string with an @ or a +;
        // only then can the scan find something.
        if scansUnmarkedValues && run.mayHoldPersonalData {
            run.scanUnmarked(
                properties, skipping: compiled.personalKeys,
                marks: compiled.hasNestedMarks ? compiled.event.objectSchema : nil)
        }
        let found = run.finish(for: event, index: index)
        guard
            event.purpose != compiled.purpose
                || (event.purpose != .advertising && (compiled.hasAdvertisingIdentifier || !advertisingKeys.isEmpty))
        else { return found }
        return purposeViolations(of: event, against: compiled, index: index) + found
    }

    /// The violations of an event's purpose: one other than the plan's (``PlanViolation/Kind/purposeMismatch``),
    /// and an advertising identifier on an event not of purpose advertising
    /// (``PlanViolation/Kind/advertisingIdentifierOutsideAdvertising``).
    private func purposeViolations(of event: Event, against compiled: CompiledEvent, index: Int?) -> [PlanViolation] {
        var found: [PlanViolation] = []
        let recorded = PropertyValue.string(event.purpose.rawValue)
        if event.purpose != compiled.purpose {
            found.append(
                PlanViolation(
                    .purposeMismatch, eventName: event.reportName, eventKind: event.kind, path: "/purpose",
                    rule: "purpose: \(compiled.purpose)", actual: recorded, eventIndex: index))
        }
        guard event.purpose != .advertising else { return found }
        var marked =
            compiled.hasAdvertisingIdentifier
            ? advertisingIdentifiers(in: event.properties.dictionary, of: compiled.event) : []
        // A key the plan marks as the advertising identifier on another event holds one here too: the
        // client's rules remove it from this event, and report it; handing it over is the mistake.
        for key in advertisingKeys.sorted() {
            let path = "/properties/" + JSONPointer.escape(key)
            guard !marked.contains(where: { $0.path == path }), let value = event.properties[key], !value.isNull,
                value.stringValue.map({ !$0.hasSameCodePoints(as: redactionMarker) }) ?? true
            else { continue }
            marked.append((path, PersonalMark(kind: .advertisingIdentifier, rule: .send)))
        }
        for (path, mark) in marked.sorted(by: { $0.path < $1.path }) {
            found.append(
                PlanViolation(
                    .advertisingIdentifierOutsideAdvertising, eventName: event.reportName, eventKind: event.kind,
                    path: path, rule: mark.description, actual: recorded, eventIndex: index))
        }
        return found
    }

    /// Where `properties` carry a value (not `null`, not redacted) of a property the plan marks
    /// `personal: { kind: advertising_id }`, at any depth, in path order, with the mark.
    private func advertisingIdentifiers(
        in properties: [String: PropertyValue], of event: PlannedEvent
    ) -> [(path: String, mark: PersonalMark)] {
        var found: [(path: String, mark: PersonalMark)] = []
        func visit(_ value: PropertyValue, _ schema: PropertySchema, _ path: String) {
            if let mark = schema.personal, mark.kind == .advertisingIdentifier {
                switch value {
                case .null: return
                case .string(let text) where text.hasSameCodePoints(as: redactionMarker): return
                default: return found.append((path, mark))
                }
            }
            switch value {
            case .object(let members):
                for key in members.keys.sorted() {
                    guard let member = schema.memberSchema(key) else { continue }
                    visit(members[key]!, member, path + "/" + JSONPointer.escape(key))
                }
            case .array(let elements):
                guard let items = schema.items else { return }
                for (offset, element) in elements.enumerated() { visit(element, items, "\(path)/\(offset)") }
            default:
                return
            }
        }
        visit(.object(properties), event.objectSchema, "/properties")
        return found
    }

    /// Says where else the name is planned, if anywhere: the usual cause of an unknown event.
    private func unknownEventRule(_ event: Event) -> String {
        let others = plan.events.filter { $0.name.hasSameCodePoints(as: event.name) && $0.kind != event.kind }
            .map(\.kind.rawValue)
        guard !others.isEmpty else { return "plan" }
        return "the plan has it as a \(others.joined(separator: " and a ")) event"
    }
}

/// Planned events found by name, by Unicode code points: an event named "café" with a decomposed "é" is not
/// the planned "café".
///
/// `String` keys hash fast but equate canonically equivalent names, so a hit is confirmed byte for byte; only
/// a plan naming two canonically equivalent events needs the second, exact table.
struct EventTable: Sendable {
    private let byName: [String: CompiledEvent]
    private let exact: [PropertyName: CompiledEvent]?

    /// The first event of each name wins.
    init(_ events: [CompiledEvent]) {
        var byName: [String: CompiledEvent] = [:]
        var exact: [PropertyName: CompiledEvent] = [:]
        var collides = false
        for event in events {
            if let first = byName[event.event.name] {
                if !first.event.name.hasSameCodePoints(as: event.event.name) { collides = true }
            } else {
                byName[event.event.name] = event
            }
            if exact[PropertyName(event.event.name)] == nil { exact[PropertyName(event.event.name)] = event }
        }
        self.byName = byName
        self.exact = collides ? exact : nil
    }

    @inline(__always)
    func event(named name: String) -> CompiledEvent? {
        guard let found = byName[name] else { return nil }
        let fingerprint = NameFingerprint(name)
        if fingerprint == found.nameFingerprint,
            fingerprint.length <= 16 || found.event.name.hasSameCodePoints(as: name)
        {
            return found
        }
        return exact?[PropertyName(name)]
    }
}

/// A planned event, compiled.
final class CompiledEvent: Sendable {
    let event: PlannedEvent
    let schema: CompiledSchema
    let nameFingerprint: NameFingerprint
    /// The properties marked `personal`: their values follow their rule, and the value scan skips them.
    let personalKeys: Set<String>
    /// Whether a schema inside a property is marked `personal`: the value scan then skips what it covers.
    let hasNestedMarks: Bool
    /// The purpose the plan gives the event.
    let purpose: ConsentPurpose
    /// Whether a schema of the event, at any depth, is marked as the advertising identifier.
    let hasAdvertisingIdentifier: Bool

    init(_ event: PlannedEvent) {
        self.event = event
        self.nameFingerprint = NameFingerprint(event.name)
        self.schema = CompiledSchema(event.objectSchema)
        self.personalKeys = Set(event.properties.filter { $0.value.personal != nil }.map(\.key.string))
        let schemas = event.plannedSchemas
        self.hasNestedMarks = schemas.contains { !$0.isTopLevel && $0.schema.personal != nil }
        self.purpose = event.purpose
        self.hasAdvertisingIdentifier = schemas.contains { $0.schema.personal?.kind == .advertisingIdentifier }
    }
}

extension TrackingPlan {
    /// The violations of every event, compiling the plan first, judged as `tally validate` judges them:
    /// values that look like personal data in properties the plan does not mark `personal` are violations
    /// (``PlanViolation/Kind/personalDataUnmarked``). Keep a ``PlanValidator`` to validate many times.
    ///
    /// ```swift
    /// let violations = plan.violations(in: destination.events)
    /// ```
    public func violations(in events: some Sequence<Event>) -> [PlanViolation] {
        PlanValidator(forGates: self).validate(events)
    }

    /// The violations of one event, compiling the plan first, judged as `tally validate` judges it (values of
    /// unmarked properties scanned). Keep a ``PlanValidator`` to validate many times.
    public func validate(_ event: Event) -> [PlanViolation] {
        PlanValidator(forGates: self).validate(event)
    }
}
