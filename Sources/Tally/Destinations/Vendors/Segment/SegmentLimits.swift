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
/// | a message whose JSON, with ``sdkOverheadBytes`` (2,048) added, is larger than ``maximumMessageBytes`` (32,768 bytes) | the event is dropped | dropped, no path (the whole event); counted as ``DropReason/rejected`` |
/// | a non-zero double whose magnitude is below ``smallestDoubleMagnitude`` (`1e-108`) or above ``largestDoubleMagnitude`` (`1e146`), at any depth | the value is removed (a member from its object, an element from its array) | sanitized, path to the value (`/properties/list/2`) |
/// | a big number a `Decimal` does not hold exactly (more than 38 digits, or a power of ten beyond ±127) | converted to the nearest double when that is within the bounds above, else removed | sanitized, path to the value |
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
/// What is measured is the compact UTF-8 JSON of what the destination hands to Segment, in Segment's
/// field names: `{"type": "track", "event": name, "properties": {…}}` for a track event, `name` for a
/// screen, `userId` and `traits` for identify, `groupId` and `traits` for group, `userId` and
/// `previousId` for alias. Segment's SDK then adds its own fields, which ``sdkOverheadBytes`` stands
/// for: a message id and an anonymous id (UUIDs), timestamps, `integrations`, and a `context` its
/// plugins fill on iOS with `library`, `app` (name, version, build, bundle id), `device` (manufacturer,
/// type, model, name, vendor id, and push token when set), `os`, `screen`, `network`, `locale`,
/// `timezone`, `instanceId` and the `userAgent`: about 1 KB on an iPhone (over 600 bytes on Linux). The
/// default of 2,048 bytes leaves twice that, for long app names and context your own plugins add; raise
/// it if they add more:
///
/// ```swift
/// SegmentDestination(adapter: segment, limits: SegmentLimits(sdkOverheadBytes: 4_096))
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
