import Foundation

/// The rules of a tracking plan that an app follows at runtime, as plain Swift values: which purpose each
/// planned event needs, which purposes need the user's answer, what each destination may receive and where
/// it sends, and what happens to each personal property.
///
/// `tally gen` (and the `TallyPlanGenerator` build plugin) writes them into the app's module beside the
/// event factories, as `PlannedEvents.rules`, so the app reads no plan file and links nothing but Tally:
/// changing the plan and regenerating changes what the app does, and `tally gen --check` fails in CI when
/// the committed file is stale. One line configures a client from them:
///
/// ```swift
/// let analytics = AnalyticsClient(
///     destinations: [product, ads],
///     configuration: .init(rules: PlannedEvents.rules, hash: sha256))
/// ```
///
/// With rules, the client (see ``AnalyticsClient/Configuration/rules``):
/// - holds the purposes of ``consentRequired`` until the user answers;
/// - gives each destination of ``purposesByDestination`` only the purposes it may receive;
/// - after the processors, gives a planned event its plan's purpose (``purposes``), reporting a
///   ``Problem/Code/purposeNotPlanned`` problem when the app said another, and applies each personal
///   property's rule (``personalProperties``, as ``PersonalDataProcessor`` does);
/// - sends a property the plan marks as an advertising identifier (``PersonalDataKind/advertisingIdentifier``),
///   on whichever event the plan marks it, only on events of the ``ConsentPurpose/advertising`` purpose, which wait for the user's App Tracking
///   Transparency answer when the plan requires consent for advertising: anywhere else it is removed and a
///   ``Problem/Code/advertisingIdentifierRemoved`` problem says so.
///
/// Events are named as ``PersonalProperty/event`` names them: track and screen events by their name,
/// identify, group and alias events by their kind.
public struct PlanRules: Sendable, Hashable {
    /// The purposes that need the user's answer before an event of theirs may be sent
    /// (`consent: { required: [...] }` in the plan).
    public var consentRequired: Set<ConsentPurpose>
    /// The purpose each planned event needs, by event (track and screen events by name; identify, group and
    /// alias events by kind).
    public var purposes: [String: ConsentPurpose]
    /// Every property the plan marks `personal`, with what it holds and what may happen to it.
    public var personalProperties: [PersonalProperty]
    /// The purposes each destination may receive, by destination name (`destinations:` in the plan); a
    /// destination not named receives every purpose.
    public var purposesByDestination: [String: Set<ConsentPurpose>]
    /// The hosts each destination sends to, by destination name (`domains:` of a destination in the plan):
    /// what the app's privacy manifest lists under `NSPrivacyTrackingDomains` for the destinations that may
    /// receive advertising. The client does not use them; they are here for the app's own code (a network
    /// allow-list, a test that an SDK is pointed at its planned host).
    public var domainsByDestination: [String: Set<String>]

    /// Creates rules; `tally gen` writes this call for a plan.
    public init(
        consentRequired: Set<ConsentPurpose> = [], purposes: [String: ConsentPurpose] = [:],
        personalProperties: [PersonalProperty] = [], purposesByDestination: [String: Set<ConsentPurpose>] = [:],
        domainsByDestination: [String: Set<String>] = [:]
    ) {
        self.consentRequired = consentRequired
        self.purposes = purposes
        self.personalProperties = personalProperties
        self.purposesByDestination = purposesByDestination
        self.domainsByDestination = domainsByDestination
    }

    /// The purpose the plan gives `event`, or nil when the plan does not list it.
    public func purpose(of event: Event) -> ConsentPurpose? {
        purposes[event.isNamed ? event.name : event.kind.rawValue]
    }
}

/// The processor a client with ``AnalyticsClient/Configuration/rules`` runs after its own: it gives planned
/// events their plan's purpose, keeps advertising identifiers to advertising events, and applies the
/// personal-data rules.
struct PlanRulesProcessor: Processor {
    let rules: PlanRules
    let personalData: PersonalDataProcessor
    /// The keys the plan marks as an advertising identifier, on any event: such a key holds one wherever
    /// it appears.
    private let advertisingKeys: Set<String>

    init(rules: PlanRules, hash: (@Sendable (String) -> String)?) {
        self.rules = rules
        self.personalData = PersonalDataProcessor(rules.personalProperties, hash: hash)
        self.advertisingKeys = Set(
            rules.personalProperties.filter { $0.kind == .advertisingIdentifier }.map(\.key))
    }

    var name: String { "plan_rules" }

    func process(_ envelope: inout Envelope, context: ProcessingContext) -> ProcessingDecision {
        if let planned = rules.purpose(of: envelope.event), planned != envelope.event.purpose {
            context.report(
                Problem(
                    .purposeNotPlanned,
                    "Tracked for \(envelope.event.purpose), but the plan says \(planned); sent as \(planned)",
                    outcome: .sanitized, eventName: envelope.reportName))
            envelope.event.purpose = planned
        }
        if !advertisingKeys.isEmpty, envelope.event.purpose != .advertising {
            removeAdvertisingIdentifiers(&envelope, context: context)
        }
        return personalData.process(&envelope, context: context)
    }

    private func removeAdvertisingIdentifiers(_ envelope: inout Envelope, context: ProcessingContext) {
        var found: [String] = []
        for key in advertisingKeys where envelope.event.properties[key] != nil { found.append(key) }
        guard !found.isEmpty else { return }
        found.sort()
        let event = envelope.event
        for key in found { envelope.event.properties[key] = nil }
        context.report(
            Problem(
                .advertisingIdentifierRemoved,
                "An advertising identifier (\(found.joined(separator: ", "))) may travel only on advertising events, which wait for the user's tracking answer; this event's purpose is \(event.purpose), so it was removed",
                outcome: .sanitized, eventName: envelope.reportName))
    }
}
