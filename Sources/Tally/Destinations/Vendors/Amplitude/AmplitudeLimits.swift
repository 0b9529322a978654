/// Amplitude's documented limits, and the rule ``AmplitudeDestination`` applies to each.
///
/// Amplitude cuts string property values longer than 1,024 characters without saying so. Tally cuts them
/// itself, the same way every time, and reports one ``Problem`` with code ``Problem/Code/vendorLimit``
/// per string cut.
///
/// | input | outcome | problem |
/// |---|---|---|
/// | a string longer than ``maximumStringLength`` (1,024) in event properties, user properties (traits) or group properties, at any depth in arrays and objects | cut to the longest prefix of whole characters that fits | sanitized, one per string, path `/properties/<key>/<index or key>…` (`/traits/…` for the traits of an identify or group event) |
/// | a big number a `Decimal` does not hold exactly (more than 38 digits, or a power of ten beyond ±127), in any of those properties at any depth | converted to the nearest double when finite, else removed: Amplitude's SDK encodes a `Decimal` but writes any other value it does not know as the string `"[Non-Encodable]"` | sanitized, path to the value |
/// | a screen name longer than ``maximumStringLength``, sent as the `[Amplitude] Screen Name` property | cut the same way | sanitized, path `/name` |
///
/// Lengths count UTF-16 code units (`NSString.length`), which for text without emoji or other
/// characters outside the Basic Multilingual Plane is the number of characters. Amplitude's server-side
/// rules (such as user ids of at least 5 characters) depend on project settings and are not enforced.
///
/// ```swift
/// let destination = AmplitudeDestination(adapter: amplitude, limits: AmplitudeLimits(maximumStringLength: 255))
/// ```
public struct AmplitudeLimits: Sendable, Hashable {
    /// The longest string value. Default 1,024.
    public var maximumStringLength: Int

    /// Creates limits; the default is Amplitude's documented value.
    public init(maximumStringLength: Int = 1024) {
        self.maximumStringLength = maximumStringLength
    }

    /// Amplitude's documented limits.
    public static let `default` = AmplitudeLimits()
}
