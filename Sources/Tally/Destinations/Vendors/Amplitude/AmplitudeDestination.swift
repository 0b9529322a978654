/// Sends events to Amplitude through an ``AmplitudeAdapter``, within ``AmplitudeLimits``.
///
/// The destination owns the transformation from Tally's events to Amplitude's calls; the adapter only
/// mirrors the SDK. Each event kind becomes Amplitude's nearest call, always with `options: nil`:
///
/// | event | Amplitude calls |
/// |---|---|
/// | ``Event/Kind/track`` | `track(eventType: name, eventProperties: properties)` |
/// | ``Event/Kind/screen`` | `track(eventType: "[Amplitude] Screen Viewed", eventProperties: properties + ["[Amplitude] Screen Name": name])`, the event Amplitude's own screen tracking sends |
/// | ``Event/Kind/identify`` | `setUserId(userId:)`, then `identify(userProperties: traits)` when there are traits |
/// | ``Event/Kind/group`` | `setGroup(groupType: groupType, groupName: groupId)`, then `groupIdentify(groupType:groupName:groupProperties: traits)` when there are traits |
/// | ``Event/Kind/alias`` | `setUserId(userId: newId)`: Amplitude's SDK has no alias; later events belong to the new id |
/// | ``AnalyticsClient/reset()`` | `reset()`, through ``reset()`` |
///
/// Event properties are nil when there are none. A `[Amplitude] Screen Name` property of a screen event
/// is replaced by the screen's name, with a problem when they differed. If Amplitude's own screen view
/// tracking is on as well, screens are counted twice; leave it off.
///
/// ```swift
/// extension Amplitude: @retroactive AmplitudeAdapter {}
/// ```
///
/// ```swift
/// // AmplitudeSwift has an `AnalyticsClient` too: name Tally's with its module.
/// let analytics = Tally.AnalyticsClient(destinations: [AmplitudeDestination(adapter: amplitude)])
/// analytics.track("menu_item_ordered", ["item_name": "Pizza"])
/// // amplitude.track(eventType: "menu_item_ordered", eventProperties: ["item_name": "Pizza"], options: nil)
/// ```
public struct AmplitudeDestination: Destination {
    /// The event type a screen event is tracked under, as Amplitude's own screen tracking names it.
    public static let screenEventType = "[Amplitude] Screen Viewed"
    /// The property that carries the screen's name.
    public static let screenNameProperty = "[Amplitude] Screen Name"

    /// The destination's name. Default `amplitude`.
    public let name: String
    /// The Amplitude group type group events are sent under, such as `org` or `team`. Default `group`.
    public let groupType: String
    /// The limits the destination enforces.
    public let limits: AmplitudeLimits
    private let box: VendorClient<any AmplitudeAdapter>

    /// Creates a destination calling `adapter`, normally an `Amplitude` instance.
    ///
    /// - Parameters:
    ///   - adapter: receives Amplitude's calls.
    ///   - name: the destination's name. Default `amplitude`.
    ///   - groupType: the group type for group events. Default `group`.
    ///   - limits: the limits to enforce. Default: Amplitude's documented ones.
    public init(
        adapter: any AmplitudeAdapter, name: String = "amplitude", groupType: String = "group",
        limits: AmplitudeLimits = .default
    ) {
        self.name = name
        self.groupType = groupType
        self.limits = limits
        self.box = VendorClient(adapter)
    }

    /// Forgets the signed-in user: Amplitude's `reset()`, which clears the user id and makes a new device
    /// id. The client calls it on ``AnalyticsClient/reset()``, after the events tracked before the reset and
    /// before those tracked after it.
    public func reset() {
        box.client.perform(.reset)
    }

    /// Transforms the event into Amplitude's calls and makes them. It never throws.
    public func receive(_ envelope: Envelope, context: DestinationContext) throws {
        let event = envelope.event
        var problems: [Problem] = []
        var calls: [AmplitudeCall] = []
        switch event.kind {
        case .track:
            let properties = cut(event.properties.dictionary, event: event, problems: &problems)
            calls = [.track(eventType: event.name, eventProperties: properties.optionalFoundationValue)]
        case .screen:
            var properties = event.properties.dictionary
            VendorRules.insert(
                .string(event.name), forKey: Self.screenNameProperty, into: &properties, vendor: "Amplitude",
                event: event, problems: &problems)
            properties.removeValue(forKey: Self.screenNameProperty)
            properties = cut(properties, event: event, problems: &problems)
            properties[Self.screenNameProperty] = cut(
                .string(event.name), path: "/name", event: event, problems: &problems)
            calls = [.track(eventType: Self.screenEventType, eventProperties: properties.foundationValue)]
        case .identify:
            calls = [.setUserId(event.userId ?? "")]
            if !event.properties.isEmpty {
                let traits = cut(event.properties.dictionary, event: event, problems: &problems)
                calls.append(.identify(userProperties: traits.foundationValue))
            }
        case .group:
            calls = [.setGroup(groupType: groupType, groupName: event.groupId ?? "")]
            if !event.properties.isEmpty {
                let traits = cut(event.properties.dictionary, event: event, problems: &problems)
                calls.append(
                    .groupIdentify(
                        groupType: groupType, groupName: event.groupId ?? "", groupProperties: traits.foundationValue)
                )
            }
        case .alias:
            calls = [.setUserId(event.userId ?? "")]
        }
        problems.forEach(context.report)
        let adapter = box.client
        for call in calls { adapter.perform(call) }
    }

    /// `properties` with every string, at any depth, cut to ``AmplitudeLimits/maximumStringLength``, and
    /// every big number Amplitude cannot encode converted or removed (see ``AmplitudeLimits``).
    private func cut(
        _ properties: [String: PropertyValue], event: Event, problems: inout [Problem]
    ) -> [String: PropertyValue] {
        let properties = VendorRules.fixValues(
            properties, vendor: "Amplitude", event: event, problems: &problems,
            rule: VendorRules.bigNumberRule(keepingDecimals: true))
        var result = properties
        for key in properties.keys.sorted() {
            result[key] = cut(properties[key]!, path: event.propertyPath(key), event: event, problems: &problems)
        }
        return result
    }

    private func cut(_ value: PropertyValue, path: String, event: Event, problems: inout [Problem]) -> PropertyValue {
        let limit = limits.maximumStringLength
        switch value {
        case .string(let text):
            let length = VendorRules.length(text)
            guard length > limit else { return value }
            problems.append(
                VendorRules.problem(
                    "Amplitude keeps at most \(limit) characters of a string; a string of \(length) was cut",
                    event: event, path: path))
            return .string(VendorRules.truncate(text, toLength: limit))
        case .array(let elements):
            return .array(
                elements.enumerated().map { index, element in
                    cut(element, path: "\(path)/\(index)", event: event, problems: &problems)
                })
        case .object(let members):
            var result = members
            for key in members.keys.sorted() {
                result[key] = cut(members[key]!, path: VendorRules.path(path, key), event: event, problems: &problems)
            }
            return .object(result)
        case .int, .double, .bigNumber, .bool, .null:
            return value
        }
    }
}
