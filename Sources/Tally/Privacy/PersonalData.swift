import Foundation

/// What kind of personal data a property holds, as a tracking plan marks it (`personal: email`).
///
/// The kinds follow what Apple's privacy manifests ask about; kinds are open, so
/// `PersonalDataKind("health_record")` is one too.
public struct PersonalDataKind: RawRepresentable, Sendable, Hashable, Codable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The kind's name, such as `email`.
    public var rawValue: String

    /// A kind named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A kind named `name`.
    public init(_ name: String) { self.rawValue = name }

    /// A kind named by a string literal.
    public init(stringLiteral name: String) { self.rawValue = name }

    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// An e-mail address.
    public static let email = PersonalDataKind(rawValue: "email")
    /// A phone number.
    public static let phone = PersonalDataKind(rawValue: "phone")
    /// A person's name.
    public static let name = PersonalDataKind(rawValue: "name")
    /// A location as precise as an address or coordinates.
    public static let preciseLocation = PersonalDataKind(rawValue: "precise_location")
    /// A location no finer than a city or region.
    public static let coarseLocation = PersonalDataKind(rawValue: "coarse_location")
    /// An identifier of the device or install (a vendor identifier, an install id).
    public static let deviceIdentifier = PersonalDataKind(rawValue: "device_id")
    /// The advertising identifier (IDFA, GAID).
    public static let advertisingIdentifier = PersonalDataKind(rawValue: "advertising_id")
    /// An identifier of the user in the app's own systems.
    public static let userIdentifier = PersonalDataKind(rawValue: "user_id")
    /// Text the user typed: a search, a message, a review. It may hold anything.
    public static let freeText = PersonalDataKind(rawValue: "free_text")
}

/// What may happen to a personal value before any destination sees it.
public enum PersonalDataRule: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Sent as it is (with the user's consent for the event's purpose).
    case send
    /// Replaced by a hash of the value, so that equal values still match across events.
    case hash
    /// Replaced by `[redacted]`: the property stays, its value does not.
    case redact
    /// Removed from the event.
    case neverSend = "never_send"

    public var description: String { rawValue }
}

/// One property a tracking plan marks as personal: which event (or every event), which key, what it holds,
/// and what may happen to it.
public struct PersonalProperty: Sendable, Hashable, Codable {
    /// The event it belongs to (the name of a track or screen event, or `identify` / `group` for traits);
    /// nil for the key in every event.
    public var event: String?
    /// The property's key, at the top level of the event's properties.
    public var key: String
    /// What it holds.
    public var kind: PersonalDataKind
    /// What may happen to it.
    public var rule: PersonalDataRule

    /// Creates a personal property.
    public init(event: String? = nil, key: String, kind: PersonalDataKind, rule: PersonalDataRule) {
        self.event = event
        self.key = key
        self.kind = kind
        self.rule = rule
    }
}
