import Foundation
import Tally
import TallyTestSupport
import TallyTesting
import Testing

/// Reading a recording that another process writes, with the same expectations as a spy.
struct RecordingReaderTests {
    func line(_ event: Event, sequence: UInt64 = 1) -> [UInt8] {
        Record(
            envelope: Envelope(
                event: event, messageId: MessageID(prefix: 1, sequence: sequence), timestamp: Date(), anonymousId: "a")
        ).line
    }

    func append(_ bytes: [UInt8], to url: URL) throws {
        if !FileManager.default.fileExists(atPath: url.path) { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: bytes)
        try handle.close()
    }

    @Test func readsWhatIsThereAndWhatIsAppendedLater() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("app.jsonl")
        let recording = RecordingReader(url: url)
        #expect(recording.expectNoEvents())  // a missing file reads as empty

        try append(line(.screen("Login")), to: url)
        #expect(recording.expectCount(1))
        // Half a line: not counted until it is complete.
        let next = line(Event("login_tapped", ["action": "tap"]), sequence: 2)
        try append(Array(next.prefix(20)), to: url)
        #expect(recording.expectCount(1))
        try append(Array(next.dropFirst(20)), to: url)
        #expect(recording.expectCount(2))
        recording.expectEvents([.screen("Login"), Event("login_tapped", ["action": "tap"])])
        recording.expectNothingElse()
    }

    @Test func waitsForEventsWrittenWhileItWaits() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("app.jsonl")
        let recording = RecordingReader(url: url)
        let writer = Task.detached {
            for index in 0..<3 { try self.append(self.line(Event("e\(index)"), sequence: UInt64(index)), to: url) }
        }
        #expect(await recording.waitForCount(3, timeout: .seconds(30)))
        try await writer.value
        #expect(recording.recordedEvents.map(\.name) == ["e0", "e1", "e2"])
    }

    @Test func anUnreadableLineIsReportedAtTheExpectation() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("bad.jsonl")
        try append(Array("{not a record}\n".utf8), to: url)
        #expect(throws: RecordError.self) { try RecordingReader(contentsOf: url) }
        let recording = RecordingReader(url: url)
        expectOneIssue(containing: ["Could not read the recording:", "bad.jsonl:1: Not valid JSON"], atLine: #line + 1) {
            recording.expectNoEvents()
        }
    }
}
