import Foundation
import Tally
import TallyTesting
import Testing

/// The log stores events apart from the rest of their envelopes; reading them back must give exactly what
/// was appended, however the two ways of appending are mixed.
struct EventLogTests {
    let time = Date(timeIntervalSince1970: 1_000)

    func full(_ name: String, sequence: UInt64) -> Envelope {
        Envelope(
            event: Event(name, ["n": .int(Int(sequence))]), messageId: MessageID(prefix: 7, sequence: sequence),
            timestamp: time.addingTimeInterval(Double(sequence)), userId: "u\(sequence)", anonymousId: "device",
            context: ["os": "Linux"], destinations: ["console"])
    }

    func stamped(_ name: String, position: Int) -> Envelope {
        Envelope(
            event: Event(name), messageId: MessageID(prefix: 0, sequence: UInt64(position)), timestamp: time,
            anonymousId: "spy")
    }

    @Test func fullEnvelopesComeBackWhole() {
        let log = EventLog()
        let envelopes = [full("a", sequence: 1), full("b", sequence: 2)]
        log.append(envelopes[0])
        log.append(contentsOf: envelopes[1...])
        #expect(log.envelopes == envelopes)
        #expect(log.events == envelopes.map(\.event))
        #expect(log.envelopes(from: 1) == [envelopes[1]])
        #expect(log.count == 2)
    }

    @Test func stampedEventsGetTheirPositionAndTheLogsAnonymousId() {
        let log = EventLog(stampedAnonymousId: "spy", stage: .tracked)
        #expect(log.append(Event("a"), stampedAt: time) == 1)
        #expect(log.append(Event("b"), stampedAt: time) == 2)
        #expect(log.envelopes == [stamped("a", position: 1), stamped("b", position: 2)])
        #expect(log.stampedEnvelope(Event("b"), position: 2, timestamp: time) == stamped("b", position: 2))
    }

    @Test func mixingBothWaysKeepsEveryEnvelope() {
        let log = EventLog(stampedAnonymousId: "spy", stage: .tracked)
        log.append(Event("a"), stampedAt: time)
        log.append(full("b", sequence: 9))
        log.append(Event("c"), stampedAt: time)
        log.append(contentsOf: [full("d", sequence: 10)])
        let expected = [
            stamped("a", position: 1), full("b", sequence: 9), stamped("c", position: 3), full("d", sequence: 10),
        ]
        #expect(log.envelopes == expected)
        #expect(log.envelopes(from: 2) == Array(expected[2...]))
        #expect(log.events(from: 3) == [expected[3].event])
        #expect(log.envelopes(from: -2) == expected)
        #expect(log.events(from: 99).isEmpty)
    }

    @Test func clearForgetsEveryColumn() {
        let log = EventLog(stampedAnonymousId: "spy", stage: .tracked)
        log.append(full("a", sequence: 1))
        log.append(Event("b"), stampedAt: time)
        log.clear()
        #expect(log.envelopes.isEmpty)
        #expect(log.append(Event("c"), stampedAt: time) == 1)
        #expect(log.envelopes == [stamped("c", position: 1)])
    }
}
