import Foundation
import Tally
import Testing

/// A record's optional `origin`: the source line that recorded it, written when known, read when present.
struct RecordOriginTests {
    let envelope = Envelope(
        event: Event("login_tapped", ["action": "tap"]), messageId: MessageID(prefix: 1, sequence: 1),
        timestamp: Date(timeIntervalSince1970: 0), anonymousId: "spy")

    @Test func theOriginIsTheLastMemberOfTheLineAndReadsBack() throws {
        let record = Record(
            envelope: envelope, source: "LoginTests/LoginTests.swift", origin: "/src/Tests/LoginTests.swift:12")
        let line = String(decoding: record.line, as: UTF8.self)
        #expect(
            line.hasSuffix(
                #","source":"LoginTests/LoginTests.swift","origin":"/src/Tests/LoginTests.swift:12"}"# + "\n"))
        #expect(try Record(line: record.line) == record)
        let fast = try record.line.withUnsafeBufferPointer { try Record.eventAndOrigin(fromLine: $0) }
        #expect(fast.event == envelope.event)
        #expect(fast.origin == "/src/Tests/LoginTests.swift:12")
    }

    @Test func aRecordWithoutOriginIsWrittenAsBeforeAndReadsAsNil() throws {
        let line = String(decoding: Record(envelope: envelope, source: "app").line, as: UTF8.self)
        #expect(!line.contains("origin"))
        #expect(try Record(line: Array(line.utf8)).origin == nil)
        let old = Array(#"{"tally_record":1,"kind":"track","name":"login_tapped","source":"app"}"#.utf8)
        #expect(try old.withUnsafeBufferPointer { try Record.eventAndOrigin(fromLine: $0) }.origin == nil)
    }

    @Test func anOriginThatIsNotAStringIsIgnored() throws {
        let line = Array(#"{"tally_record":1,"kind":"track","name":"x","origin":12}"#.utf8)
        #expect(try Record(line: line).origin == nil)
        #expect(try line.withUnsafeBufferPointer { try Record.eventAndOrigin(fromLine: $0) }.origin == nil)
    }
}
