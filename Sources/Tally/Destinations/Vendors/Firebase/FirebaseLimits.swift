/// Firebase Analytics' documented limits, and the rule ``FirebaseDestination`` applies to each.
///
/// Firebase drops an event, a parameter or a user property that breaks these limits, or cuts a value,
/// and says so only in the device log. Tally applies a deterministic rule instead, reports one
/// ``Problem`` with code ``Problem/Code/vendorLimit`` per violation (with the event's name and a JSON
/// pointer to what changed), and delivers the result; only a user id Firebase would refuse drops the
/// event.
///
/// "Name" below means an event name, a parameter name or a user property name, each with its own
/// longest length. Lengths count UTF-16 code units, as Firebase does (`NSString.length`); names are
/// ASCII once the character rule has run, so for them this is the number of characters.
///
/// | input | outcome | problem |
/// |---|---|---|
/// | a name with characters other than ASCII letters, digits and `_` | each such character becomes `_`: `menu item-ordered` is sent as `menu_item_ordered` | sanitized, path `/name`, `/properties/<key>` or `/traits/<key>` |
/// | a name that does not start with an ASCII letter (`1st_launch`, `_x`, empty) | `x_` is put in front: `x_1st_launch` | sanitized |
/// | a name starting with a reserved prefix in ``reservedPrefixes``, in any letter case (`firebase_`, `google_`, `ga_`) | `x_` is put in front: `x_ga_session` | sanitized |
/// | an event name in ``reservedEventNames`` (`first_open`, `error`…) or a user property name in ``reservedUserPropertyNames`` (`user_id`…) | `x_` is put in front: `x_error` | sanitized |
/// | an event or parameter name longer than ``maximumEventNameLength`` / ``maximumParameterNameLength`` (40), a user property name longer than ``maximumUserPropertyNameLength`` (24) | cut to that length, after the rules above | sanitized |
/// | two parameters (or user properties) whose names become the same | a name that was valid as sent keeps it; among renamed ones, the first original key in sorted order keeps it; the others are removed | sanitized, one per removed key |
/// | a parameter value that is `null`, an array or an object (except `items`, below) | the parameter is removed | sanitized, path `/properties/<key>` |
/// | a Boolean parameter value | sent as `1` or `0` (Firebase stores Booleans as integers) | none: nothing is lost |
/// | a string parameter value longer than ``maximumParameterValueLength`` (100) | cut to the longest prefix of whole characters that fits | sanitized, path `/properties/<key>` (`/name` for the screen name or group id) |
/// | more than ``maximumParameterCount`` (25) parameters after the rules above | the parameter the call takes from the event (`screen_name`, `group_id`) is kept, then the first in sorted name order up to 25; the rest are removed | sanitized, one for the event, path `/properties` |
/// | an `items` parameter that is an array of objects (Firebase's e-commerce items) | kept; each item's members follow the name and value rules above (no count limit) | sanitized, path `/properties/items/<index>/<key>` |
/// | a user property value (a trait) longer than ``maximumUserPropertyValueLength`` (36) | cut like a parameter string | sanitized, path `/traits/<key>` |
/// | a trait that is a number or a Boolean | sent as its text: `42`, `9.5`, `true` | none |
/// | a trait that is `null` | sent as nil, which clears the user property | none |
/// | a trait that is an array or an object | not sent | sanitized, path `/traits/<key>` |
/// | a user id (identify) or new id (alias) longer than ``maximumUserIDLength`` (256) | the event is dropped: a cut id would name another user | dropped, path `/name`; counted as ``DropReason/rejected`` |
///
/// Limits Firebase applies across events (500 distinct event names, 25 user properties per project,
/// 27 custom parameters per item, 200 items) cannot be checked one event at a time and are not enforced.
///
/// For a Google Analytics 360 property, whose string parameters may be 500 characters long:
///
/// ```swift
/// let destination = FirebaseDestination(
///     sdk: FirebaseAnalytics.Analytics.self, limits: FirebaseLimits(maximumParameterValueLength: 500))
/// ```
public struct FirebaseLimits: Sendable, Hashable {
    /// The longest event name. Default 40.
    public var maximumEventNameLength: Int
    /// The longest parameter name. Default 40.
    public var maximumParameterNameLength: Int
    /// The most parameters an event may have. Default 25.
    public var maximumParameterCount: Int
    /// The longest string parameter value. Default 100 (500 for Google Analytics 360 properties).
    public var maximumParameterValueLength: Int
    /// The longest user property name. Default 24.
    public var maximumUserPropertyNameLength: Int
    /// The longest user property value. Default 36.
    public var maximumUserPropertyValueLength: Int
    /// The longest user id. Default 256.
    public var maximumUserIDLength: Int
    /// Prefixes no name may start with, compared without regard to letter case. Default `firebase_`,
    /// `google_` and `ga_`, which `FIRAnalytics.h` reserves for event, parameter and user property names.
    public var reservedPrefixes: [String]
    /// Event names Firebase keeps for its own events. Default ``documentedReservedEventNames``.
    public var reservedEventNames: Set<String>
    /// User property names Firebase keeps for itself. Default `first_open_time`,
    /// `last_deep_link_referrer` and `user_id`, the list under `setUserPropertyString:forName:` in the same
    /// header as ``documentedReservedEventNames``.
    public var reservedUserPropertyNames: Set<String>

    /// Creates limits; every parameter defaults to Firebase's documented value.
    public init(
        maximumEventNameLength: Int = 40,
        maximumParameterNameLength: Int = 40,
        maximumParameterCount: Int = 25,
        maximumParameterValueLength: Int = 100,
        maximumUserPropertyNameLength: Int = 24,
        maximumUserPropertyValueLength: Int = 36,
        maximumUserIDLength: Int = 256,
        reservedPrefixes: [String] = ["firebase_", "google_", "ga_"],
        reservedEventNames: Set<String> = FirebaseLimits.documentedReservedEventNames,
        reservedUserPropertyNames: Set<String> = ["first_open_time", "last_deep_link_referrer", "user_id"]
    ) {
        self.maximumEventNameLength = maximumEventNameLength
        self.maximumParameterNameLength = maximumParameterNameLength
        self.maximumParameterCount = maximumParameterCount
        self.maximumParameterValueLength = maximumParameterValueLength
        self.maximumUserPropertyNameLength = maximumUserPropertyNameLength
        self.maximumUserPropertyValueLength = maximumUserPropertyValueLength
        self.maximumUserIDLength = maximumUserIDLength
        self.reservedPrefixes = reservedPrefixes
        self.reservedEventNames = reservedEventNames
        self.reservedUserPropertyNames = reservedUserPropertyNames
    }

    /// Firebase's documented limits.
    public static let `default` = FirebaseLimits()

    /// The event names Firebase documents as reserved for its own events: the 32 names that
    /// `FIRAnalytics.h` lists under `logEventWithName:parameters:` (Swift `Analytics.logEvent(_:parameters:)`)
    /// in FirebaseAnalytics 12 (Firebase Apple SDK 12.18.0), from `ad_activeview` to `user_engagement`.
    ///
    /// It includes `app_background`; it does not include `screen_view`, which older headers reserved and
    /// this one tells apps to log screen views under, as ``FirebaseDestination`` does.
    public static let documentedReservedEventNames: Set<String> = [
        "ad_activeview", "ad_click", "ad_exposure", "ad_query", "ad_reward", "adunit_exposure", "app_background",
        "app_clear_data", "app_exception", "app_remove", "app_store_refund", "app_store_subscription_cancel",
        "app_store_subscription_convert", "app_store_subscription_renew", "app_update", "app_upgrade",
        "dynamic_link_app_open", "dynamic_link_app_update", "dynamic_link_first_open", "error",
        "firebase_campaign", "first_open", "first_visit", "in_app_purchase", "notification_dismiss",
        "notification_foreground", "notification_open", "notification_receive", "os_update", "session_start",
        "session_start_with_rollout", "user_engagement",
    ]

    /// What the rules put in front of a name that does not start with a letter or that Firebase reserves.
    public static let renamePrefix = "x_"
}
