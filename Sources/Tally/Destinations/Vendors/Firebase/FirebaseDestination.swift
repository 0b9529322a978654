/// Sends events to Firebase Analytics through a ``FirebaseAnalyticsAdapter``, within ``FirebaseLimits``.
///
/// The destination owns the transformation from Tally's events to Firebase's calls; the adapter only
/// mirrors the SDK. Each event kind becomes Firebase's nearest call:
///
/// | event | Firebase calls |
/// |---|---|
/// | ``Event/Kind/track`` | `logEvent(name, parameters: properties)` |
/// | ``Event/Kind/screen`` | `logEvent("screen_view", parameters: properties + ["screen_name": name])` |
/// | ``Event/Kind/identify`` | `setUserID(userId)`, then `setUserProperty(value, forName: trait)` per trait, in name order |
/// | ``Event/Kind/group`` | `logEvent("join_group", parameters: traits + ["group_id": groupId])`, Firebase's recommended event |
/// | ``Event/Kind/alias`` | `setUserID(newId)`: Firebase has no alias; later events belong to the new id |
/// | ``AnalyticsClient/reset()`` | `setUserID(nil)`, through ``reset()``; user properties stay, and `resetAnalyticsData()` is not called |
///
/// Parameters are nil when there are none. Names, parameters and user properties are made to fit
/// Firebase's limits by the rules in ``FirebaseLimits``, each violation reported as one ``Problem``; a
/// `screen_name` or `group_id` property is replaced by the event's name, with a problem when they
/// differed.
///
/// ```swift
/// extension FirebaseAnalytics.Analytics: @retroactive FirebaseAnalyticsStaticAPI {}
/// ```
///
/// ```swift
/// let analytics = AnalyticsClient(destinations: [FirebaseDestination(sdk: FirebaseAnalytics.Analytics.self)])
/// analytics.track("menu item-ordered", ["item_name": "Pizza"])
/// // Analytics.logEvent("menu_item_ordered", parameters: ["item_name": "Pizza"]), and one problem
/// ```
public struct FirebaseDestination: Destination {
    /// The destination's name. Default `firebase`.
    public let name: String
    /// The limits the destination enforces.
    public let limits: FirebaseLimits
    private let box: VendorClient<any FirebaseAnalyticsAdapter>

    /// Creates a destination calling `adapter`, such as a spy in tests or an app's own wrapper.
    ///
    /// - Parameters:
    ///   - adapter: receives Firebase's calls.
    ///   - name: the destination's name. Default `firebase`.
    ///   - limits: the limits to enforce. Default: Firebase's documented ones.
    public init(adapter: any FirebaseAnalyticsAdapter, name: String = "firebase", limits: FirebaseLimits = .default) {
        self.name = name
        self.limits = limits
        self.box = VendorClient(adapter)
    }

    /// Creates a destination calling the class methods of `sdk`, normally `FirebaseAnalytics.Analytics`.
    ///
    /// ```swift
    /// extension FirebaseAnalytics.Analytics: @retroactive FirebaseAnalyticsStaticAPI {}
    /// let firebase = FirebaseDestination(sdk: FirebaseAnalytics.Analytics.self)
    /// ```
    public init<SDK: FirebaseAnalyticsStaticAPI>(
        sdk: SDK.Type, name: String = "firebase", limits: FirebaseLimits = .default
    ) {
        self.init(adapter: FirebaseStaticAdapter<SDK>(), name: name, limits: limits)
    }

    /// Forgets the signed-in user: `setUserID(nil)`, which Firebase documents as removing the user id.
    /// The client calls it on ``AnalyticsClient/reset()``, after the events tracked before the reset and before
    /// those tracked after it.
    ///
    /// User properties set from identify traits stay: Firebase keeps each until it is set again. To clear
    /// one, identify with that trait set to null before the reset (it is sent as
    /// `setUserProperty(nil, forName:)`).
    ///
    /// Firebase's fuller `Analytics.resetAnalyticsData()` is deliberately not called, and so is not in the
    /// adapter. It is not a sign-out: it clears all of the app's analytics data on the device and starts a
    /// new app instance id. The install then counts as a new one in Firebase's reports, and the data it
    /// clears can include events logged just before the sign-out that Firebase, which uploads in batches,
    /// has not sent yet. An app that needs it, for example to honour a request to delete the user's data,
    /// calls it itself once the client has handed over the events before it:
    ///
    /// ```swift
    /// analytics.reset()
    /// await analytics.flush()
    /// FirebaseAnalytics.Analytics.resetAnalyticsData()
    /// ```
    public func reset() {
        box.client.setUserID(nil)
    }

    /// Transforms the event into Firebase's calls and makes them.
    ///
    /// - Throws: a ``Problem`` with outcome ``Problem/Outcome/dropped`` when the user id of an identify or
    ///   alias event is longer than ``FirebaseLimits/maximumUserIDLength``; nothing is sent then.
    public func receive(_ envelope: Envelope, context: DestinationContext) throws {
        let event = envelope.event
        let adapter = box.client
        var problems: [Problem] = []
        switch event.kind {
        case .track:
            let eventName = sanitize(event.name, eventNameRule, path: "/name", event: event, problems: &problems)
            let parameters = parameters(event.properties.dictionary, taking: nil, event: event, problems: &problems)
            problems.forEach(context.report)
            adapter.logEvent(eventName, parameters: parameters.optionalFoundationValue)
        case .screen:
            let parameters = parameters(
                event.properties.dictionary, taking: ("screen_name", event.name), event: event, problems: &problems)
            problems.forEach(context.report)
            adapter.logEvent("screen_view", parameters: parameters.optionalFoundationValue)
        case .group:
            let parameters = parameters(
                event.properties.dictionary, taking: ("group_id", event.groupId ?? ""), event: event,
                problems: &problems)
            problems.forEach(context.report)
            adapter.logEvent("join_group", parameters: parameters.optionalFoundationValue)
        case .identify:
            try checkUserID(event)
            let properties = userProperties(event.properties.dictionary, event: event, problems: &problems)
            problems.forEach(context.report)
            adapter.setUserID(event.userId)
            for property in properties { adapter.setUserProperty(property.value, forName: property.name) }
        case .alias:
            try checkUserID(event)
            adapter.setUserID(event.userId)
        }
    }

    // MARK: Names

    private struct NameRule {
        let noun: String
        let maximumLength: Int
        let reservedNames: Set<String>
    }

    private var eventNameRule: NameRule {
        NameRule(
            noun: "event name", maximumLength: limits.maximumEventNameLength, reservedNames: limits.reservedEventNames)
    }

    private var parameterNameRule: NameRule {
        NameRule(noun: "parameter name", maximumLength: limits.maximumParameterNameLength, reservedNames: [])
    }

    private var userPropertyNameRule: NameRule {
        NameRule(
            noun: "user property name", maximumLength: limits.maximumUserPropertyNameLength,
            reservedNames: limits.reservedUserPropertyNames)
    }

    private static func isLetter(_ character: Character) -> Bool {
        guard character.unicodeScalars.count == 1, let value = character.asciiValue else { return false }
        return (65...90).contains(value) || (97...122).contains(value)
    }

    private static func isAllowed(_ character: Character) -> Bool {
        guard character.unicodeScalars.count == 1, let value = character.asciiValue else { return false }
        return isLetter(character) || (48...57).contains(value) || value == 95
    }

    /// Applies the name rules in order, adding one problem per rule broken.
    private func sanitize(
        _ name: String, _ rule: NameRule, path: String, event: Event, problems: inout [Problem]
    ) -> String {
        func note(_ message: String) { problems.append(VendorRules.problem(message, event: event, path: path)) }
        let quoted = VendorRules.quoted
        var result = name
        if !result.allSatisfy(Self.isAllowed) {
            let replaced = String(result.map { Self.isAllowed($0) ? $0 : "_" })
            note(
                "Firebase \(rule.noun)s may only contain letters, digits and underscores; \(quoted(result)) became \(quoted(replaced))"
            )
            result = replaced
        }
        let prefixed = FirebaseLimits.renamePrefix + result
        if !(result.first.map(Self.isLetter) ?? false) {
            note("Firebase \(rule.noun)s must start with a letter; \(quoted(result)) became \(quoted(prefixed))")
            result = prefixed
        } else if let reserved = limits.reservedPrefixes.first(where: { result.lowercased().hasPrefix($0.lowercased()) }
        ) {
            note("Firebase reserves the prefix \(quoted(reserved)); \(quoted(result)) became \(quoted(prefixed))")
            result = prefixed
        } else if rule.reservedNames.contains(result) {
            note("Firebase reserves the \(rule.noun) \(quoted(result)); it became \(quoted(prefixed))")
            result = prefixed
        }
        if result.count > rule.maximumLength {
            let cut = String(result.prefix(max(0, rule.maximumLength)))
            note(
                "Firebase \(rule.noun)s have at most \(rule.maximumLength) characters; \(quoted(result)) was cut to \(quoted(cut))"
            )
            result = cut
        }
        return result
    }

    /// The Firebase name for each key, valid names first, then renamed ones in sorted key order; a key
    /// whose new name is taken is left out with one problem.
    private func names(
        for keys: some Collection<String>, _ rule: NameRule, taken: Set<String> = [], path: (String) -> String,
        event: Event, problems: inout [Problem]
    ) -> [(key: String, name: String)] {
        var taken = taken
        var result: [(key: String, name: String)] = []
        var renamed: [(key: String, name: String, problems: [Problem])] = []
        for key in keys.sorted() {
            var found: [Problem] = []
            let name = sanitize(key, rule, path: path(key), event: event, problems: &found)
            if found.isEmpty, !taken.contains(name) {
                taken.insert(name)
                result.append((key, name))
            } else {
                renamed.append((key, name, found))
            }
        }
        for entry in renamed {
            guard !taken.contains(entry.name) else {
                problems.append(
                    VendorRules.problem(
                        "The Firebase \(rule.noun) for \(VendorRules.quoted(entry.key)) would be \(VendorRules.quoted(entry.name)), which another one already has; it was removed",
                        event: event, path: path(entry.key)))
                continue
            }
            taken.insert(entry.name)
            problems.append(contentsOf: entry.problems)
            result.append((entry.key, entry.name))
        }
        return result
    }

    // MARK: Parameters

    /// Firebase's parameters for `properties`, plus the one the call takes from the event, if any.
    private func parameters(
        _ properties: [String: PropertyValue], taking fixed: (key: String, value: String)?, event: Event,
        problems: inout [Problem]
    ) -> [String: PropertyValue] {
        var properties = properties
        var result: [String: PropertyValue] = [:]
        if let fixed {
            VendorRules.insert(
                .string(fixed.value), forKey: fixed.key, into: &properties, vendor: "Firebase", event: event,
                problems: &problems)
            properties.removeValue(forKey: fixed.key)
            result[fixed.key] = string(fixed.value, path: "/name", event: event, problems: &problems)
        }
        let names = names(
            for: properties.keys, parameterNameRule, taken: Set(result.keys), path: event.propertyPath,
            event: event, problems: &problems)
        for (key, name) in names {
            let path = event.propertyPath(key)
            let value = properties[key]!  // the key came from this dictionary
            if key == "items", case .array(let elements) = value, elements.allSatisfy({ $0.objectValue != nil }) {
                result[name] = items(elements, path: path, event: event, problems: &problems)
            } else if let converted = parameterValue(value, path: path, event: event, problems: &problems) {
                result[name] = converted
            }
        }
        let removed = VendorRules.keepFirst(
            limits.maximumParameterCount, of: &result, required: fixed.map { [$0.key] } ?? [])
        if !removed.isEmpty {
            problems.append(
                VendorRules.problem(
                    "Firebase takes at most \(limits.maximumParameterCount) parameters per event; \(removed.count) were removed, the last in name order: \(VendorRules.list(removed))",
                    event: event, path: event.propertiesPath))
        }
        return result
    }

    /// A string parameter value, cut to ``FirebaseLimits/maximumParameterValueLength``.
    private func string(_ text: String, path: String, event: Event, problems: inout [Problem]) -> PropertyValue {
        let limit = limits.maximumParameterValueLength
        let length = VendorRules.length(text)
        guard length > limit else { return .string(text) }
        problems.append(
            VendorRules.problem(
                "Firebase string parameter values have at most \(limit) characters; a value of \(length) was cut",
                event: event, path: path))
        return .string(VendorRules.truncate(text, toLength: limit))
    }

    /// A parameter value Firebase takes, or nil (with a problem) when it takes none.
    private func parameterValue(
        _ value: PropertyValue, path: String, event: Event, problems: inout [Problem]
    ) -> PropertyValue? {
        switch value {
        case .string(let text): return string(text, path: path, event: event, problems: &problems)
        case .int, .double, .bigNumber: return value
        case .bool(let bool): return .int(bool ? 1 : 0)
        case .null, .array, .object:
            problems.append(
                VendorRules.problem(
                    "Firebase parameter values are strings or numbers; a \(value.typeName) was removed", event: event,
                    path: path))
            return nil
        }
    }

    /// Firebase's e-commerce `items`: each item's members follow the parameter name and value rules.
    private func items(
        _ elements: [PropertyValue], path: String, event: Event, problems: inout [Problem]
    ) -> PropertyValue {
        .array(
            elements.enumerated().map { index, element in
                let members = element.objectValue ?? [:]
                let itemPath = "\(path)/\(index)"
                var item: [String: PropertyValue] = [:]
                let names = names(
                    for: members.keys, parameterNameRule, path: { VendorRules.path(itemPath, $0) }, event: event,
                    problems: &problems)
                for (key, name) in names {
                    let memberPath = VendorRules.path(itemPath, key)
                    if let value = parameterValue(members[key]!, path: memberPath, event: event, problems: &problems) {
                        item[name] = value
                    }
                }
                return .object(item)
            })
    }

    // MARK: User

    /// Fails when Firebase would refuse the event's user id.
    private func checkUserID(_ event: Event) throws {
        let length = VendorRules.length(event.userId ?? "")
        guard length > limits.maximumUserIDLength else { return }
        throw VendorRules.problem(
            "Firebase user ids have at most \(limits.maximumUserIDLength) characters; this one has \(length), and a shortened id would name another user",
            outcome: .dropped, event: event, path: "/userId")
    }

    /// The user properties for `traits`, in name order.
    private func userProperties(
        _ traits: [String: PropertyValue], event: Event, problems: inout [Problem]
    ) -> [(name: String, value: String?)] {
        var result: [(name: String, value: String?)] = []
        let limit = limits.maximumUserPropertyValueLength
        for (key, name) in names(
            for: traits.keys, userPropertyNameRule, path: event.propertyPath, event: event, problems: &problems)
        {
            let path = event.propertyPath(key)
            var text: String?
            switch traits[key]! {  // the key came from this dictionary
            case .string(let string): text = string
            case .int(let int): text = String(int)
            case .double(let double): text = String(double)
            case .bigNumber(let number): text = number.text
            case .bool(let bool): text = bool ? "true" : "false"
            case .null: text = nil
            case .array, .object:
                problems.append(
                    VendorRules.problem(
                        "Firebase user properties are strings; a \(traits[key]!.typeName) was not sent", event: event,
                        path: path))
                continue
            }
            if let value = text, VendorRules.length(value) > limit {
                problems.append(
                    VendorRules.problem(
                        "Firebase user property values have at most \(limit) characters; a value of \(VendorRules.length(value)) was cut",
                        event: event, path: path))
                text = VendorRules.truncate(value, toLength: limit)
            }
            result.append((name, text))
        }
        return result.sorted { $0.name < $1.name }
    }
}
