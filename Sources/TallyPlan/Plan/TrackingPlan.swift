import Foundation
import Tally

/// A tracking plan: the events an app may send and, for each, the properties it may carry.
///
/// Load one from a YAML or JSON file, then validate events against it, generate Swift factories from it,
/// or lint it:
///
/// ```swift
/// let plan = try TrackingPlan(contentsOf: URL(fileURLWithPath: "tracking-plan.yaml"))
/// let validator = PlanValidator(plan: plan)
/// let violations = validator.validate(.menuItemOrdered(itemName: "Pizza"))
/// ```
///
/// The file format is described in <doc:TrackingPlans>.
public struct TrackingPlan: Sendable, Hashable {
    /// The plan file format version. Tally reads version 1.
    public var version: Int
    /// The planned events, in file order.
    public var events: [PlannedEvent]
    /// The keywords of the plan file that Tally does not check, in file order: JSON Schema keywords outside
    /// its subset (`$ref`, `anyOf`...), unknown keywords (a misspelt `minLenght`) and unknown `format`s.
    /// Validation would pass events that break them, so ``init(contentsOf:allowingUncheckedKeywords:)``
    /// refuses such a plan unless told otherwise. Empty for plans made in code.
    public var uncheckedKeywords: [UncheckedKeyword]
    /// The consent purposes each destination may receive, by destination name (`destinations:` in the
    /// file); empty when the plan does not say. `tally lint` fails on an event whose purpose no destination
    /// may receive; give them to the client as its `purposesByDestination`.
    public var destinations: [String: Set<ConsentPurpose>]
    /// The hosts each destination sends to, by destination name (`domains:` of a destination in the file,
    /// lowercased); a destination that names none is absent. The privacy manifest follows them
    /// (``PrivacyManifest/trackingDomains``): a destination that may receive advertising is tracking, so its
    /// hosts belong in `NSPrivacyTrackingDomains`, and no other's may be there, since iOS blocks every listed
    /// host until the user allows tracking.
    public var destinationDomains: [String: Set<String>]
    /// The consent purposes that need the user's answer before an event of theirs may be sent
    /// (`consent: { required: [analytics, advertising] }` in the file); empty when the plan does not say.
    /// Give them to the client as its `consentRequired`; `tally validate` and `tally coverage` report a
    /// recorded event of one of them delivered while the user had denied it or not answered
    /// (``PlanViolation/Kind/sentWithoutConsent``). Never holds `ConsentPurpose.necessary`. A purpose no
    /// event of the plan needs is an error where it is listed (most likely a misspelling): the plan does not
    /// load. Without a `consent:` block no purpose needs consent, so `tally lint` fails on an event that a
    /// destination receiving advertising may receive (see ``privacyDiagnostics(today:)``).
    public var consentRequired: Set<ConsentPurpose>
    /// The Iglu vendor `tally export --format iglu` names the plan's schemas with (`iglu: { vendor: com.example }`
    /// in the file), in reversed domain notation; nil when the plan does not say, and then `--vendor` must.
    public var igluVendor: String?
    /// Where each purpose of ``consentRequired`` is listed, when the plan was read from a file: where
    /// ``privacyDiagnostics(today:)`` reports one no event needs.
    package var consentRequiredLocations: [ConsentPurpose: SourceLocation] = [:]

    /// The format version this Tally reads and writes.
    public static let currentVersion = 1

    /// Creates a plan in code.
    public init(
        version: Int = TrackingPlan.currentVersion, events: [PlannedEvent], uncheckedKeywords: [UncheckedKeyword] = [],
        destinations: [String: Set<ConsentPurpose>] = [:], consentRequired: Set<ConsentPurpose> = [],
        destinationDomains: [String: Set<String>] = [:]
    ) {
        self.version = version
        self.events = events
        self.uncheckedKeywords = uncheckedKeywords
        self.destinations = destinations
        self.consentRequired = consentRequired
        self.destinationDomains = destinationDomains
    }

    /// The planned event an event of this kind and name is checked against, if any.
    ///
    /// Track and screen events match by kind and name. Identify, group and alias events carry an id as their
    /// name, so they match the plan's one event of their kind, whatever its name. Names match by Unicode code
    /// points, as JSON compares strings.
    public func event(named name: String, kind: Event.Kind = .track) -> PlannedEvent? {
        events.first { $0.kind == kind && (!kind.matchesByName || $0.name.hasSameCodePoints(as: name)) }
    }
}

/// One event of a ``TrackingPlan``.
///
/// ```yaml
/// - name: menu_item_ordered
///   description: The user ordered an item from the menu.
///   owner: ordering
///   tags: [checkout]
///   properties:
///     item_name: { type: string, minLength: 1 }
///     quantity: { type: integer, minimum: 1 }
///   required: [item_name]
/// ```
public struct PlannedEvent: Sendable, Hashable {
    /// The event name (for track events), the screen name (screen events), or a label for the schema of
    /// identify, group and alias events, whose names are ids.
    public var name: String
    /// The kind of call. Default `track`.
    public var kind: Event.Kind
    /// What the event means, used in generated doc comments.
    public var description: String
    /// The team or person who owns the event.
    public var owner: String?
    /// The consent purpose the event needs (`purpose:` in the file). Default `analytics`;
    /// generated factories set it on the events they make.
    public var purpose: ConsentPurpose
    /// The last day the event may be sent, as `YYYY-MM-DD` (`expires:` in the file); nil for no end.
    /// `tally lint` fails once the day has passed.
    public var expires: String?
    /// Free-form labels.
    public var tags: [String]
    /// The schema of each property, by name. Names are compared by code points: see ``PropertyName``.
    public var properties: [PropertyName: PropertySchema]
    /// The properties every event must carry, in code point order.
    public var required: [PropertyName]
    /// Whether properties not in ``properties`` are allowed. Default false: they are
    /// ``PlanViolation/Kind/unexpectedProperty`` violations.
    public var additionalProperties: Bool
    /// Where the event is declared, when it was loaded from a file.
    public var location: SourceLocation?
    /// Where each property's schema is declared, when the event was loaded from a file: by its JSON pointer
    /// in ``objectSchema``, at any depth, each at its key.
    ///
    /// `/properties/email` for a property, `/properties/contact/properties/email` for a member of an object,
    /// `/properties/emails/items` for the elements of an array, `/properties/contact/additionalProperties`
    /// for an object's other members. Lint findings about a property (a `personal` mark an e-mail format
    /// lacks, say) point here; empty for events made in code, whose findings point at ``location``.
    public var propertyLocations: [String: SourceLocation]

    /// Creates a planned event.
    public init(
        name: String, kind: Event.Kind = .track, description: String = "", owner: String? = nil,
        tags: [String] = [], properties: [PropertyName: PropertySchema] = [:], required: [PropertyName] = [],
        additionalProperties: Bool = false, location: SourceLocation? = nil, purpose: ConsentPurpose = .analytics,
        expires: String? = nil, propertyLocations: [String: SourceLocation] = [:]
    ) {
        self.name = name
        self.kind = kind
        self.description = description
        self.owner = owner
        self.purpose = purpose
        self.expires = expires
        self.tags = tags
        self.properties = properties
        self.required = required.sorted()
        self.additionalProperties = additionalProperties
        self.location = location
        self.propertyLocations = propertyLocations
    }

    /// The event's properties as one object schema, the form nested objects use.
    public var objectSchema: PropertySchema {
        PropertySchema(
            types: [.object], properties: properties, required: required,
            additionalProperties: additionalProperties ? .allowed : .forbidden)
    }
}

extension Event.Kind {
    /// Whether a plan matches events of this kind by name. Identify, group and alias events carry ids, not
    /// names, so the plan describes them by kind alone.
    package var matchesByName: Bool { self == .track || self == .screen }

    /// How printouts name an event of this kind called `name`: `track "menu_item_ordered"`, or for a plan's
    /// identify, group or alias event its label, `identify "user"`; the kind alone when `name` is empty, as
    /// for identify, group and alias events recorded without a plan to name them.
    package func printed(_ name: String) -> String {
        name.isEmpty && !matchesByName ? rawValue : "\(rawValue) \"\(name)\""
    }
}
