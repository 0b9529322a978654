import Foundation
import Tally
import TallyPlan
import TallyTestSupport
import Testing

struct RecordTests {
    let envelope = Envelope(
        event: Event("menu_item_ordered", ["item_name": "Pizza", "price": 9.5, "qty": 2, "tags": ["a"], "x": nil]),
        messageId: MessageID(prefix: 0xABCD, sequence: 7), timestamp: Date(timeIntervalSince1970: 1_795_317_473.12),
        userId: "u1", anonymousId: "anon", context: ["app_version": "1.0"])

    @Test func aRecordIsOneVersionedLine() {
        let line = String(decoding: Record(envelope: envelope, source: "LoginApp").line, as: UTF8.self)
        #expect(
            line
                == #"{"tally_record":1,"kind":"track","name":"menu_item_ordered","properties":{"item_name":"Pizza","price":9.5,"qty":2,"tags":["a"],"x":null},"message_id":"00000000-0000-abcd-0000-000000000007","timestamp":"2026-11-22T03:17:53.120Z","anonymous_id":"anon","user_id":"u1","context":{"app_version":"1.0"},"source":"LoginApp"}"#
                + "\n")
    }

    @Test func linesReadBackLosslessly() throws {
        let record = Record(envelope: envelope, source: "s")
        let read = try Record(line: record.line)
        #expect(read == record)
        #expect(read.event.properties["price"] == .double(9.5))
        #expect(read.event.properties["qty"] == .int(2))
    }

    @Test func aMinimalHandWrittenLineIsEnough() throws {
        let read = try Record(line: Array(#"{"tally_record":1,"kind":"screen","name":"Login"}"#.utf8))
        #expect(read.event == .screen("Login"))
        #expect(read.envelope.userId == nil)
    }

    @Test(arguments: [
        (#"not json"#, "Not valid JSON"),
        (#"[1]"#, "A record must be a JSON object"),
        (#"{"kind":"track","name":"x"}"#, #"Missing "tally_record" version"#),
        (#"{"tally_record":2,"kind":"track","name":"x"}"#, "Record version 2 is not supported"),
        (
            #"{"tally_record":1,"kind":"click","name":"x"}"#,
            #""kind" must be one of track, screen, identify, group, alias"#
        ),
        (#"{"tally_record":1,"kind":"track"}"#, #"Missing "name""#),
        (#"{"tally_record":1,"kind":"track","name":"x","properties":[1]}"#, #""properties" must be a JSON object"#),
        (#"{"tally_record":1,"kind":"track","name":"x","properties":null}"#, #""properties" must be a JSON object"#),
        (#"{"tally_record":1,"kind":"track","name":"x","context":"c"}"#, #""context" must be a JSON object"#),
    ])
    func unreadableLinesSayWhy(line: String, message: String) {
        #expect {
            try Record(line: Array(line.utf8))
        } throws: { error in
            (error as? RecordError)?.message.hasPrefix(message) == true
        }
    }

    /// Invalid UTF-8 anywhere in a string (a property, a key, a skipped member) makes the line unreadable,
    /// for both readers; nothing is turned into U+FFFD silently.
    @Test(
        arguments: [
            [0xFF], [0xC3], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80],
            [0xE2, 0x82],
        ] as [[UInt8]])
    func invalidUTF8InAStringIsRefused(bad: [UInt8]) {
        for (prefix, suffix) in [
            (#"{"tally_record":1,"kind":"track","name":"x","properties":{"p":"a"#, #"b"}}"#),
            (#"{"tally_record":1,"kind":"track","name":"x","properties":{"k"#, #"":1}}"#),
            (#"{"tally_record":1,"kind":"track","name":"x","properties":{"p":"\n"#, #""}}"#),
            (#"{"tally_record":1,"kind":"track","name":"x","context":{"c":""#, #""}}"#),
            (#"{"tally_record":1,"kind":"track","name":"x","source":""#, #""}"#),
        ] {
            let line = Array(prefix.utf8) + bad + Array(suffix.utf8)
            #expect(throws: RecordError.self) { try Record(line: line) }
            let eventOnly = line.withUnsafeBufferPointer { buffer in
                Result { () throws(RecordError) in try Record.event(fromLine: buffer) }
            }
            guard case .failure(let error) = eventOnly else {
                Issue.record("the event-only reader accepted \(bad) in \(prefix)")
                continue
            }
            #expect(error.message.hasPrefix("Not valid JSON: Invalid UTF-8 in a string"), "\(error.message)")
        }
    }

    @Test func validUTF8OfEveryLengthIsRead() throws {
        let text = "é€𝄞 aé\u{0301}"  // two, three and four bytes, and a combining accent
        let line =
            Array(#"{"tally_record":1,"kind":"track","name":"x","properties":{"p":""#.utf8) + Array(text.utf8)
            + Array(#"\n"}}"#.utf8)
        #expect(try Record(line: line).event.properties["p"] == .string(text + "\n"))
    }

    @Test func theEventOnlyReaderAgreesWithTheFullReader() throws {
        let line = Record(envelope: envelope, source: "s").line
        let event = try line.withUnsafeBufferPointer { buffer in
            Result { () throws(RecordError) in try Record.event(fromLine: buffer) }
        }.get()
        #expect(event == envelope.event)
    }

    @Test(arguments: [
        (#"not json"#, "Not valid JSON"),
        (#"[1]"#, "A record must be a JSON object"),
        (#"{"kind":"track","name":"x"}"#, #"Missing "tally_record" version"#),
        (#"{"tally_record":2,"kind":"track","name":"x"}"#, "Record version 2 is not supported"),
        (#"{"tally_record":1,"kind":"track","name":"x","context":{"a":[1,}}"#, "Not valid JSON"),
        (#"{"tally_record":1,"kind":"track"}"#, #"Missing "name""#),
        (#"{"tally_record":1,"kind":"track","name":"x","properties":[1]}"#, #""properties" must be a JSON object"#),
        (#"{"tally_record":1,"kind":"track","name":"x","context":"c"}"#, #""context" must be a JSON object"#),
        (#"{"tally_record":1,"kind":"track","name":"x","context":{"a":"\u12"}}"#, "Not valid JSON: Invalid hex digit"),
        (#"{"tally_record":1,"kind":"track","name":"x","source":"\q"}"#, "Not valid JSON: Invalid escape"),
    ])
    func theEventOnlyReaderRejectsTheSameLines(line: String, message: String) {
        let bytes = Array(line.utf8)
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(RecordError) in try Record.event(fromLine: buffer) }
        }
        guard case .failure(let error) = result else {
            Issue.record("accepted \(line)")
            return
        }
        #expect(error.message.hasPrefix(message), "\(error.message)")
    }

}

struct RecordingDestinationTests {
    @Test func writesEveryEventToAFileThatCanBeReadBack() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("app.jsonl")
        let recording = RecordingDestination(sink: try FileRecordingSink(url: url), source: "test")
        let analytics = AnalyticsClient(destinations: [recording])
        analytics.screen("Login")
        analytics.track("login_tapped", ["action": "tap"])
        await analytics.flush()
        let file = try RecordingFile(contentsOf: url)
        #expect(file.records.map(\.event) == [.screen("Login"), Event("login_tapped", ["action": "tap"])])
        #expect(file.records.allSatisfy { $0.source == "test" })
        #expect(!file.incompleteTail)
        #expect(file.problems.isEmpty)
    }

    @Test func theCallbackSinkGetsTheWholeLogEachTime() async throws {
        let logs = LockedBox<[String]>([])
        let sink = CallbackRecordingSink { log in logs.mutate { $0.append(log) } }
        let analytics = AnalyticsClient(destinations: [RecordingDestination(sink: sink)])
        analytics.track("a")
        analytics.track("b")
        await analytics.flush()
        #expect(logs.value.count == 2)
        let last = RecordingFile(bytes: Array(try #require(logs.value.last).utf8))
        #expect(last.records.map(\.event.name) == ["a", "b"])
        #expect(sink.text == logs.value.last)
    }

    @Test func isOffUnlessTheEnvironmentAsks() throws {
        #expect(try RecordingDestination.fromEnvironment([:], arguments: ["app"]) == nil)
    }

    @Test func theEnvironmentVariableNamesTheFile() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("env.jsonl")
        let recording = try #require(
            try RecordingDestination.fromEnvironment(["TALLY_RECORD": url.path], arguments: ["app"], source: "app"))
        let analytics = AnalyticsClient(destinations: [recording])
        analytics.track("from_env")
        await analytics.flush()
        #expect(try RecordingFile(contentsOf: url).records.map(\.event.name) == ["from_env"])
    }

    @Test func theLaunchArgumentWinsAndNeedsAPath() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("arg.jsonl")
        let recording = try RecordingDestination.fromEnvironment(
            ["TALLY_RECORD": folder.file("ignored.jsonl").path], arguments: ["app", "-tally-record", url.path])
        #expect(recording != nil)
        #expect(FileManager.default.fileExists(atPath: url.path))
        #expect(!FileManager.default.fileExists(atPath: folder.file("ignored.jsonl").path))
        #expect {
            try RecordingDestination.fromEnvironment([:], arguments: ["app", "-tally-record"])
        } throws: { error in
            (error as? RecordError)?.message == "-tally-record needs a file path (or stderr) after it"
        }
    }

    @Test func aRunFolderGivesEachRecorderItsOwnFile() async throws {
        let folder = try TemporaryFolder()
        let run = folder.url.appendingPathComponent("run")
        let first = try #require(
            try RecordingDestination.fromEnvironment(["TALLY_RECORD_DIR": run.path], arguments: [], source: "A b"))
        let second = try #require(
            try RecordingDestination.fromEnvironment(["TALLY_RECORD_DIR": run.path], arguments: [], source: "A b"))
        let analytics = AnalyticsClient(destinations: [first, second])
        analytics.track("e")
        await analytics.flush()
        let files = try FileManager.default.contentsOfDirectory(atPath: run.path).sorted()
        #expect(files.count == 2)
        #expect(files.allSatisfy { $0.hasPrefix("A_b-") && $0.hasSuffix(".jsonl") })
        #expect(try RecordingFile(folder: run).records.count == 2)
    }

    /// Processors run after the input limits and may add anything; the recording still holds at most
    /// 64 levels, and says what it cut.
    @Test func valuesNestedPastTheLimitAreWrittenAsNullAndReported() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("deep.jsonl")
        let destination = RecordingDestination(sink: try FileRecordingSink(url: url), source: "test")
        let problems = LockedBox<[Problem]>([])
        let context = DestinationContext(destination: "recording") { problem in problems.mutate { $0.append(problem) } }
        var envelope = Envelope(
            event: Event("deep", ["ok": nested(64), "cut": nested(65)]), messageId: MessageID(prefix: 1, sequence: 1),
            timestamp: Date(timeIntervalSince1970: 0), anonymousId: "a")
        envelope.context = ["also": nested(70)]
        try destination.receive(envelope, context: context)

        let file = try RecordingFile(contentsOf: url)
        #expect(file.problems.isEmpty)
        let properties = try #require(file.records.first?.event.properties)
        #expect(properties["ok"] == nested(64))
        #expect(properties["cut"] == nested(64, leaf: nil))
        #expect(file.records.first?.envelope.context["also"] == nested(64, leaf: nil))
        #expect(problems.value.count == 1)
        let problem = try #require(problems.value.first)
        #expect(problem.code == .nestingTooDeep)
        #expect(problem.outcome == .sanitized)
        #expect(
            problem.message
                == "2 arrays or objects nested deeper than 64 levels (PropertyValue.maximumDepth) written to the recording as null"
        )
        #expect(problem.path == "/properties/cut" + String(repeating: "/0", count: 64))
    }

    @Test func anUnwritablePathFailsLoudly() {
        #expect {
            try RecordingDestination.fromEnvironment(["TALLY_RECORD": "/nonexistent-folder/x.jsonl"], arguments: [])
        } throws: { error in
            let error = error as? RecordError
            return error?.file == "/nonexistent-folder/x.jsonl"
                && error?.message.hasPrefix("Cannot open the recording") == true
        }
    }
}

/// A value whose arrays nest `depth` levels, with `leaf` at the bottom.
func nested(_ depth: Int, leaf: PropertyValue = 1) -> PropertyValue {
    var value = leaf
    for _ in 0..<depth { value = .array([value]) }
    return value
}
