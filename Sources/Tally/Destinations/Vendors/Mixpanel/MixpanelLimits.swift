/// Mixpanel's documented limits, and the rule ``MixpanelDestination`` applies to each.
///
/// Mixpanel accepts fewer than 255 properties per event and drops the rest itself, without saying which.
/// Tally keeps a deterministic set instead and reports one ``Problem`` with code
/// ``Problem/Code/vendorLimit`` per event.
///
/// | input | outcome | problem |
/// |---|---|---|
/// | a track or screen event with more than ``maximumPropertyCount`` (254) properties | the property the call takes from the event (`name` for a screen) is kept, then the first keys in sorted order up to 254; the rest are removed | sanitized, one per event, path `/properties` |
/// | a big number (``PropertyValue/bigNumber(_:)``), at any depth, in properties or traits | converted to the nearest `Double`, a Mixpanel type, when it is finite; removed when beyond the largest double (a member from its object, an element from its array) | sanitized, path to the value (`/properties/list/2`) |
/// | an alias event whose new id is Mixpanel's current ``MixpanelAdapter/distinctId`` | the event is dropped: Mixpanel ignores an alias to the same id | dropped, path `/userId`; counted as ``DropReason/rejected`` |
///
/// A big number has no Mixpanel type (`MixpanelType` covers `String`, `Int`, `UInt`, `Double`, `Float`,
/// `Bool`, `Date`, `URL`, `NSNull`, `NSNumber`, arrays and dictionaries of those): the documented cast
/// `compactMapValues { $0 as? any MixpanelType }` would drop it without a word, and inside an array it
/// fails Mixpanel's debug assertion (`assertPropertyTypes`) and stops the app.
///
/// Traits sent with ``MixpanelAdapter/peopleSet(properties:)`` and
/// ``MixpanelAdapter/groupSet(groupKey:groupID:properties:)`` are profile properties, which the event
/// limit does not concern. Mixpanel's other limits (the length of names and string values, reserved
/// `$` and `mp_` prefixes) are not enforced.
///
/// ```swift
/// let destination = MixpanelDestination(
///     adapter: Mixpanel.mainInstance(), limits: MixpanelLimits(maximumPropertyCount: 100))
/// ```
public struct MixpanelLimits: Sendable, Hashable {
    /// The most properties an event may have. Default 254: Mixpanel takes fewer than 255.
    public var maximumPropertyCount: Int

    /// Creates limits; the default is Mixpanel's documented value.
    public init(maximumPropertyCount: Int = 254) {
        self.maximumPropertyCount = maximumPropertyCount
    }

    /// Mixpanel's documented limits.
    public static let `default` = MixpanelLimits()
}
