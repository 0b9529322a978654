import Foundation
import Tally
import TallyTesting
import Testing

/// ``Envelope/consent``: the user's answer for an event's purpose when the client handed it to its
/// destinations, and its place in the record format.
@Suite struct DeliveredConsentTests {
    private func client(
        _ destination: InMemoryDestination, required: Set<ConsentPurpose>,
        answers: [ConsentPurpose: ConsentStatus] = [:]
    ) -> AnalyticsClient {
        AnalyticsClient(
            destinations: [destination],
            configuration: .init(consentRequired: required, consentStore: InMemoryConsentStore(answers)))
    }

    @Test func aClientThatKnowsNothingOfConsentDeliversNoAnswer() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory])
        analytics.track("opened")
        analytics.track(Event("ad_clicked").needing(.advertising))
        await analytics.flush()
        #expect(memory.envelopes.map(\.consent) == [nil, nil])
    }

    @Test func eventsHeldUntilTheUserAgreesAndThoseAfterCarryTheGrant() async {
        let memory = InMemoryDestination()
        let analytics = client(memory, required: [.analytics])
        analytics.track("opened")
        analytics.track(Event("receipt_sent").needing(.necessary))
        await analytics.flush()
        analytics.setConsent(.granted, for: .analytics)
        analytics.track("browsed")
        await analytics.flush()
        #expect(memory.events.map(\.name) == ["receipt_sent", "opened", "browsed"])
        // `necessary` is not gated and was never answered: the client says so.
        #expect(memory.envelopes.map(\.consent) == [.notRequired, .granted, .granted])
    }

    @Test func anAnswerGivenBeforeLaunchAndOneForAPurposeNotRequiredAreDelivered() async {
        let memory = InMemoryDestination()
        let analytics = client(memory, required: [.advertising], answers: [.advertising: .granted])
        analytics.track(Event("ad_clicked").needing(.advertising))
        analytics.track("opened")  // analytics: not required, not answered
        analytics.setConsent(.granted, for: .analytics)
        analytics.track("browsed")
        await analytics.flush()
        #expect(memory.envelopes.map(\.consent) == [.granted, .notRequired, .granted])
    }

    @Test func aPurposeMissingFromConsentRequiredIsDeliveredAsNotRequired() async {
        // The usual regression: the app gates advertising but forgot analytics.
        let memory = InMemoryDestination()
        let analytics = client(memory, required: [.advertising])
        analytics.track("opened")
        analytics.track(Event("ad_clicked").needing(.advertising))
        analytics.setConsent(.granted, for: .advertising)
        await analytics.flush()
        #expect(memory.events.map(\.name) == ["opened", "ad_clicked"])
        #expect(memory.envelopes.map(\.consent) == [.notRequired, .granted])
    }

    @Test func anAnswerAloneTurnsTheRecordOn() async {
        // Nothing required: events before the first answer carry none, those after carry what the client knew.
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory])
        analytics.track("opened")
        analytics.setConsent(.denied, for: .advertising)
        analytics.track("browsed")
        analytics.track(Event("ad_clicked").needing(.advertising))
        await analytics.flush()
        #expect(memory.events.map(\.name) == ["opened", "browsed"])
        #expect(memory.envelopes.map(\.consent) == [nil, .notRequired])
    }

    @Test func deliveredConsentStandsForTheUsersAnswer() {
        #expect(ConsentStatus.allCases.map { DeliveredConsent($0).status } == ConsentStatus.allCases)
        #expect(DeliveredConsent.notRequired.status == nil)
        #expect(DeliveredConsent.allCases.map(\.rawValue) == ["granted", "denied", "not_asked", "not_required"])
    }

    // MARK: The record format

    private let envelope = Envelope(
        event: Event("ad_clicked").needing(.advertising), messageId: MessageID(prefix: 1, sequence: 1),
        timestamp: Date(timeIntervalSince1970: 0), anonymousId: "a")

    @Test(arguments: DeliveredConsent.allCases)
    func theAnswerIsWrittenAndReadBack(_ status: DeliveredConsent) throws {
        var envelope = envelope
        envelope.consent = status
        let record = Record(envelope: envelope, source: "app", origin: "Tests/AdTests.swift:3")
        let line = String(decoding: record.line, as: UTF8.self)
        #expect(line.contains(#","source":"app","consent":"\#(status.rawValue)","origin""#), "\(line)")
        #expect(try Record(line: record.line) == record)
        let fast = try record.line.withUnsafeBufferPointer { try Record.planFields(fromLine: $0) }
        #expect(fast.consent == status)
        #expect(fast.event == envelope.event)
        #expect(fast.origin == "Tests/AdTests.swift:3")
    }

    @Test func noConsentIsNoMemberAndAnOlderRecordReadsAsNone() throws {
        let line = Record(envelope: envelope, source: "app").line
        #expect(!String(decoding: line, as: UTF8.self).contains("consent"))
        #expect(try Record(line: line).envelope.consent == nil)
        let old = Array(#"{"tally_record":1,"kind":"track","name":"opened","consent":null}"#.utf8)
        #expect(try Record(line: old).envelope.consent == nil)
        #expect(try old.withUnsafeBufferPointer { try Record.planFields(fromLine: $0) }.consent == nil)
    }

    @Test(arguments: [#""yes""#, #""Granted""#, "1", "true", #""""#])
    func anUnknownAnswerIsAClearError(_ value: String) {
        let line = Array(#"{"tally_record":1,"kind":"track","name":"opened","consent":\#(value)}"#.utf8)
        let expected = RecordError(
            #""consent" must be one of "granted", "denied", "not_asked", "not_required", not \#(value)"#)
        #expect(throws: expected) { try Record(line: line) }
        #expect(throws: expected) { try line.withUnsafeBufferPointer { try Record.planFields(fromLine: $0) } }
    }

    @Test func aRecordingDestinationKeepsTheAnswer() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-consent-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("app.jsonl")
        let recorder = RecordingDestination(sink: try FileRecordingSink(url: file), source: "app")
        let analytics = AnalyticsClient(
            destinations: [recorder], configuration: .init(consentRequired: [.analytics]))
        analytics.track("opened")
        analytics.setConsent(.granted, for: .analytics)
        _ = await analytics.shutdown()
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
        #expect(try Record(line: Array(lines[0].utf8)).envelope.consent == .granted)
    }
}
