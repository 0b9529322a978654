import Foundation

/// Segment's documented limits, what Segment's SDK cannot encode, and the rule ``SegmentDestination``
/// applies to each.
///
/// Segment's API rejects a message larger than 32 KB, after the SDK has queued it and the app has moved
/// on; and Segment's SDK (`analytics-swift`) turns every number into a `Decimal` through
/// `NSNumber.decimalValue`, which is NaN for a double too large or too small in magnitude, and writes it
/// as a bare `NaN`: the request body is then not JSON, the API answers 400, and the SDK deletes the whole
/// batch. Tally checks each message before handing it over.
///
/// | input | outcome | problem |
/// |---|---|---|
/// | a message whose JSON as the SDK writes it (below), with ``sdkOverheadBytes`` (2,048) added, is larger than ``maximumMessageBytes`` (32,768 bytes) | the event is dropped | dropped, no path (the whole event); counted as ``DropReason/rejected`` |
/// | a non-zero double whose magnitude is below ``smallestDoubleMagnitude`` (`1e-108`) or above ``largestDoubleMagnitude`` (`1e146`), at any depth | the value is removed (a member from its object, an element from its array) | sanitized, path to the value (`/properties/list/2`) |
/// | a big number a `Decimal` does not hold exactly (more than 38 digits, or a power of ten beyond ±127) | converted to the nearest double when that is within the bounds above, else removed | sanitized, path to the value |
/// | an integer beyond ±2^53 that the SDK would change on this platform (on Linux its `NSNumber.decimalValue` goes through a double: `9007199254740993` is sent as `9007199254740992`, `Int.max` as `9223372036854775808`) | converted to the value the SDK sends, so that what Tally records and reports is what Segment receives | sanitized, path to the value; send identifiers this large as strings |
///
/// Why remove the out-of-range doubles rather than send them as text: a number that became a string
/// would reach the warehouse as a string in a numeric column, and values this far out (beyond `1e146`
/// or within `1e-108` of zero) are almost always a bug upstream (a division by a tiny value, an
/// uninitialised reading); the problem names the property so it can be fixed where it starts.
///
/// The bounds are where `NSNumber.decimalValue` stops working on every platform: swift-corelibs-foundation
/// (Linux) gives NaN from about `1.8e146` up and `1.8e-109` down (a 64-bit significand times a power of
/// ten of at most 127, at least -128); Apple's Foundation holds up to about `1e150` and down to about
/// `1e-127`. Zero is fine.
///
/// What is measured is the UTF-8 JSON of what the destination hands to Segment, in Segment's field names
/// (`{"type": "track", "event": name, "properties": {…}}` for a track event, `name` for a screen, `userId`
/// and `traits` for identify, `groupId` and `traits` for group, `userId` and `previousId` for alias),
/// written the way the SDK writes it: compact, every `/` escaped as `\/` (a URL grows by one byte per
/// slash), and every number as the `Decimal` that `NSNumber.decimalValue` gives on the platform, with all
/// its digits (`1e100` takes 101 bytes, `1e-100` 121; on Linux `123456789.123` becomes
/// `123456789.1230000128`, and an integer from 2^23 up gains a fraction, `123456789012345` becoming
/// `123456789012344.99584`: swift-corelibs-foundation converts through an imprecise path; Tally measures
/// this but leaves such integers as they are). Segment's SDK then adds its own fields, which ``sdkOverheadBytes`` stands
/// for: a message id and an anonymous id (UUIDs), timestamps, `integrations`, and a `context` its
/// plugins fill on iOS with `library`, `app` (name, version, build, bundle id), `device` (manufacturer,
/// type, model, name, vendor id, and push token when set), `os`, `screen`, `network`, `locale`,
/// `timezone`, `instanceId` and the `userAgent`: about 1 KB on an iPhone (over 600 bytes on Linux). The
/// default of 2,048 bytes leaves twice that, for long app names and context your own plugins add; raise
/// it if they add more:
///
/// ```swift
/// let destination = SegmentDestination(adapter: segment, limits: SegmentLimits(sdkOverheadBytes: 4_096))
/// ```
public struct SegmentLimits: Sendable, Hashable {
    /// The largest message, in bytes of compact UTF-8 JSON. Default 32,768 (32 KB).
    public var maximumMessageBytes: Int
    /// The bytes kept free in each message for the fields Segment's SDK adds. Default 2,048.
    public var sdkOverheadBytes: Int

    /// The largest magnitude of a double Segment's SDK encodes on every platform: `1e146`.
    public static let largestDoubleMagnitude = 1e146
    /// The smallest non-zero magnitude of a double Segment's SDK encodes on every platform: `1e-108`.
    public static let smallestDoubleMagnitude = 1e-108

    /// Creates limits; the defaults are Segment's documented limit and room for the SDK's fields.
    public init(maximumMessageBytes: Int = 32 * 1024, sdkOverheadBytes: Int = 2 * 1024) {
        self.maximumMessageBytes = maximumMessageBytes
        self.sdkOverheadBytes = sdkOverheadBytes
    }

    /// Segment's documented limits.
    public static let `default` = SegmentLimits()

    /// Whether Segment's SDK encodes `double` as a number.
    static func encodes(_ double: Double) -> Bool {
        double == 0 || (smallestDoubleMagnitude...largestDoubleMagnitude).contains(double.magnitude)
    }

    /// The rule for one value: see the table above.
    static func numberRule(_ value: PropertyValue) -> VendorRules.ValueFix {
        switch value {
        case .double(let double) where !encodes(double):
            return .remove(
                "its SDK cannot encode \(double) (it would send NaN and lose the batch); the value was removed")
        case .int(let int) where Int64(int).magnitude > UInt64(1) << 53:
            // Beyond 2^53 the SDK's `NSNumber.decimalValue` may go through a double (it does on Linux).
            let sent = NSNumber(value: int).decimalValue
            guard sent.description != String(int), let arrives = PropertyValue(decimal: sent) else { return .keep }
            return .replace(
                arrives,
                "its SDK sends \(int) as \(sent) (a double holds integers exactly only up to 2^53); it was converted to \(sent), so that what Tally reports is what Segment receives: send identifiers this large as strings"
            )
        case .bigNumber(let number) where number.exactDecimal == nil:
            let double = number.doubleValue
            guard double.isFinite, encodes(double) else {
                return .remove("its SDK cannot encode \(VendorRules.quoted(number.text)); the value was removed")
            }
            return .replace(
                .double(double),
                "its SDK cannot encode \(VendorRules.quoted(number.text)) exactly; it was converted to \(double)")
        default:
            return .keep
        }
    }
}
