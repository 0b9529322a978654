import Tally

/// A description of the events an expectation looks for.
///
/// ```swift
/// spy.expectTracked(.named("menu_item_ordered"))
/// spy.expectTracked(.named("menu_item_ordered", containing: ["item_name": "Pizza"]))
/// spy.expectCount(2, of: .kind(.screen))
/// spy.expectTracked(.where("a large order") { ($0.properties["quantity"]?.intValue ?? 0) > 10 })
/// ```
///
/// An `Event` is also a matcher (``event(_:)``): it matches only an equal event.
public struct EventMatcher: Sendable, CustomStringConvertible {
    /// How the matcher reads in failure messages, such as `track "menu_item_ordered" containing {"item_name":"Pizza"}`.
    public let description: String
    /// What a matching event looks like, used to show a diff against the closest recorded event. For a
    /// partial match it holds only the expected properties.
    public let template: Event?
    /// Whether only the template's properties are compared (a partial match).
    public let isPartial: Bool
    private let predicate: @Sendable (Event) -> Bool
    /// For matchers about how an event was delivered (``sentWithoutConsent``): whether an event matches,
    /// given its envelope's `Envelope.consent`. Nil for matchers about what the app said.
    private let deliveredPredicate: (@Sendable (Event, DeliveredConsent?) -> Bool)?
    /// Why the matcher matches no event whatever was recorded, for one built so by mistake
    /// (``sentWithoutConsent(for:)`` given no purpose); nil for every other matcher. Expectations given such a
    /// matcher report this at the caller's line instead of passing without checking anything.
    package private(set) var vacuity: String?

    /// Creates a matcher from a predicate.
    ///
    /// - Parameters:
    ///   - description: how the matcher reads in failure messages.
    ///   - template: an example of a matching event, for diffs.
    ///   - isPartial: whether the template's properties are a subset to compare.
    ///   - predicate: whether an event matches.
    public init(
        _ description: String, template: Event? = nil, isPartial: Bool = false,
        predicate: @escaping @Sendable (Event) -> Bool
    ) {
        self.description = description
        self.template = template
        self.isPartial = isPartial
        self.predicate = predicate
        self.deliveredPredicate = nil
    }

    /// A matcher about how an event was delivered; an event alone, without its envelope, matches it when
    /// `delivered` says so with no consent.
    private init(
        _ description: String, template: Event? = nil, isPartial: Bool = false,
        delivered: @escaping @Sendable (Event, DeliveredConsent?) -> Bool
    ) {
        self.description = description
        self.template = template
        self.isPartial = isPartial
        self.predicate = { delivered($0, nil) }
        self.deliveredPredicate = delivered
    }

    /// Whether `event` matches. A matcher about delivery (``sentWithoutConsent``) reads the event as
    /// delivered with no `Envelope.consent`: use ``matches(_:)-(Envelope)`` when you have the envelope.
    public func matches(_ event: Event) -> Bool { predicate(event) }

    /// Whether the delivered `envelope` matches: its event, and for a matcher about delivery
    /// (``sentWithoutConsent``) its `Envelope.consent`.
    public func matches(_ envelope: Envelope) -> Bool { matches(envelope.event, consent: envelope.consent) }

    /// Whether an event delivered with `consent` matches.
    package func matches(_ event: Event, consent: DeliveredConsent?) -> Bool {
        deliveredPredicate?(event, consent) ?? predicate(event)
    }

    /// Whether the matcher looks at an envelope's `Envelope.consent`: recorders then hand it over.
    package var readsConsent: Bool { deliveredPredicate != nil }

    /// Matches only an event equal to `event`: same kind, name, ids, purpose and properties.
    public static func event(_ event: Event) -> EventMatcher {
        let summary = PropertySummary(event.properties)
        return EventMatcher(event.description, template: event) { recorded in
            // The summary first: over a large recording it rejects most events without a dictionary lookup.
            recorded.kind == event.kind && recorded.name == event.name && recorded.userId == event.userId
                && recorded.groupId == event.groupId && recorded.purpose == event.purpose
                && recorded.properties.count == event.properties.count
                && summary.mayEqual(recorded.properties) && recorded.properties == event.properties
        }
    }

    /// Matches events with this name, of any kind unless `kind` is given.
    public static func named(_ name: String, kind: Event.Kind? = nil) -> EventMatcher {
        let label = kind.map { "\($0.rawValue) \"\(name)\"" } ?? "\"\(name)\""
        return EventMatcher(label, template: Event(kind: kind ?? .track, name: name), isPartial: true) {
            $0.name == name && (kind == nil || $0.kind == kind)
        }
    }

    /// Matches events with this name whose properties include `properties` (other properties may be
    /// present too).
    public static func named(
        _ name: String, kind: Event.Kind? = nil, containing properties: [String: PropertyValue]
    ) -> EventMatcher {
        let label = kind.map { "\($0.rawValue) \"\(name)\"" } ?? "\"\(name)\""
        return EventMatcher(
            "\(label) containing \(properties.jsonString)",
            template: Event(kind: kind ?? .track, name: name, properties: properties), isPartial: true
        ) { event in
            event.name == name && (kind == nil || event.kind == kind) && Self.contains(event.properties, properties)
        }
    }

    /// Matches events of this kind.
    public static func kind(_ kind: Event.Kind) -> EventMatcher {
        EventMatcher("any \(kind.rawValue) event") { $0.kind == kind }
    }

    /// Matches events collected for `purpose` (`Event.purpose`). With
    /// ``EventRecorder/expectNotTracked(_:fileID:filePath:line:column:)-(EventMatcher,_,_,_,_)`` on a
    /// destination's recorder, it proves that nothing of the purpose reached the destination:
    ///
    /// ```swift
    /// analytics.track(Event("ad_clicked").needing(.advertising))
    /// await analytics.flush()
    /// memory.expectNotTracked(.purpose(.advertising))   // the user has not answered yet
    /// ```
    public static func purpose(_ purpose: ConsentPurpose) -> EventMatcher {
        EventMatcher("any event for \(purpose)") { $0.purpose == purpose }
    }

    /// Matches events holding a value that looks like personal data (an e-mail address, an international
    /// phone number) in any property, at any depth, whatever its key: what catches a personal value in a
    /// property nobody marked. See `PersonalDataScan`.
    ///
    /// ```swift
    /// memory.expectNotTracked(.holdingPersonalData())
    /// ```
    ///
    /// - Parameter skipping: top-level keys not to read, such as those the plan lets through as they are.
    public static func holdingPersonalData(skipping: Set<String> = []) -> EventMatcher {
        EventMatcher("any event holding personal data") { event in
            !PersonalDataScan.findings(in: event.properties.dictionary, skipping: skipping).isEmpty
        }
    }

    /// Matches events delivered without consent for their purpose: whose envelope's `Envelope.consent`
    /// says the user had denied the purpose (`DeliveredConsent.denied`) or not answered
    /// (`DeliveredConsent.notAsked`). On a destination's recorder, in exhaustive mode or not, it proves that
    /// nothing went out before or against the user's answer:
    ///
    /// ```swift
    /// memory.expectNotTracked(.sentWithoutConsent)
    /// ```
    ///
    /// A client never delivers such an event itself, so this catches what bypasses its consent gate (a
    /// wrapper calling a destination directly) and recordings written elsewhere. An event of a purpose the
    /// client does not gate (`DeliveredConsent.notRequired`) or delivered with no consent at all does not
    /// match, as this matcher does not know which purposes need consent: to catch a purpose the client
    /// forgot to gate, use ``sentWithoutConsent(for:)``. Spies (`AnalyticsSpy`) see what the app said, not what was
    /// delivered, so nothing they record matches.
    public static var sentWithoutConsent: EventMatcher {
        EventMatcher("any event sent without consent for its purpose") { _, consent in
            consent == .denied || consent == .notAsked
        }
    }

    /// Matches events of `purposes` delivered without the user's grant: with consent `denied`, `notAsked`,
    /// `notRequired` (the client did not gate the purpose, as when it is missing from `consentRequired`), or
    /// none at all (a client that uses no consent). So it matches every event of those purposes that a spy
    /// recorded or a vendor's SDK sent to `tally collect`: neither carries consent (a Tally client's records
    /// read back from the collector do). Give it the purposes your tracking plan says need consent
    /// (`plan.consentRequired` in TallyPlan):
    ///
    /// ```swift
    /// memory.expectNotTracked(.sentWithoutConsent(for: [.analytics, .advertising]))
    /// ```
    ///
    /// An empty `purposes` matches nothing, so `expectNotTracked` would pass whatever was sent: every
    /// expectation and wait given such a matcher (or one combined with it by ``and(_:)``) fails at once
    /// instead, at the caller's line, saying that it names no purpose.
    public static func sentWithoutConsent(for purposes: Set<ConsentPurpose>) -> EventMatcher {
        let names = purposes.sorted().map(\.rawValue).joined(separator: ", ")
        var matcher = EventMatcher("any event for \(names) sent without the user's grant") { event, consent in
            consent != .granted && purposes.contains(event.purpose)
        }
        if purposes.isEmpty {
            matcher.vacuity =
                "sentWithoutConsent(for:) names no purpose: it matches nothing, so this expectation cannot tell whether anything went out without consent; give it the purposes that need consent (is the plan's consentRequired empty?)"
        }
        return matcher
    }

    /// Matches events whose properties include `properties`, whatever their name.
    public static func containing(_ properties: [String: PropertyValue]) -> EventMatcher {
        EventMatcher(
            "any event containing \(properties.jsonString)",
            template: Event(kind: .track, name: "", properties: properties),
            isPartial: true
        ) { contains($0.properties, properties) }
    }

    /// Matches events for which `predicate` returns true.
    public static func `where`(
        _ description: String = "an event matching a predicate", _ predicate: @escaping @Sendable (Event) -> Bool
    ) -> EventMatcher {
        EventMatcher(description, predicate: predicate)
    }

    /// Matches every event.
    public static var any: EventMatcher { EventMatcher("any event") { _ in true } }

    /// Matches events both matchers match.
    public func and(_ other: EventMatcher) -> EventMatcher {
        let first = self
        var combined: EventMatcher
        if readsConsent || other.readsConsent {
            combined = EventMatcher(
                "\(description) and \(other.description)", template: template ?? other.template,
                isPartial: isPartial || other.isPartial
            ) { event, consent in first.matches(event, consent: consent) && other.matches(event, consent: consent) }
        } else {
            combined = EventMatcher(
                "\(description) and \(other.description)", template: template ?? other.template,
                isPartial: isPartial || other.isPartial
            ) { first.matches($0) && other.matches($0) }
        }
        combined.vacuity = vacuity ?? other.vacuity
        return combined
    }

    private static func contains(_ properties: Event.Properties, _ subset: [String: PropertyValue]) -> Bool {
        subset.allSatisfy { properties[$0.key] == $0.value }
    }
}
