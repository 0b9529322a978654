/// Segment's documented limits, and the rule ``SegmentDestination`` applies to each.
///
/// Segment's API rejects a message larger than 32 KB, after the SDK has queued it and the app has moved
/// on. Tally measures each message before handing it over and drops one that is too large, with one
/// ``Problem`` with code ``Problem/Code/vendorLimit`` that the client counts.
///
/// | input | outcome | problem |
/// |---|---|---|
/// | a message whose JSON is larger than ``maximumMessageBytes`` (32,768 bytes) | the event is dropped | dropped, no path (the whole event); counted as ``DropReason/rejected`` |
///
/// What is measured is the compact UTF-8 JSON of what the destination hands to Segment, in Segment's
/// field names: `{"type": "track", "event": name, "properties": {…}}` for a track event, `name` for a
/// screen, `userId` and `traits` for identify, `groupId` and `traits` for group, `userId` and
/// `previousId` for alias. Segment's SDK then adds its own fields (message id, timestamps, anonymous id,
/// and a `context` of device, app and library facts, usually one or two kilobytes). Lower the limit
/// to leave room for them when your events come close:
///
/// ```swift
/// SegmentDestination(adapter: segment, limits: SegmentLimits(maximumMessageBytes: 30_000))
/// ```
public struct SegmentLimits: Sendable, Hashable {
    /// The largest message, in bytes of compact UTF-8 JSON. Default 32,768 (32 KB).
    public var maximumMessageBytes: Int

    /// Creates limits; the default is Segment's documented value.
    public init(maximumMessageBytes: Int = 32 * 1024) {
        self.maximumMessageBytes = maximumMessageBytes
    }

    /// Segment's documented limits.
    public static let `default` = SegmentLimits()
}
