import Foundation
import Tally
import Testing

/// A record's `stage`: a spy's records say they were made as the app tracked the event, before any client's
/// rules; a destination's say nothing, and read as delivered.
struct RecordStageTests {
    let envelope = Envelope(
        event: Event("signed_up", ["email": "ada@example.com"]), messageId: MessageID(prefix: 1, sequence: 1),
        timestamp: Date(timeIntervalSince1970: 0), anonymousId: "spy")

    @Test func aTrackedRecordSaysSoLastAndReadsBack() throws {
        let record = Record(
            envelope: envelope, source: "SignUpTests.swift", origin: "/src/SignUpTests.swift:9", stage: .tracked)
        let line = String(decoding: record.line, as: UTF8.self)
        #expect(line.hasSuffix(#","origin":"/src/SignUpTests.swift:9","stage":"tracked"}"# + "\n"))
        #expect(try Record(line: record.line) == record)
        let fields = try record.line.withUnsafeBufferPointer { try Record.planFields(fromLine: $0) }
        #expect(fields.stage == .tracked)
        #expect(fields.origin == "/src/SignUpTests.swift:9")
    }

    @Test func aDeliveredRecordIsWrittenAsBeforeAndARecordWithoutStageReadsAsDelivered() throws {
        let line = String(decoding: Record(envelope: envelope, source: "app").line, as: UTF8.self)
        #expect(!line.contains("stage"))
        for old in [
            #"{"tally_record":1,"kind":"track","name":"signed_up"}"#,
            #"{"tally_record":1,"kind":"track","name":"signed_up","stage":null}"#,
            #"{"tally_record":1,"kind":"track","name":"signed_up","stage":"delivered"}"#,
        ] {
            #expect(try Record(line: Array(old.utf8)).stage == .delivered)
            #expect(
                try Array(old.utf8).withUnsafeBufferPointer { try Record.planFields(fromLine: $0) }.stage == .delivered)
        }
    }

    @Test func anUnknownStageIsAnErrorNamingTheStages() {
        let expected = RecordError(#""stage" must be one of "tracked", "delivered", not "sent""#)
        let line = Array(#"{"tally_record":1,"kind":"track","name":"x","stage":"sent"}"#.utf8)
        #expect(throws: expected) { try Record(line: line) }
        #expect(throws: expected) { try line.withUnsafeBufferPointer { try Record.planFields(fromLine: $0) } }
        let number = Array(#"{"tally_record":1,"kind":"track","name":"x","stage":1}"#.utf8)
        #expect(throws: RecordError(#""stage" must be one of "tracked", "delivered", not 1"#)) {
            try Record(line: number)
        }
    }

    @Test func aRecordingDestinationsRecordsNameTheLineThatCreatedIt() async throws {
        let sink = LinesSink()
        let destination = RecordingDestination(sink: sink, source: "app"); let line = #line
        let analytics = AnalyticsClient(destinations: [destination])
        analytics.track("opened")
        await analytics.flush()
        let record = try #require(sink.records.first)
        #expect(record.origin == "\(#filePath):\(line)")
        #expect(record.stage == .delivered)
    }
}

/// Keeps what a recording destination writes.
private final class LinesSink: RecordingSink {
    private let written = Locked<[Record]>([])
    var records: [Record] { written.current }
    func write(_ record: Record, line: [UInt8]) throws { written.withLock { $0.append(record) } }
    func flush() {}
}
