#if Collector
import Foundation
import Hummingbird
import HummingbirdTesting
import Tally
@testable import TallyCollector
import TallyPlan
import TallyTestSupport
import TallyTesting
import Testing

/// A vendor's format names no purpose. A collector with a plan gives such an event its planned event's
/// purpose on arrival and stores it, so that no gate reports a purpose mismatch for a purpose nobody said:
/// not its own validation on ingest, not `GET /tally/records` read by `tally validate`, not
/// `CollectorReader.expectValid(against:)` (issue 33). A purpose a Tally record says is still judged.
@Suite("A vendor event's purpose", .timeLimit(.minutes(1)))
struct VendorPurposeTests {
    /// `ad_clicked` (planned for advertising) in each vendor format, tagged with `session`, then
    /// `app_opened` (analytics) and an event the plan does not have, through Segment's API.
    static func vendorEvents(session: String) -> [(route: String, body: String, form: Bool)] {
        let segmentSession = #","context":{"tally_session":"\#(session)"}"#
        return [
            ("/v1/track", trackJSON("ad_clicked", extra: segmentSession), false),
            (
                "/capture/",
                #"{"api_key":"k","event":"ad_clicked","distinct_id":"d1","properties":{"tally_session":"\#(session)"}}"#,
                false
            ),
            (
                "/2/httpapi",
                #"{"api_key":"k","events":[{"event_type":"ad_clicked","user_id":"u","event_properties":{"tally_session":"\#(session)"}}]}"#,
                false
            ),
            (
                "/track",
                VendorIngestTests.mixpanelData(
                    #"{"event":"ad_clicked","properties":{"distinct_id":"u1","token":"t","tally_session":"\#(session)"}}"#
                ), true
            ),
            ("/v1/track", trackJSON("app_opened", extra: segmentSession), false),
            ("/v1/track", trackJSON("unplanned", extra: segmentSession), false),
        ]
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    static func post(_ events: [(route: String, body: String, form: Bool)], to collector: RouterHarness) async throws {
        for event in events {
            let (status, _) = try await collector.post(
                event.route, event.body, headers: event.form ? VendorIngestTests.form : [:])
            #expect(status == .ok, "\(event.route)")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func onIngestAVendorEventTakesItsPlannedPurposeAndIsValid() async throws {
        try await RouterHarness.run(plan: ConsentAndStageTests.plan) { collector in
            try await Self.post(Self.vendorEvents(session: "ads"), to: collector)
            // A Tally record says its purpose: one other than the plan's is still a mismatch.
            let said = ConsentAndStageTests.line(Event("ad_clicked"), sequence: 1)
            var header = HTTPFields()
            header[CollectorRoutes.sessionHeader] = "ads"
            #expect(try await collector.send(.post, "/tally/records", body: said, headers: header).status == .ok)

            let events = try await collector.events("session=ads")
            #expect(
                events.map { $0["source"] } == [
                    "segment", "posthog", "amplitude", "mixpanel", "segment", "segment", "tally",
                ])
            #expect(
                events.map { $0["purpose"] } == [
                    "advertising", "advertising", "advertising", "advertising", "analytics", .null, "analytics",
                ])
            let kinds = events.map { event in
                (event["violations"]?.arrayValue ?? []).compactMap { $0["kind"]?.stringValue }
            }
            #expect(kinds == [[], [], [], [], [], ["unknownEvent"], ["purposeMismatch"]])
        }
    }

    /// `GET /tally/records` exports the stored purpose, so `tally validate` judges the session as the
    /// collector did.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func theExportedSessionPassesTallyValidate() async throws {
        let folder = try TemporaryFolder()
        let plan = folder.file("tracking-plan.yaml")
        try ConsentAndStageTests.planText.write(to: plan, atomically: true, encoding: .utf8)
        let session = folder.file("ads.jsonl")
        try await RouterHarness.run(plan: ConsentAndStageTests.plan) { collector in
            try await Self.post(Array(Self.vendorEvents(session: "ads").dropLast()), to: collector)
            let (status, lines) = try await collector.client.execute(
                uri: "/tally/records?session=ads", method: .get, headers: [:], body: nil
            ) { response in (response.status, Array(response.body.readableBytesView)) }
            #expect(status == .ok)
            let records = try lines.split(separator: UInt8(ascii: "\n")).map { try Record(line: $0) }
            #expect(
                records.map(\.event.purpose) == [.advertising, .advertising, .advertising, .advertising, .analytics])
            try Data(lines).write(to: session)
        }
        let validate = PlanTool.validate(planPath: plan.path, recordings: [session.path])
        #expect(validate.exitCode == 0, "\(validate.standardOutput)")
        #expect(validate.standardOutput == "Checked 5 events from 1 recording: every event is valid\n")
    }

    /// `CollectorReader` reads the stored purpose, so `expectValid(against:)` on the session passes.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func collectorReaderExpectValidPasses() async throws {
        try await withLiveCollector(Collector.Configuration(plan: ConsentAndStageTests.plan)) { collector in
            let reader = CollectorReader(url: collector.url)
            let segment = trackJSON("ad_clicked", extra: #","context":{"tally_session":"\#(reader.session)"}"#)
            let postedToSegment = try await HTTP.post(collector.url.appendingPathComponent("v1/track"), segment)
            #expect(postedToSegment.status == 200)
            let posthog =
                #"{"api_key":"k","event":"ad_clicked","distinct_id":"d1","properties":{"tally_session":"\#(reader.session)"}}"#
            let postedToPostHog = try await HTTP.post(
                collector.url.appendingPathComponent("capture/"), posthog, headers: ["Content-Type": "application/json"]
            )
            #expect(postedToPostHog.status == 200)
            #expect(await reader.waitForCount(2))
            #expect(reader.recordedEvents.map(\.purpose) == [.advertising, .advertising])
            let found = issues { reader.expectValid(against: ConsentAndStageTests.plan) }
            #expect(found.map(\.message) == [])
        }
    }
}
#endif
