/// Sends events to Mixpanel through a ``MixpanelAdapter``, within ``MixpanelLimits``.
///
/// The destination owns the transformation from Tally's events to Mixpanel's calls; the adapter only
/// mirrors the SDK. Each event kind becomes Mixpanel's nearest call:
///
/// | event | Mixpanel calls |
/// |---|---|
/// | ``Event/Kind/track`` | `track(event: name, properties: properties)` |
/// | ``Event/Kind/screen`` | `track(event: "Loaded a Screen", properties: properties + ["name": name])`, the convention of Segment's Mixpanel integration |
/// | ``Event/Kind/identify`` | `identify(distinctId: userId, usePeople: true, completion: nil)`, then `peopleSet(properties: traits)` when there are traits |
/// | ``Event/Kind/group`` | `setGroup(groupKey: groupKey, groupID: groupId)`, then `groupSet(groupKey:groupID:properties: traits)` when there are traits |
/// | ``Event/Kind/alias`` | `createAlias(newId, distinctId: adapter.distinctId, usePeople: true, andIdentify: true, completion: nil)`: Mixpanel's own current distinct id, not Tally's |
/// | ``AnalyticsClient/reset()`` | `reset(completion: nil)`, through ``reset()`` |
///
/// Properties are nil when there are none. A `name` property of a screen event is replaced by the
/// screen's name, with a problem when they differed.
///
/// ```swift
/// let analytics = AnalyticsClient(destinations: [MixpanelDestination(adapter: Mixpanel.mainInstance())])
/// analytics.track("menu_item_ordered", ["item_name": "Pizza"])
/// // mixpanel.track(event: "menu_item_ordered", properties: ["item_name": "Pizza"])
/// ```
public struct MixpanelDestination: Destination {
    /// The event name a screen event is tracked under.
    public static let screenEventName = "Loaded a Screen"

    /// The destination's name. Default `mixpanel`.
    public let name: String
    /// The Mixpanel group key group events are sent under: the event property that names the group type,
    /// as set up in the Mixpanel project. Default `group_id`.
    public let groupKey: String
    /// The limits the destination enforces.
    public let limits: MixpanelLimits
    private let box: VendorClient<any MixpanelAdapter>

    /// Creates a destination calling `adapter`, normally a `MixpanelInstance`.
    ///
    /// - Parameters:
    ///   - adapter: receives Mixpanel's calls.
    ///   - name: the destination's name. Default `mixpanel`.
    ///   - groupKey: the group key for group events. Default `group_id`.
    ///   - limits: the limits to enforce. Default: Mixpanel's documented ones.
    public init(
        adapter: any MixpanelAdapter, name: String = "mixpanel", groupKey: String = "group_id",
        limits: MixpanelLimits = .default
    ) {
        self.name = name
        self.groupKey = groupKey
        self.limits = limits
        self.box = VendorClient(adapter)
    }

    /// Forgets the signed-in user: Mixpanel's `reset(completion: nil)`, which clears the distinct id and
    /// super properties and starts a new anonymous distinct id. The client calls it on
    /// ``AnalyticsClient/reset()``, after the events tracked before the reset and before those tracked after it.
    public func reset() {
        box.client.reset(completion: nil)
    }

    /// Transforms the event into Mixpanel's calls and makes them.
    ///
    /// - Throws: a ``Problem`` with outcome ``Problem/Outcome/dropped`` for an alias event whose new id is
    ///   already the current distinct id; nothing is sent then.
    public func receive(_ envelope: Envelope, context: DestinationContext) throws {
        let event = envelope.event
        let adapter = box.client
        var problems: [Problem] = []
        switch event.kind {
        case .track:
            let properties = limited(
                typed(event.properties.dictionary, event: event, problems: &problems), keeping: [], event: event,
                problems: &problems)
            problems.forEach(context.report)
            adapter.track(event: event.name, properties: properties.optionalFoundationValue)
        case .screen:
            var properties = typed(event.properties.dictionary, event: event, problems: &problems)
            VendorRules.insert(
                .string(event.name), forKey: "name", into: &properties, vendor: "Mixpanel", event: event,
                problems: &problems)
            properties = limited(properties, keeping: ["name"], event: event, problems: &problems)
            problems.forEach(context.report)
            adapter.track(event: Self.screenEventName, properties: properties.optionalFoundationValue)
        case .identify:
            adapter.identify(distinctId: event.userId ?? "", usePeople: true, completion: nil)
            if !event.properties.isEmpty {
                let traits = typed(event.properties.dictionary, event: event, problems: &problems)
                problems.forEach(context.report)
                adapter.peopleSet(properties: traits.foundationValue)
            }
        case .group:
            adapter.setGroup(groupKey: groupKey, groupID: event.groupId ?? "")
            if !event.properties.isEmpty {
                let traits = typed(event.properties.dictionary, event: event, problems: &problems)
                problems.forEach(context.report)
                adapter.groupSet(groupKey: groupKey, groupID: event.groupId ?? "", properties: traits.foundationValue)
            }
        case .alias:
            let previous = adapter.distinctId
            let newId = event.userId ?? ""
            guard newId != previous else {
                throw VendorRules.problem(
                    "The new id is already the current distinct id; Mixpanel ignores such an alias", outcome: .dropped,
                    event: event, path: "/userId")
            }
            adapter.createAlias(newId, distinctId: previous, usePeople: true, andIdentify: true, completion: nil)
        }
    }

    /// At most ``MixpanelLimits/maximumPropertyCount`` properties, with one problem when some were removed.
    /// The properties with every value of a Mixpanel type: see ``MixpanelLimits``.
    private func typed(
        _ properties: [String: PropertyValue], event: Event, problems: inout [Problem]
    ) -> [String: PropertyValue] {
        VendorRules.fixValues(
            properties, vendor: "Mixpanel", event: event, problems: &problems,
            rule: VendorRules.bigNumberRule(keepingDecimals: false))
    }

    private func limited(
        _ properties: [String: PropertyValue], keeping required: Set<String>, event: Event, problems: inout [Problem]
    ) -> [String: PropertyValue] {
        var properties = properties
        let limit = limits.maximumPropertyCount
        let removed = VendorRules.keepFirst(limit, of: &properties, required: required)
        if !removed.isEmpty {
            problems.append(
                VendorRules.problem(
                    "Mixpanel takes fewer than \(limit + 1) properties per event; \(removed.count) were removed, the last in key order: \(VendorRules.list(removed))",
                    event: event, path: event.propertiesPath))
        }
        return properties
    }
}
