/// The calls ``SegmentDestination`` makes, mirroring Segment's Swift SDK (`analytics-swift`).
///
/// These are the untyped `[String: Any]` forms of Segment's calls, which its `Analytics` class has with
/// exactly these signatures (the default arguments do not matter to a conformance), so the conformance
/// is empty:
///
/// ```swift
/// import Segment
/// import Tally
///
/// extension Segment.Analytics: @retroactive SegmentAdapter {}
///
/// let segment = Tally.SegmentDestination(adapter: Segment.Analytics(configuration: Configuration(writeKey: key)))
/// ```
///
/// Segment's SDK has a `SegmentDestination` (its own upload plugin) and a `DropReason` too, so in a file
/// that imports both modules write `Tally.SegmentDestination` and `Tally.DropReason` (see "Names a vendor
/// SDK shares" in the Vendor adapters article). Tally's client is `AnalyticsClient`, so Segment's
/// `Analytics` needs no qualification.
///
/// The protocol is not `Sendable`, like the SDK; ``SegmentDestination`` calls it from one thread at a
/// time.
public protocol SegmentAdapter {
    /// Tracks an event: Segment's `track(name:properties:)`.
    ///
    /// - Parameters:
    ///   - name: the event name.
    ///   - properties: JSON-like Foundation values, or nil when the event has none.
    func track(name: String, properties: [String: Any]?)

    /// Tracks a screen view: Segment's `screen(title:category:properties:)`.
    func screen(title: String, category: String?, properties: [String: Any]?)

    /// Says who the user is: Segment's `identify(userId:traits:)`.
    func identify(userId: String, traits: [String: Any]?)

    /// Puts the user in a group: Segment's `group(groupId:traits:)`.
    func group(groupId: String, traits: [String: Any]?)

    /// Gives the current user a new id: Segment's `alias(newId:)`.
    func alias(newId: String)

    /// Forgets the user: Segment's `reset()`, which clears the user id and traits and starts a new
    /// anonymous id.
    func reset()
}
