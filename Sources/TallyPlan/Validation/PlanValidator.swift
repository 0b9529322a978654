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
/// - At event level, properties the plan does not declare are violations unless the event says
///   `additionalProperties: true`. Nested objects follow JSON Schema: extra members are fine unless
///   `additionalProperties` is `false` or a schema.
/// - When a value has the wrong type, its other rules are not checked.
/// - A `pii: true` property may be absent, `null` or the ``redactionMarker``; any other value is a
///   ``PlanViolation/Kind/piiPresent`` violation. A redacted value is not checked further.
public struct PlanValidator: Sendable {
    /// The plan this validator checks against.
    public let plan: TrackingPlan
    /// The string a redacted value is replaced with; `[redacted]`, as Tally's `RedactionProcessor` writes
    /// by default.
    public let redactionMarker: String

    private let tracks: [String: CompiledEvent]
    private let screens: [String: CompiledEvent]
    private let identify: CompiledEvent?
    private let group: CompiledEvent?
    private let alias: CompiledEvent?

    /// Compiles `plan`.
    ///
    /// - Parameters:
    ///   - plan: the plan; if it lists an event twice, the first wins.
    ///   - redactionMarker: the value that counts as redacted for `pii: true` properties.
    public init(plan: TrackingPlan, redactionMarker: String = "[redacted]") {
        self.plan = plan
        self.redactionMarker = redactionMarker
        var tracks: [String: CompiledEvent] = [:]
        var screens: [String: CompiledEvent] = [:]
        var byKind: [Event.Kind: CompiledEvent] = [:]
        for event in plan.events {
            let compiled = CompiledEvent(event)
            switch event.kind {
            case .track: if tracks[event.name] == nil { tracks[event.name] = compiled }
            case .screen: if screens[event.name] == nil { screens[event.name] = compiled }
            case .identify, .group, .alias: if byKind[event.kind] == nil { byKind[event.kind] = compiled }
            }
        }
        self.tracks = tracks
        self.screens = screens
        self.identify = byKind[.identify]
        self.group = byKind[.group]
        self.alias = byKind[.alias]
    }

    /// The violations of one event, sorted by path; empty when it is valid.
    public func validate(_ event: Event) -> [PlanViolation] {
        validate(event, index: nil)
    }

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

    private func validate(_ event: Event, index: Int?) -> [PlanViolation] {
        let compiled: CompiledEvent?
        switch event.kind {
        case .track: compiled = tracks[event.name]
        case .screen: compiled = screens[event.name]
        case .identify: compiled = identify
        case .group: compiled = group
        case .alias: compiled = alias
        }
        guard let compiled else {
            return [
                PlanViolation(
                    .unknownEvent, eventName: event.name, eventKind: event.kind, path: "", rule: unknownEventRule(event),
                    actual: nil, eventIndex: index)
            ]
        }
        var run = ValidationRun(redactionMarker: redactionMarker)
        run.checkMembers(event.properties, of: compiled.schema, personal: false) { "/properties" }
        return run.finish(for: event, index: index)
    }

    /// Says where else the name is planned, if anywhere: the usual cause of an unknown event.
    private func unknownEventRule(_ event: Event) -> String {
        let others = plan.events.filter { $0.name == event.name && $0.kind != event.kind }.map(\.kind.rawValue)
        guard !others.isEmpty else { return "plan" }
        return "the plan has it as a \(others.joined(separator: " and a ")) event"
    }
}

/// A planned event, compiled.
final class CompiledEvent: Sendable {
    let event: PlannedEvent
    let schema: CompiledSchema

    init(_ event: PlannedEvent) {
        self.event = event
        self.schema = CompiledSchema(event.objectSchema)
    }
}

extension TrackingPlan {
    /// The violations of every event, compiling the plan first. Keep a ``PlanValidator`` to validate
    /// many times.
    ///
    /// ```swift
    /// let violations = plan.violations(in: spy.events)
    /// ```
    public func violations(in events: some Sequence<Event>) -> [PlanViolation] {
        PlanValidator(plan: self).validate(events)
    }

    /// The violations of one event, compiling the plan first. Keep a ``PlanValidator`` to validate
    /// many times.
    public func validate(_ event: Event) -> [PlanViolation] {
        PlanValidator(plan: self).validate(event)
    }
}
