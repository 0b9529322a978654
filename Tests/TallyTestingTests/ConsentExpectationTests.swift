import Foundation
import Tally
import TallyTestSupport
import TallyTesting
import Testing

/// `.sentWithoutConsent`: what reached a destination while the user had denied its purpose or not
/// answered, read from each envelope's consent, at the caller's line.
@Suite(.exhaustive) struct ConsentExpectationTests {
    private func envelope(_ event: Event, consent: DeliveredConsent?, sequence: UInt64 = 1) -> Envelope {
        Envelope(
            event: event, messageId: MessageID(prefix: 1, sequence: sequence),
            timestamp: Date(timeIntervalSince1970: 0), anonymousId: "a", consent: consent)
    }

    @Test func aClientThatHoldsEventsUntilTheUserAgreesSendsNothingWithoutConsent() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(
            destinations: [memory], configuration: .init(consentRequired: [.analytics, .advertising]))
        analytics.track("opened")
        analytics.track(Event("ad_clicked").needing(.advertising))
        analytics.setConsent(.granted, for: .analytics)
        analytics.setConsent(.denied, for: .advertising)
        await analytics.flush()
        memory.expectNotTracked(.sentWithoutConsent)
        memory.expectNotTracked(.sentWithoutConsent(for: [.analytics, .advertising]))
        memory.expectEvents([Event("opened")])
    }

    @Test func anEventThatBypassedTheGateFailsWithItsAnswer() {
        let memory = InMemoryDestination()
        memory.isExhaustive = false
        memory.log.append(envelope(Event("opened"), consent: .granted))
        memory.log.append(
            envelope(Event("ad_clicked", ["campaign": "spring"]).needing(.advertising), consent: .notAsked, sequence: 2)
        )
        memory.log.append(envelope(Event("shared"), consent: .denied, sequence: 3))
        expectOneIssue(
            containing: [
                "Expected any event sent without consent for its purpose not to have been tracked, but 2 matching events were.",
                #"[1] track ad_clicked {"campaign":"spring"} (for advertising), delivered with consent not_asked"#,
                "[2] track shared, delivered with consent denied",
                "Recorded (3):",
            ], atLine: #line + 2
        ) {
            memory.expectNotTracked(.sentWithoutConsent)
        }
        #expect(memory.expectCount(2, of: .sentWithoutConsent))
        #expect(EventMatcher.sentWithoutConsent.matches(memory.envelopes[1]))
        #expect(!EventMatcher.sentWithoutConsent.matches(memory.envelopes[0]))
        // An event alone says nothing about how it was delivered.
        #expect(!EventMatcher.sentWithoutConsent.matches(Event("shared")))
    }

    /// The usual regression: the client is not told that a purpose needs consent, so it sends the
    /// purpose's events without asking. Only the purposes the plan gates say it is wrong.
    @Test func aPurposeTheClientForgotToGateIsCaughtByTheRequiredPurposes() async {
        let memory = InMemoryDestination()
        memory.isExhaustive = false
        let analytics = AnalyticsClient(
            destinations: [memory], configuration: .init(consentRequired: [.advertising]))
        analytics.track("opened")
        analytics.track(Event("receipt_sent").needing(.necessary))
        await analytics.flush()
        #expect(memory.expectNotTracked(.sentWithoutConsent))
        expectOneIssue(
            containing: [
                "Expected any event for advertising, analytics sent without the user's grant not to have been tracked, but 1 matching event was.",
                "[0] track opened, delivered with consent not_required",
            ], atLine: #line + 2
        ) {
            memory.expectNotTracked(.sentWithoutConsent(for: [.analytics, .advertising]))
        }
    }

    /// A client that uses no consent records none; the required purposes still catch what it sends.
    @Test func aClientWithoutConsentIsCaughtByTheRequiredPurposesToo() async {
        let memory = InMemoryDestination()
        memory.isExhaustive = false
        let analytics = AnalyticsClient(destinations: [memory])
        analytics.track("opened")
        await analytics.flush()
        #expect(memory.expectNotTracked(.sentWithoutConsent))
        expectOneIssue(
            containing: ["[0] track opened, delivered with no consent recorded"], atLine: #line + 1
        ) { memory.expectNotTracked(.sentWithoutConsent(for: [.analytics])) }
    }

    /// A plan without `consent:` has no required purpose, and `sentWithoutConsent(for: [])` matches nothing:
    /// rather than pass whatever was sent, an expectation given it fails at its line, saying why.
    @Test func namingNoPurposeFailsAtTheLineInsteadOfPassing() {
        let memory = InMemoryDestination()
        memory.isExhaustive = false
        memory.log.append(envelope(Event("opened"), consent: .notAsked))
        let required: Set<ConsentPurpose> = []  // the consentRequired of a plan with no `consent:`
        let explained = [
            "sentWithoutConsent(for:) names no purpose: it matches nothing", "give it the purposes that need consent",
        ]
        var held = true
        expectOneIssue(containing: explained, atLine: #line + 1) {
            held = memory.expectNotTracked(.sentWithoutConsent(for: required))
        }
        #expect(!held)
        // Combined with another matcher, it still matches nothing, and still says so.
        expectOneIssue(containing: explained, atLine: #line + 1) {
            memory.expectCount(0, of: EventMatcher.named("opened").and(.sentWithoutConsent(for: required)))
        }
        #expect(!EventMatcher.sentWithoutConsent(for: required).matches(memory.envelopes[0]))
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func itCombinesWithOtherMatchersAndWaits() async {
        let memory = InMemoryDestination()
        memory.log.append(envelope(Event("ad_clicked").needing(.advertising), consent: .denied))
        memory.log.append(envelope(Event("opened"), consent: .notAsked, sequence: 2))
        #expect(await memory.waitForCount(2, of: .sentWithoutConsent, timeout: .seconds(5)))
        #expect(memory.expectCount(1, of: EventMatcher.purpose(.advertising).and(.sentWithoutConsent)))
        #expect(memory.expectTracked(EventMatcher.named("opened").and(.sentWithoutConsent)))
    }

    @Test func aRecordingKeepsTheAnswerForTheSameExpectations() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("app.jsonl")
        let lines =
            Record(envelope: envelope(Event("opened"), consent: .granted)).line
            + Record(envelope: envelope(Event("ad_clicked").needing(.advertising), consent: .notAsked, sequence: 2))
            .line
        try Data(lines).write(to: url)
        let recording = RecordingReader(url: url)
        recording.isExhaustive = false
        expectOneIssue(
            containing: ["[1] track ad_clicked (for advertising), delivered with consent not_asked"], atLine: #line + 1
        ) { recording.expectNotTracked(.sentWithoutConsent) }
        #expect(recording.log.envelopes.map(\.consent) == [.granted, .notAsked])
    }

    @Test func spiesSeeWhatTheAppSaidSoNothingTheyRecordMatches() {
        let spy = AnalyticsSpy()
        spy.track(Event("ad_clicked").needing(.advertising))
        #expect(spy.expectNotTracked(.sentWithoutConsent))
        spy.expectTracked(Event("ad_clicked").needing(.advertising))
    }
}
