// VendorAdapters.md, "Segment": the SDK's errorHandler handed to a SegmentErrorReporter, with a
// `@Sendable` closure, and a test that a refused batch of the SDK's own error type becomes a problem.

import Foundation
import Segment
import Tally
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

func makeReportingSegmentDestination(key: String) -> Tally.SegmentDestination {
    let errors = SegmentErrorReporter()
    let configuration = Configuration(writeKey: key)
        .errorHandler { @Sendable error in errors.report(error) }
    return Tally.SegmentDestination(adapter: Segment.Analytics(configuration: configuration), errors: errors)
}

/// The SDK's closures, marked `@Sendable` as the docs say: they compile against the SDK's signatures.
func pointAtTheCollector(_ configuration: Configuration) {
    configuration
        .apiHost("127.0.0.1:8787/v1")
        .requestFactory { @Sendable request in
            var local = request
            local.url = request.url.flatMap {
                URL(string: $0.absoluteString.replacingOccurrences(of: "https://", with: "http://"))
            }
            return local
        }
}

@Suite struct SegmentErrorsDocTests {
    @Test func aRefusedBatchOfTheSDKIsADroppedProblem() async throws {
        let destination = makeReportingSegmentDestination(key: "key")
        let errors = try #require(destination.errors)
        let analytics = AnalyticsClient(destinations: [destination])
        analytics.track("menu_item_ordered")
        await analytics.flush()
        errors.report(AnalyticsError.batchUploadFail(.networkServerRejected(nil, 400)))
        let problem = try #require(analytics.statistics.recentProblems.last)
        #expect(problem.code == .destinationFailed)
        #expect(problem.outcome == .dropped)
        #expect(problem.message.hasSuffix("since the previous one: menu_item_ordered"))
        await analytics.shutdown()
    }
}
