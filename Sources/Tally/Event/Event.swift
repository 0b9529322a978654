/// What the app says happened: a kind, a name and properties.
///
/// An event holds only what app code chose to say. The client wraps it in an ``Envelope`` with a message
/// id, a timestamp, identity and context, so tests can compare exactly what the app said.
///
/// ## Declaring an app's events
/// Declare each event once as a static factory in an extension, then track it by name. Call sites read
/// like the tracking plan and the compiler checks every property:
///
/// ```swift
/// extension Event {
///     static func menuItemOrdered(itemName: String) -> Event {
///         Event("menu_item_ordered", ["item_name": .string(itemName)])
///     }
/// }
/// ```
///
/// ```swift
/// analytics.track(.menuItemOrdered(itemName: "Pizza"))
/// ```
///
/// `tally gen` emits this same form from a tracking plan.
///
/// ## What each kind carries
/// | kind | made with | `name` | ids | `properties` |
/// |---|---|---|---|---|
/// | ``Kind/track`` | ``track(_:_:)`` | the event name | | event properties |
/// | ``Kind/screen`` | ``screen(_:_:)`` | the screen name | | screen properties |
/// | ``Kind/identify`` | ``identify(userId:traits:)`` | empty | ``userId`` | the user's ``traits`` |
/// | ``Kind/group`` | ``group(_:traits:)`` | empty | ``groupId`` | the group's ``traits`` |
/// | ``Kind/alias`` | ``alias(_:)`` | empty | ``userId``, the new id | none; the previous id is the envelope's |
///
/// Only track and screen events have names: identify, group and alias carry ids, which are never event
/// names, so plans, coverage and vendor destinations never mistake a user id for an event. Reports and
/// printouts name any event with ``reportName``: `menu_item_ordered`, `identify user-42`, `group acme`.
public struct Event: Sendable, Hashable {
    /// The kinds of call an app can make, after Segment's spec.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Something the user did.
        case track
        /// A screen the user saw.
        case screen
        /// Who the user is, with traits.
        case identify
        /// An organisation or account the user belongs to.
        case group
        /// A new id for the current user.
        case alias
    }

    /// The kind of call.
    public var kind: Kind
    /// The event name of a track event, the screen name of a screen event; empty for the other kinds.
    public var name: String
    /// The properties of a track or screen event, the traits of an identify or group event. Read and
    /// written like a dictionary; see ``Properties``.
    public var properties: Properties
    /// The user an identify event names, or the new id an alias event gives the current user; nil for the
    /// other kinds.
    public var userId: String?
    /// The group a group event names; nil for the other kinds.
    public var groupId: String?
    /// What the event is collected for, as consent is asked: ``ConsentPurpose/analytics`` unless the event
    /// says otherwise (see ``needing(_:)``). A client that gates the purpose holds or drops the event until
    /// the user agrees, and delivers it only to destinations allowed the purpose.
    public var purpose: ConsentPurpose

    /// Creates an event of any kind. Prefer the factories (``track(_:_:)``, ``identify(userId:traits:)``…),
    /// which set the fields each kind carries.
    public init(
        kind: Kind, name: String = "", properties: [String: PropertyValue] = [:], userId: String? = nil,
        groupId: String? = nil, purpose: ConsentPurpose = .analytics
    ) {
        self.kind = kind
        self.name = name
        self.properties = Properties(properties)
        self.userId = userId
        self.groupId = groupId
        self.purpose = purpose
    }

    /// Creates a track event.
    ///
    /// ```swift
    /// let event = Event("menu_item_ordered", ["item_name": "Pizza"])
    /// ```
    public init(_ name: String, _ properties: [String: PropertyValue] = [:]) {
        self.init(kind: .track, name: name, properties: properties)
    }

    /// The traits of an identify or group event: the same storage as ``properties``, named for what it
    /// holds on those kinds.
    public var traits: Properties {
        get { properties }
        set { properties = newValue }
    }

    /// The JSON pointer a ``Problem`` names for the event's properties: `/traits` for an identify or group
    /// event, whose properties are traits, `/properties` for the others.
    package var propertiesPath: String {
        kind == .identify || kind == .group ? "/traits" : "/properties"
    }

    /// The JSON pointer to property (or trait) `key`: `/properties/<key>` or `/traits/<key>`, escaped.
    package func propertyPath(_ key: String) -> String { propertiesPath + "/" + JSONPointer.escape(key) }
}

extension Event {
    /// A track event: something the user did.
    public static func track(_ name: String, _ properties: [String: PropertyValue] = [:]) -> Event {
        Event(kind: .track, name: name, properties: properties)
    }

    /// A screen event: a screen the user saw.
    public static func screen(_ name: String, _ properties: [String: PropertyValue] = [:]) -> Event {
        Event(kind: .screen, name: name, properties: properties)
    }

    /// An identify event. The client also remembers `userId` for the events that follow.
    public static func identify(userId: String, traits: [String: PropertyValue] = [:]) -> Event {
        Event(kind: .identify, properties: traits, userId: userId)
    }

    /// A group event: the user belongs to `groupId`.
    public static func group(_ groupId: String, traits: [String: PropertyValue] = [:]) -> Event {
        Event(kind: .group, properties: traits, groupId: groupId)
    }

    /// An alias event: from now on the current user is `newId`. The client takes the previous id from the
    /// identity it holds when the event is tracked.
    public static func alias(_ newId: String) -> Event {
        Event(kind: .alias, userId: newId)
    }
}

extension Event {
    /// The same event, collected for `purpose` (see ``ConsentPurpose``).
    ///
    /// ```swift
    /// analytics.track(Event("ad_clicked").needing(.advertising))
    /// ```
    public func needing(_ purpose: ConsentPurpose) -> Event {
        var event = self
        event.purpose = purpose
        return event
    }
}

extension Event {
    /// What the name rules apply to: the name of a track or screen event, the id an identify, alias or
    /// group event carries.
    package var subject: String {
        switch kind {
        case .track, .screen: name
        case .identify, .alias: userId ?? ""
        case .group: groupId ?? ""
        }
    }

    /// What ``subject`` is called in messages: "event name", "screen name", "user id" or "group id".
    package var subjectNoun: String {
        switch kind {
        case .track: "event name"
        case .screen: "screen name"
        case .identify, .alias: "user id"
        case .group: "group id"
        }
    }

    /// Whether ``name`` is what names events of this kind: true for track and screen events.
    package var isNamed: Bool { kind == .track || kind == .screen }
}

extension Event {
    /// How reports and printouts name this event: the name of a track or screen event; for the other
    /// kinds, the kind followed by the id the event carries.
    ///
    /// | event | `reportName` |
    /// |---|---|
    /// | `.track("menu_item_ordered")` | `menu_item_ordered` |
    /// | `.screen("Home")` | `Home` |
    /// | `.identify(userId: "user-42")` | `identify user-42` |
    /// | `.group("acme")` | `group acme` |
    /// | `.alias("user-43")` | `alias user-43` |
    ///
    /// An event without the name or id its kind carries is named by its kind alone (`track`, `identify`).
    /// Tally's own ``Problem``s, the plan validator, `tally validate` and the test kit's messages name events
    /// this way; a destination reporting a ``Problem`` about an event should too:
    ///
    /// ```swift
    /// context.report(
    ///     Problem(.vendorLimit, "Too many traits", outcome: .sanitized, eventName: envelope.event.reportName))
    /// ```
    ///
    /// ``Envelope/reportName`` adds the previous id of an alias: `alias user-43 <- anon-1`.
    ///
    /// The name holds the user or group id as the app gave it: where reports leave the device, redact ids
    /// as you would in the event itself.
    public var reportName: String {
        switch kind {
        case .track, .screen: name.isEmpty ? kind.rawValue : name
        case .identify, .alias: userId.map { "\(kind.rawValue) \($0)" } ?? kind.rawValue
        case .group: groupId.map { "\(kind.rawValue) \($0)" } ?? kind.rawValue
        }
    }
}

extension Event: CustomStringConvertible {
    /// One line: the kind and name of a track or screen event or the ``reportName`` of the others, then the
    /// properties as sorted JSON, then the purpose when it is not ``ConsentPurpose/analytics``: for example
    /// `track menu_item_ordered {"item_name":"Pizza"}`, `identify user-42 {"plan":"pro"}` or
    /// `track ad_clicked (for advertising)`.
    public var description: String {
        var text = isNamed ? "\(kind.rawValue) \(name)" : reportName
        if !properties.isEmpty { text += " \(properties.jsonString)" }
        if purpose != .analytics { text += " (for \(purpose))" }
        return text
    }
}

extension Event: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind, name, properties, userId, groupId, purpose
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.kind = try container.decode(Kind.self, forKey: .kind)
        self.name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
        self.properties = try container.decodeIfPresent(Properties.self, forKey: .properties) ?? [:]
        self.userId = try container.decodeIfPresent(String.self, forKey: .userId)
        self.groupId = try container.decodeIfPresent(String.self, forKey: .groupId)
        self.purpose = try container.decodeIfPresent(ConsentPurpose.self, forKey: .purpose) ?? .analytics
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(name, forKey: .name)
        try container.encode(properties, forKey: .properties)
        try container.encodeIfPresent(userId, forKey: .userId)
        try container.encodeIfPresent(groupId, forKey: .groupId)
        // Written only when it is not the default, so that events of the default purpose encode as before.
        if purpose != .analytics { try container.encode(purpose, forKey: .purpose) }
    }
}
