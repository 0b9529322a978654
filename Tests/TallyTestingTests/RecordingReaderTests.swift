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
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        }
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

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func waitsForEventsWrittenWhileItWaits() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("app.jsonl")
        let recording = RecordingReader(url: url)
        let writer = BackgroundThread {
            for index in 0..<3 { try self.append(self.line(Event("e\(index)"), sequence: UInt64(index)), to: url) }
        }
        #expect(await recording.waitForCount(3, timeout: .seconds(30)))
        try await writer.value()
        #expect(recording.recordedEvents.map(\.name) == ["e0", "e1", "e2"])
    }

    @Test func anUnreadableLineIsReportedOnceWhereTheReaderWasMadeAndReadingGoesOn() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("bad.jsonl")
        try append(line(.screen("Before")) + Array("{not a record}\n".utf8) + line(.screen("After")), to: url)
        #expect(throws: RecordError.self) { try RecordingReader(contentsOf: url) }

        let recording = RecordingReader(url: url)
        let created = #line - 1
        expectOneIssue(
            containing: [
                "The recording reader noticed:", "bad.jsonl:2: Not valid JSON", "the lines after it were read",
            ], atLine: created
        ) {
            recording.expectCount(2)
        }
        // Reported once: the next expectations pass, and see what follows.
        try append(line(.screen("Later")), to: url)
        #expect(recording.expectCount(3))
        #expect(recording.recordedEvents.map(\.name) == ["Before", "After", "Later"])
    }

    /// The app started again and wrote a new, shorter file at the same path: the reader says so and reads
    /// the new file from its start, instead of waiting at the old file's offset.
    @Test func aReplacedFileIsNoticedAndReadAfresh() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("app.jsonl")
        try append((0..<3).flatMap { line(Event("old_\($0)"), sequence: UInt64($0)) }, to: url)
        let recording = RecordingReader(url: url)
        let created = #line - 1
        #expect(recording.expectCount(3))

        let replacement = folder.file("new.jsonl")
        try append(line(Event("new_0")), to: replacement)
        try FileManager.default.removeItem(at: url)
        try FileManager.default.moveItem(at: replacement, to: url)
        expectOneIssue(
            containing: ["was replaced by another file since the last read; its events are read afresh"],
            atLine: created
        ) {
            recording.expectCount(1)
        }
        try append(line(Event("new_1")), to: url)
        #expect(recording.expectCount(2))
        #expect(recording.recordedEvents.map(\.name) == ["new_0", "new_1"])
    }

    @Test func aTruncatedFileIsNoticedAndReadAfresh() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("app.jsonl")
        try append((0..<3).flatMap { line(Event("old_\($0)"), sequence: UInt64($0)) }, to: url)
        let recording = RecordingReader(url: url)
        let created = #line - 1
        #expect(recording.expectCount(3))

        try Data(line(Event("new_0"))).write(to: url)  // the same file, cut and rewritten shorter
        expectOneIssue(containing: ["was truncated since the last read"], atLine: created) {
            recording.expectCount(1)
        }
        #expect(recording.recordedEvents.map(\.name) == ["new_0"])
    }

    @Test func aFileRewrittenInPlaceToTheSameLengthOrLongerIsNoticed() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("app.jsonl")
        try append(line(Event("aaaa")) + line(Event("bbbb")), to: url)
        let recording = RecordingReader(url: url)
        let created = #line - 1
        #expect(recording.expectCount(2))

        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: line(Event("cccc")) + line(Event("dddd")) + line(Event("eeee")))
        try handle.close()
        expectOneIssue(containing: ["was rewritten since the last read"], atLine: created) {
            recording.expectCount(3)
        }
        #expect(recording.recordedEvents.map(\.name) == ["cccc", "dddd", "eeee"])
    }

    /// A writer keeps cutting the file back and rewriting it while tests read it: readers never crash
    /// (no memory map to fault on) and every refresh ends with what the file held at some moment.
    @Test func aFileCutAndRewrittenWhileItIsReadNeverCrashesTheReader() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("churn.jsonl")
        let lines = (0..<2000).flatMap { line(Event("e\($0)"), sequence: UInt64($0)) }
        try Data(lines).write(to: url)
        let writer = BackgroundThread {
            for round in 0..<200 {
                let handle = try FileHandle(forWritingTo: url)
                try handle.truncate(atOffset: UInt64(round % 7 * 100))
                try handle.seekToEnd()
                try handle.write(contentsOf: lines)
                try handle.close()
            }
        }
        let recording = RecordingReader(url: url)
        // The reader says so whenever it finds the file cut or rewritten: intermittent known issues.
        withKnownIssue(isIntermittent: true) {
            for _ in 0..<200 {
                try? recording.refresh()
                _ = recording.recordedEvents.count
            }
        }
        try await writer.value()
        #expect(recording.recordedEvents.count <= 2000 + 1)
    }
}
