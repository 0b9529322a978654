// Stand-in for Segment's analytics-swift 1.10.0 (tag 1.10.0): the public type names it shares with Tally's
// (`SegmentDestination`, `DropReason`), as declared in Sources/Segment/Plugins/SegmentDestination.swift and
// Sources/Segment/Utilities/Retry/RetryTypes.swift. Only the names, the kind and the cases; the plugin
// protocols SegmentDestination conforms to are left out.

/// Segment's own destination plugin, which sends to Segment's API. It has no public initializer (it is
/// added by the SDK itself).
public class SegmentDestination {}

/// Why Segment's retry logic dropped a batch.
public enum DropReason: String, Codable {
    case maxRetriesExceeded
    case maxDurationExceeded
    case nonRetryableError
}
