#if Collector
import Foundation
import Tally
@testable import TallyCollector
import TallyTesting
import Testing

/// `expectDelivered` against a real collector: what a PostHog client posted is read back through
/// `CollectorReader`, with its vendor, and compared with what the app tracked.
@Suite("Delivery comparison through a collector", .timeLimit(.minutes(1)))
struct DeliveryComparisonCollectorTests {
    static let tracked = ["Opened", "Added To Cart", "Signed Out"].enumerated().map { index, name in
        Envelope(
            event: Event(name, ["step": .int(index)]),
            messageId: MessageID(prefix: 0x7A11, sequence: UInt64(index + 1)),
            timestamp: Date(timeIntervalSince1970: 0), userId: "u1", anonymousId: "a1")
    }

    /// Posts `envelopes` the way posthog-ios would, keeping Tally's message ids as PostHog's `uuid`.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    static func sendThroughPostHog(_ envelopes: [Envelope], to collector: Collector, session: String) async throws {
        let batch = envelopes.map { envelope in
            #"{"event":"\#(envelope.event.name)","distinct_id":"u1","uuid":"\#(envelope.messageId)","properties":"#
                + #"{"step":\#(envelope.event.properties["step"]!.jsonString),"tally_session":"\#(session)","$lib":"posthog-ios"}}"#
        }
        let body = #"{"api_key":"phc","batch":[\#(batch.joined(separator: ","))]}"#
        let answer = try await HTTP.post(
            collector.url.appendingPathComponent("batch"), body, headers: ["Content-Type": "application/json"])
        #expect(answer.status == 200)
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func everythingTrackedArrivedThroughPostHog() async throws {
        try await withLiveCollector { collector in
            let reader = CollectorReader(url: collector.url)
            try await Self.sendThroughPostHog(Self.tracked, to: collector, session: reader.session)
            let comparison = try await expectDelivered(Self.tracked, to: reader, source: "posthog")
            #expect(comparison.matchedById == 3)
            #expect(Set(reader.arrivals.map(\.vendor)) == ["posthog"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func anEventTheSDKDroppedFailsTheCheck() async throws {
        try await withLiveCollector { collector in
            let reader = CollectorReader(url: collector.url)
            try await Self.sendThroughPostHog(Array(Self.tracked.prefix(2)), to: collector, session: reader.session)
            try await reader.refresh()
            withKnownIssue {
                expectDelivered(Self.tracked, arrived: reader.arrivals)
            } matching: { issue in
                issue.comments.map(\.rawValue).joined().contains(#"missing: track "Signed Out""#)
            }
        }
    }
}
#endif
