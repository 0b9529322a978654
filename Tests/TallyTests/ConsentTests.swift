import Foundation
import Tally
import TallyTesting
import Testing

/// Consent per purpose: events wait for the user's answer in a bounded hold, go on when granted, are
/// dropped when denied, and reach only the destinations allowed their purpose.
@Suite struct ConsentTests {
    private func client(
        _ destinations: [any Destination], required: Set<ConsentPurpose> = [.analytics],
        store: any ConsentStore = InMemoryConsentStore(), capacity: Int = 1000,
        purposes: [String: Set<ConsentPurpose>] = [:]
    ) -> AnalyticsClient {
        AnalyticsClient(
            destinations: destinations,
            configuration: .init(
                consentRequired: required, consentStore: store, consentHoldCapacity: capacity,
                purposesByDestination: purposes))
    }

    @Test func eventsWaitUntilTheUserAgreesThenGoAheadOfLaterOnesInOrder() async {
        let memory = InMemoryDestination()
        let analytics = client([memory])
        #expect(analytics.consent(for: .analytics) == .notAsked)
        analytics.track("opened")
        analytics.track("browsed")
        await analytics.flush()
        #expect(memory.events.isEmpty)
        #expect(analytics.statistics.heldForConsent == 2)
        #expect(analytics.statistics.accounted(at: "memory") == 2)

        analytics.setConsent(.granted, for: .analytics)
        analytics.track("bought")
        await analytics.flush()
        #expect(memory.events.map(\.name) == ["opened", "browsed", "bought"])
        #expect(analytics.statistics.heldForConsent == 0)
        #expect(analytics.statistics.accounted(at: "memory") == 3)
        #expect(analytics.consent(for: .analytics) == .granted)
    }

    @Test func aDenialDropsWhatWaitsAndWhatFollowsWithItsReason() async {
        let memory = InMemoryDestination()
        let analytics = client([memory])
        analytics.track("opened")
        analytics.setConsent(.denied, for: .analytics)
        analytics.track("browsed")
        await analytics.flush()
        #expect(memory.events.isEmpty)
        #expect(analytics.statistics.dropped == [.consentDenied: 2])
        #expect(analytics.statistics.heldForConsent == 0)
        #expect(analytics.statistics.accounted(at: "memory") == 2)
    }

    @Test func eachPurposeWaitsForItsOwnAnswer() async {
        let memory = InMemoryDestination()
        let analytics = client([memory], required: [.analytics, .advertising])
        analytics.track("opened")
        analytics.track(Event("ad_clicked").needing(.advertising))
        analytics.track(Event("signed_in").needing(.necessary))
        await analytics.flush()
        #expect(memory.events.map(\.name) == ["signed_in"])

        analytics.setConsent(.granted, for: .analytics)
        await analytics.flush()
        #expect(memory.events.map(\.name) == ["signed_in", "opened"])
        #expect(analytics.statistics.heldForConsent == 1)

        analytics.setConsent(.denied, for: .advertising)
        await analytics.flush()
        #expect(memory.events.map(\.name) == ["signed_in", "opened"])
        #expect(analytics.statistics.dropped == [.consentDenied: 1])
        #expect(analytics.statistics.heldForConsent == 0)
    }

    @Test func aPurposeNotRequiredFlowsUntilTheUserDeniesIt() async {
        let memory = InMemoryDestination()
        let analytics = client([memory], required: [])
        analytics.track(Event("ad_clicked").needing(.advertising))
        analytics.setConsent(.denied, for: .advertising)
        analytics.track(Event("ad_clicked_again").needing(.advertising))
        analytics.track("opened")
        await analytics.flush()
        #expect(memory.events.map(\.name) == ["ad_clicked", "opened"])
        #expect(analytics.statistics.dropped == [.consentDenied: 1])
    }

    @Test func theHoldIsBoundedKeepsTheEarliestAndCountsEveryDrop() async throws {
        let memory = InMemoryDestination()
        let analytics = client([memory], capacity: 3)
        for index in 0..<10 { analytics.track("e\(index)") }
        await analytics.flush()
        var statistics = analytics.statistics
        #expect(statistics.heldForConsent == 3)
        #expect(statistics.dropped == [.consentHoldFull: 7])
        let problem = try #require(statistics.recentProblems.only)
        #expect(problem.code == .consentHoldFull)
        #expect(problem.eventName == "e3")
        #expect(problem.outcome == .dropped)

        analytics.setConsent(.granted, for: .analytics)
        await analytics.flush()
        #expect(memory.events.map(\.name) == ["e0", "e1", "e2"])
        statistics = analytics.statistics
        #expect(statistics.accounted(at: "memory") == statistics.tracked)
    }

    @Test func whatStillWaitsAtShutdownIsDroppedAndCounted() async {
        let memory = InMemoryDestination()
        let analytics = client([memory])
        analytics.track("opened")
        await analytics.shutdown()
        #expect(memory.events.isEmpty)
        #expect(analytics.statistics.dropped == [.consentNotGiven: 1])
        #expect(analytics.statistics.heldForConsent == 0)
    }

    @Test func whatWaitsWhenTheUserSignsOutIsDroppedNotFiledUnderTheNextUser() async {
        let memory = InMemoryDestination()
        let analytics = client([memory])
        analytics.identify(userId: "user-42")
        analytics.track("opened")
        analytics.track("browsed")
        analytics.reset()
        analytics.track("welcome_shown")
        analytics.setConsent(.granted, for: .analytics)
        await analytics.flush()
        #expect(memory.events.map(\.name) == ["welcome_shown"])
        #expect(memory.envelopes.allSatisfy { $0.userId == nil })
        #expect(memory.resetCount == 1)
        let statistics = analytics.statistics
        #expect(statistics.dropped == [.resetWhileHeld: 3])
        #expect(statistics.heldForConsent == 0)
        #expect(statistics.accounted(at: "memory") == statistics.tracked)
    }

    @Test func aDestinationReceivesOnlyThePurposesItIsAllowed() async {
        let product = InMemoryDestination(name: "product")
        let ads = InMemoryDestination(name: "ads")
        let analytics = client(
            [product, ads], required: [], purposes: ["product": [.analytics], "ads": [.advertising]])
        analytics.track("opened")
        analytics.track(Event("ad_clicked").needing(.advertising))
        await analytics.flush()
        #expect(product.events.map(\.name) == ["opened"])
        #expect(ads.events.map(\.name) == ["ad_clicked"])
        let statistics = analytics.statistics
        #expect(statistics.destinations["product"]?.dropped == [.purposeNotAllowed: 1])
        #expect(statistics.destinations["ads"]?.dropped == [.purposeNotAllowed: 1])
        #expect(statistics.accounted(at: "product") == 2)
        #expect(statistics.accounted(at: "ads") == 2)
    }

    @Test func answersAreSavedAndTheNextLaunchStartsWithThem() async {
        let store = InMemoryConsentStore()
        let first = client([InMemoryDestination()], store: store)
        first.setConsent(.granted, for: .analytics)
        first.setConsent(.denied, for: .advertising)
        #expect(store.load() == [.analytics: .granted, .advertising: .denied])
        await first.shutdown()

        let memory = InMemoryDestination()
        let next = client([memory], required: [.analytics, .advertising], store: store)
        #expect(next.consent(for: .analytics) == .granted)
        #expect(next.consent(for: .advertising) == .denied)
        next.track("opened")
        next.track(Event("ad_clicked").needing(.advertising))
        await next.flush()
        #expect(memory.events.map(\.name) == ["opened"])
        #expect(next.statistics.dropped == [.consentDenied: 1])
    }

    @Test func anOptOutStillStopsEventsReleasedByConsent() async {
        let memory = InMemoryDestination()
        let analytics = client([memory])
        analytics.track("opened")
        analytics.optOut()
        analytics.optIn()
        analytics.setConsent(.granted, for: .analytics)
        await analytics.flush()
        #expect(memory.events.isEmpty)
        #expect(analytics.statistics.destinations["memory"]?.dropped == [.optedOut: 1])
    }

    @Test(arguments: [(UInt(0), ConsentStatus.notAsked), (1, .denied), (2, .denied), (3, .granted), (9, .denied)])
    func appTrackingTransparencyAnswersMapOntoConsent(_ raw: UInt, _ status: ConsentStatus) {
        #expect(ConsentStatus(trackingAuthorizationStatus: raw) == status)
    }

    @Test func aPurposeTravelsInRecordsAndInJSON() throws {
        let event = Event("ad_clicked", ["campaign": "spring"]).needing(.advertising)
        let record = Record(envelope: envelope(event))
        let line = String(decoding: record.line, as: UTF8.self)
        #expect(line.contains(#""purpose":"advertising""#))
        #expect(try Record(line: record.line).event == event)
        let streamed = try record.line.withUnsafeBufferPointer { try Record.event(fromLine: $0) }
        #expect(streamed == event)
        #expect(try JSONDecoder().decode(Event.self, from: JSONEncoder().encode(event)) == event)

        // The default purpose is left out, so records and JSON of other events read as before.
        let plain = Record(envelope: envelope(Event("opened")))
        #expect(!String(decoding: plain.line, as: UTF8.self).contains("purpose"))
        #expect(try Record(line: plain.line).event.purpose == .analytics)
    }

    @Test(arguments: [#""purpose":"""#, #""purpose":7"#])
    func aRecordWithABadPurposeIsRefused(_ member: String) {
        let line = Array(#"{"tally_record":1,"kind":"track","name":"a",\#(member)}"#.utf8)
        #expect(throws: RecordError(#""purpose" must be a purpose's name, such as "advertising""#)) {
            try Record(line: line)
        }
        #expect(throws: RecordError(#""purpose" must be a purpose's name, such as "advertising""#)) {
            try line.withUnsafeBufferPointer { try Record.event(fromLine: $0) }
        }
    }
}
