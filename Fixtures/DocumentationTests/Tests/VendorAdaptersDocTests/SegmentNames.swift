// "Names a vendor SDK shares": a file that imports Tally and Segment (analytics-swift 1.10.0) names
// `SegmentDestination` and `DropReason` with their module, and SegmentAdapter's doc comment's setup compiles
// in that form. Unqualified, each is ambiguous (Fixtures/DocumentationTests/check-name-clashes proves it).

import Segment
import Tally

func makeSegmentDestination(key: String) -> Tally.SegmentDestination {
    let segment = Tally.SegmentDestination(adapter: Segment.Analytics(configuration: Configuration(writeKey: key)))
    return segment
}

/// Segment's own plugin, which the SDK adds itself.
func segmentsOwnDestination() -> Segment.SegmentDestination.Type { Segment.SegmentDestination.self }

func isRejected(_ reason: Tally.DropReason) -> Bool { reason == .rejected }

func isRetryable(_ reason: Segment.DropReason) -> Bool { reason != .nonRetryableError }
