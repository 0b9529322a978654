#if Collector
import Foundation
import Tally
@testable import TallyCollector
import TallyPlan
import TallyTesting
import Testing

/// A session read back from the collector proves consent and plan rules as a destination's recorder
/// does: its envelopes carry the consent their client delivered them with and their purpose, and its log
/// keeps each record's stage.
@Suite("CollectorReader: consent, purpose and stage", .timeLimit(.minutes(1)))
struct CollectorReaderConsentTests {
    /// Posts Tally record lines to the collector for `session`, as `CollectorRecordingSink` does.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    static func post(_ lines: [UInt8], to collector: Collector, session: String) async throws {
        let answer = try await HTTP.send(
            "POST", collector.url.appendingPathComponent("tally/records"), body: Data(lines),
            headers: [CollectorReader.sessionHeader: session])
        #expect(answer.status == 200)
    }

    /// The app forgot to gate analytics (its client asks only for advertising), and a wrapper that bypasses
    /// the client sent an ad click the user had refused: both are caught on what the collector received.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func sentWithoutConsentCatchesWhatLeftWithoutTheUsersGrant() async throws {
        try await withLiveCollector { collector in
            let reader = CollectorReader(url: collector.url)
            var configuration = AnalyticsClient.Configuration()
            configuration.consentRequired = [.advertising]
            let analytics = AnalyticsClient(
                destinations: [RecordingDestination.collector(collector.url, session: reader.session, source: "app")],
                configuration: configuration)
            analytics.track("app_opened")
            await analytics.flush()
            try await Self.post(
                ConsentAndStageTests.line(Event("ad_clicked").needing(.advertising), consent: .denied, sequence: 1),
                to: collector, session: reader.session)
            #expect(await reader.waitForCount(2))

            #expect(reader.log.envelopes.map(\.consent) == [.notRequired, .denied])
            #expect(reader.recordedEvents.map(\.purpose) == [.analytics, .advertising])
            let ungranted = issues { reader.expectNotTracked(.sentWithoutConsent(for: [.analytics, .advertising])) }
            #expect(ungranted.count == 1)
            #expect(ungranted.first?.message.contains("but 2 matching events were") == true)
            #expect(
                ungranted.first?.message.contains("[0] track app_opened, delivered with consent not_required") == true)
            let refused = issues { reader.expectNotTracked(.sentWithoutConsent) }
            #expect(refused.count == 1)
            #expect(refused.first?.message.contains("but 1 matching event was") == true)
            #expect(
                refused.first?.message.contains("[1] track ad_clicked (for advertising), delivered with consent denied")
                    == true)
            reader.expectTracked(.purpose(.advertising))
        }
    }

    /// A client that waited for the user's grant: nothing it delivered matches.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aSessionDeliveredWithTheUsersGrantPasses() async throws {
        try await withLiveCollector { collector in
            let reader = CollectorReader(url: collector.url)
            var configuration = AnalyticsClient.Configuration()
            configuration.consentRequired = [.analytics, .advertising]
            let analytics = AnalyticsClient(
                destinations: [RecordingDestination.collector(collector.url, session: reader.session, source: "app")],
                configuration: configuration)
            analytics.track("app_opened")  // held until the answer
            analytics.setConsent(.granted, for: .analytics)
            analytics.setConsent(.granted, for: .advertising)
            analytics.track(Event("ad_clicked", ["campaign": "spring"]).needing(.advertising))
            await analytics.flush()
            #expect(await reader.waitForCount(2))

            #expect(reader.log.envelopes.map(\.consent) == [.granted, .granted])
            let ungranted = issues { reader.expectNotTracked(.sentWithoutConsent(for: [.analytics, .advertising])) }
            #expect(ungranted.map(\.message) == [])
            let refused = issues { reader.expectNotTracked(.sentWithoutConsent) }
            #expect(refused.map(\.message) == [])
        }
    }

    /// A spy's record (stage tracked) posted to the collector is judged as the spy's own events are: the
    /// plan's personal-data rules apply first; the same event as a destination delivered it is a violation.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func expectValidJudgesASpysRecordsAsTracked() async throws {
        try await withLiveCollector { collector in
            let reader = CollectorReader(url: collector.url)
            let signedUp = Event("signed_up", ["email": "ada@example.com"])
            try await Self.post(
                ConsentAndStageTests.line(signedUp, stage: .tracked, sequence: 1), to: collector,
                session: reader.session)
            try await reader.refresh()
            let tracked = issues { reader.expectValid(against: ConsentAndStageTests.plan) }
            #expect(tracked.map(\.message) == [])

            try await Self.post(
                ConsentAndStageTests.line(signedUp, sequence: 2), to: collector, session: reader.session)
            try await reader.refresh()
            let delivered = issues { reader.expectValid(against: ConsentAndStageTests.plan) }
            #expect(delivered.count == 1)
            #expect(delivered.first?.message.contains("1 violation was found") == true)
            #expect(delivered.first?.message.contains("[1] track signed_up") == true)
        }
    }
}
#endif
