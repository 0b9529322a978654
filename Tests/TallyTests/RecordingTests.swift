import Foundation
import Tally
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
            line == #"{"tally_record":1,"kind":"track","name":"menu_item_ordered","properties":{"item_name":"Pizza","price":9.5,"qty":2,"tags":["a"],"x":null},"message_id":"00000000-0000-abcd-0000-000000000007","timestamp":"2026-11-22T03:17:53.120Z","anonymous_id":"anon","user_id":"u1","context":{"app_version":"1.0"},"source":"LoginApp"}"# + "\n")
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
        (#"{"tally_record":1,"kind":"click","name":"x"}"#, #""kind" must be one of track, screen, identify, group, alias"#),
        (#"{"tally_record":1,"kind":"track"}"#, #"Missing "name""#),
    ])
    func unreadableLinesSayWhy(line: String, message: String) {
        #expect {
            try Record(line: Array(line.utf8))
        } throws: { error in
            (error as? RecordError)?.message.hasPrefix(message) == true
        }
    }

    @Test func aFileWithAnUnfinishedLastLineKeepsTheCompleteOnes() throws {
        let complete = Record(envelope: envelope).line
        let bytes = complete + complete + Array(#"{"tally_record":1,"kind":"tr"#.utf8)
        let file = try RecordingFile(bytes: bytes)
        #expect(file.records.count == 2)
        #expect(file.incompleteTail)
        #expect(file.completeBytes == complete.count * 2)
    }

    @Test func aBadLineInTheMiddleIsAnErrorWithItsLineNumber() {
        let bytes = Record(envelope: envelope).line + Array("\n{oops}\n".utf8) + Record(envelope: envelope).line
        #expect {
            try RecordingFile(bytes: bytes, file: "app.jsonl")
        } throws: { error in
            (error as? RecordError)?.description.hasPrefix("app.jsonl:3: Not valid JSON") == true
        }
    }

    @Test func theEventOnlyReaderAgreesWithTheFullReader() throws {
        let line = Record(envelope: envelope, source: "s").line
        let event = try line.withUnsafeBufferPointer { buffer in Result { () throws(RecordError) in try Record.event(fromLine: buffer) } }.get()
        #expect(event == envelope.event)
    }

    @Test(arguments: [
        (#"not json"#, "Not valid JSON"),
        (#"[1]"#, "A record must be a JSON object"),
        (#"{"kind":"track","name":"x"}"#, #"Missing "tally_record" version"#),
        (#"{"tally_record":2,"kind":"track","name":"x"}"#, "Record version 2 is not supported"),
        (#"{"tally_record":1,"kind":"track","name":"x","context":{"a":[1,}}"#, "Not valid JSON"),
        (#"{"tally_record":1,"kind":"track"}"#, #"Missing "name""#),
    ])
    func theEventOnlyReaderRejectsTheSameLines(line: String, message: String) {
        let bytes = Array(line.utf8)
        let result = bytes.withUnsafeBufferPointer { buffer in Result { () throws(RecordError) in try Record.event(fromLine: buffer) } }
        guard case .failure(let error) = result else {
            Issue.record("accepted \(line)")
            return
        }
        #expect(error.message.hasPrefix(message), "\(error.message)")
    }

    @Test func eventsOfAFileSkipAnUnfinishedLastLine() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("app.jsonl")
        try Data(Record(envelope: envelope).line + Array(#"{"tally_record":1,"ki"#.utf8)).write(to: url)
        #expect(try RecordingFile.events(contentsOf: url) == [envelope.event])
        try Data(Array("\n{broken\n".utf8)).write(to: url)
        #expect {
            try RecordingFile.events(contentsOf: url)
        } throws: { error in
            (error as? RecordError)?.description.hasPrefix("\(url.path):2: Not valid JSON") == true
        }
    }

    @Test func aLargeFileIsReadInChunksInOrderWithFileLineNumbers() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("large.jsonl")
        var bytes: [UInt8] = []
        var expected: [Event] = []
        // About 2 MB, so the reader splits it into one chunk per processor.
        for index in 0..<8000 {
            var numbered = envelope
            numbered.event.properties["index"] = .int(index)
            expected.append(numbered.event)
            bytes += Record(envelope: numbered).line
        }
        #expect(bytes.count > 1 << 20)
        try Data(bytes).write(to: url)
        #expect(try RecordingFile.events(contentsOf: url) == expected)

        // A bad line late in the file is named by its line number in the whole file.
        bytes += Array("{oops\n".utf8) + Record(envelope: envelope).line
        try Data(bytes).write(to: url)
        #expect {
            try RecordingFile.events(contentsOf: url)
        } throws: { error in
            (error as? RecordError)?.description.hasPrefix("\(url.path):8001: Not valid JSON") == true
        }
    }

    @Test func recordsArePickedOutOfMixedOutput() throws {
        let output = "starting\n" + String(decoding: Record(envelope: envelope).line, as: UTF8.self) + "warning: x\n"
        #expect(try RecordingFile(output: output).records.map(\.event) == [envelope.event])
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
    }

    @Test func theCallbackSinkGetsTheWholeLogEachTime() async throws {
        let logs = LockedBox<[String]>([])
        let sink = CallbackRecordingSink { log in logs.mutate { $0.append(log) } }
        let analytics = AnalyticsClient(destinations: [RecordingDestination(sink: sink)])
        analytics.track("a")
        analytics.track("b")
        await analytics.flush()
        #expect(logs.value.count == 2)
        let last = try RecordingFile(bytes: Array(try #require(logs.value.last).utf8))
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
        let first = try #require(try RecordingDestination.fromEnvironment(["TALLY_RECORD_DIR": run.path], arguments: [], source: "A b"))
        let second = try #require(try RecordingDestination.fromEnvironment(["TALLY_RECORD_DIR": run.path], arguments: [], source: "A b"))
        let analytics = AnalyticsClient(destinations: [first, second])
        analytics.track("e")
        await analytics.flush()
        let files = try FileManager.default.contentsOfDirectory(atPath: run.path).sorted()
        #expect(files.count == 2)
        #expect(files.allSatisfy { $0.hasPrefix("A_b-") && $0.hasSuffix(".jsonl") })
        #expect(try RecordingFile.records(inFolder: run).count == 2)
    }

    @Test func anUnwritablePathFailsLoudly() {
        #expect {
            try RecordingDestination.fromEnvironment(["TALLY_RECORD": "/nonexistent-folder/x.jsonl"], arguments: [])
        } throws: { error in
            let error = error as? RecordError
            return error?.file == "/nonexistent-folder/x.jsonl" && error?.message.hasPrefix("Cannot open the recording") == true
        }
    }
}
