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
///
/// analytics.track(.menuItemOrdered(itemName: "Pizza"))
/// ```
///
/// `tally gen` emits this same form from a tracking plan.
///
/// ## What the name means for each kind
/// | kind | `name` | `properties` |
/// |---|---|---|
/// | ``Kind/track`` | the event name | event properties |
/// | ``Kind/screen`` | the screen name | screen properties |
/// | ``Kind/identify`` | the user id | traits |
/// | ``Kind/group`` | the group id | group traits |
/// | ``Kind/alias`` | the new user id | none; the previous id is the envelope's identity |
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
    /// The event name, screen name, user id, group id or new id, depending on ``kind``.
    public var name: String
    /// The properties or traits, depending on ``kind``.
    public var properties: [String: PropertyValue]

    /// Creates an event of any kind.
    public init(kind: Kind, name: String, properties: [String: PropertyValue] = [:]) {
        self.kind = kind
        self.name = name
        self.properties = properties
    }

    /// Creates a track event.
    ///
    /// ```swift
    /// Event("menu_item_ordered", ["item_name": "Pizza"])
    /// ```
    public init(_ name: String, _ properties: [String: PropertyValue] = [:]) {
        self.init(kind: .track, name: name, properties: properties)
    }
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
        Event(kind: .identify, name: userId, properties: traits)
    }

    /// A group event: the user belongs to `groupId`.
    public static func group(_ groupId: String, traits: [String: PropertyValue] = [:]) -> Event {
        Event(kind: .group, name: groupId, properties: traits)
    }

    /// An alias event: from now on the current user is `newId`. The client takes the previous id from the
    /// identity it holds when the event is tracked.
    public static func alias(_ newId: String) -> Event {
        Event(kind: .alias, name: newId)
    }
}

extension Event: CustomStringConvertible {
    /// One line: kind, name and properties as sorted JSON, for example
    /// `track menu_item_ordered {"item_name":"Pizza"}`.
    public var description: String {
        properties.isEmpty ? "\(kind.rawValue) \(name)" : "\(kind.rawValue) \(name) \(properties.jsonString)"
    }
}

extension Event: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind, name, properties
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.kind = try container.decode(Kind.self, forKey: .kind)
        self.name = try container.decode(String.self, forKey: .name)
        self.properties = try container.decodeIfPresent([String: PropertyValue].self, forKey: .properties) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(name, forKey: .name)
        try container.encode(properties, forKey: .properties)
    }
}
