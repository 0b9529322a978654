import Foundation
import Tally
import TallyTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading recordings: ordinary reads (files, FIFOs, pipes), chunks in bounded memory, and unreadable lines
/// named by their number while reading goes on.
struct RecordingFileTests {
    static let envelope = Envelope(
        event: Event("menu_item_ordered", ["item_name": "Pizza", "price": 9.5, "qty": 2]),
        messageId: MessageID(prefix: 0xABCD, sequence: 7), timestamp: Date(timeIntervalSince1970: 1_795_317_473.12),
        userId: "u1", anonymousId: "anon", context: ["app_version": "1.0"])

    static func line(_ index: Int) -> [UInt8] {
        var envelope = envelope
        envelope.event.properties["index"] = .int(index)
        return Record(envelope: envelope).line
    }

    @Test func aFileWithAnUnfinishedLastLineKeepsTheCompleteOnes() {
        let complete = Self.line(0)
        let bytes = complete + complete + Array(#"{"tally_record":1,"kind":"tr"#.utf8)
        let file = RecordingFile(bytes: bytes)
        #expect(file.records.count == 2)
        #expect(file.problems.isEmpty)
        #expect(file.incompleteTail)
        #expect(file.completeBytes == complete.count * 2)
    }

    @Test func aBadLineInTheMiddleIsAProblemWithItsNumberAndReadingGoesOn() {
        let bytes = Self.line(0) + Array("\n{oops}\n".utf8) + Self.line(1)
        let file = RecordingFile(bytes: bytes, file: "app.jsonl")
        #expect(file.records.map { $0.event.properties["index"] } == [0, 1])
        #expect(file.problems.map(\.line) == [3])
        #expect(file.problems.first?.description.hasPrefix("app.jsonl:3: Not valid JSON") == true)
    }

    @Test func recordsArePickedOutOfMixedOutputEvenAfterTextOnTheirLine() {
        let record = String(decoding: Self.line(0), as: UTF8.self)
        let output = "starting\n" + record + "warning: no newline here" + record + #"{"tally_record":1}"# + "\nend\n"
        let file = RecordingFile(output: output)
        #expect(file.records.count == 2)
        #expect(file.problems.map(\.line) == [4])
    }

    @Test func aFolderIsOneRecordingInNameOrder() throws {
        let folder = try TemporaryFolder()
        try Data(Self.line(1) + Array("{bad\n".utf8)).write(to: folder.file("b.jsonl"))
        try Data(Self.line(0)).write(to: folder.file("a.jsonl"))
        try Data("ignored".utf8).write(to: folder.file("notes.txt"))
        let file = try RecordingFile(folder: folder.url)
        #expect(file.records.map { $0.event.properties["index"] } == [0, 1])
        #expect(
            file.problems.map(\.description).first?.hasPrefix(folder.file("b.jsonl").path + ":2:")
                == true)
    }

    @Test func aMissingFileOrAFolderCannotBeRead() throws {
        let folder = try TemporaryFolder()
        #expect(throws: RecordError.self) { try RecordingFile(contentsOf: folder.file("none.jsonl")) }
        do {
            _ = try RecordingFile(contentsOf: folder.url)
            Issue.record("read a folder")
        } catch {
            #expect(error.message == "Cannot read the recording: it is a folder")
        }
    }

    // MARK: Ordinary reads: FIFOs, pipes, files changed while read

    @Test func aFIFOIsReadToItsEnd() async throws {
        let folder = try TemporaryFolder()
        let fifo = folder.file("live.jsonl")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let lines = (0..<500).flatMap(Self.line)
        let writer = BackgroundThread {
            let handle = try FileHandle(forWritingTo: fifo)  // blocks until the reader opens it
            for start in stride(from: 0, to: lines.count, by: 4096) {
                try handle.write(contentsOf: lines[start..<min(start + 4096, lines.count)])
            }
            try handle.close()
        }
        let file = try RecordingFile(contentsOf: fifo)
        try await writer.value()
        #expect(file.records.count == 500)
        #expect(file.problems.isEmpty)
    }

    @Test func aPipeIsReadThroughItsDescriptor() async throws {
        let pipe = Pipe()
        let lines = (0..<300).flatMap(Self.line)
        let writer = BackgroundThread {
            try pipe.fileHandleForWriting.write(contentsOf: lines)
            try pipe.fileHandleForWriting.close()
        }
        var events: [Event] = []
        let summary = try RecordingFile.readEvents(
            at: URL(fileURLWithPath: "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)")
        ) { events += $0 }
        try await writer.value()
        #expect(events.count == 300)
        #expect(summary.events == 300)
        #expect(summary.problemCount == 0)
    }

    /// Another process cuts the file and writes it again, over and over, while it is read: a mapped reader
    /// died with SIGBUS here; an ordinary reader sees some version of the file and goes on.
    @Test func aFileCutAndRewrittenWhileItIsReadNeverCrashesAReader() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("churn.jsonl")
        let lines = (0..<20_000).flatMap(Self.line)  // about 5 MB: several chunks
        try Data(lines).write(to: url)
        let writer = BackgroundThread {
            for round in 0..<100 {
                let handle = try FileHandle(forWritingTo: url)
                try handle.truncate(atOffset: UInt64(round % 5 * 1000))
                try handle.seekToEnd()
                try handle.write(contentsOf: lines)
                try handle.close()
            }
        }
        for _ in 0..<20 {
            var count = 0
            let summary = try RecordingFile.readEvents(at: url) { count += $0.count }
            #expect(count == summary.events)
        }
        try await writer.value()
    }

    // MARK: Chunks

    /// Lines are numbered in the whole input whatever the chunk size, a line longer than the limit is
    /// skipped without being held and reported, and a line longer than a chunk is read whole.
    @Test(arguments: [1, 7, 64, 1 << 20])
    func linesAreNumberedAcrossChunks(chunkBytes: Int) throws {
        let folder = try TemporaryFolder()
        let url = folder.file("chunks.jsonl")
        let long =
            Array(#"{"tally_record":1,"kind":"track","name":"long","properties":{"p":""#.utf8)
            + [UInt8](repeating: UInt8(ascii: "x"), count: 5000) + Array("\"}}\n".utf8)
        let tooLong = [UInt8](repeating: UInt8(ascii: "y"), count: 20_000) + [UInt8(ascii: "\n")]
        let bytes = Self.line(0) + Array("\n  \n{oops}\n".utf8) + long + tooLong + Self.line(1) + Array("{cut".utf8)
        try Data(bytes).write(to: url)

        let lines = try RecordingLines(path: url.path, options: .init(chunkBytes: chunkBytes, maximumLineBytes: 10_000))
        let batches = RecordingBatches(lines: lines, parallelism: 2) { line in try Record.event(fromLine: line) }
        var events: [Event] = []
        var problems: [RecordError] = []
        while let batch = try batches.next() {
            events += batch.values
            problems += batch.problems
        }
        #expect(events.map(\.name) == ["menu_item_ordered", "long", "menu_item_ordered"])
        #expect(problems.map(\.line) == [4, 6])
        #expect(
            problems.last?.message
                == "The line is longer than 10000 bytes (RecordingLines.Options.maximumLineBytes); skipped")
        #expect(batches.unfinishedLine?.line == 8)
        #expect(batches.unfinishedLine?.bytes == 4)
    }

    @Test func aBinaryFileWithoutNewlinesIsOneUnfinishedLine() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("binary.jsonl")
        try Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }.filter { $0 != 0x0A }).write(to: url)
        let summary = try RecordingFile.readEvents(at: url) { _ in }
        #expect(summary.events == 0)
        #expect(summary.unfinishedLine == 1)
    }

    @Test func eventsOfALargeFileComeInFileOrderWithFileLineNumbers() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("large.jsonl")
        var bytes: [UInt8] = []
        for index in 0..<12_000 {
            bytes += Self.line(index)
            if index == 9_000 { bytes += Array("{oops\n".utf8) }
        }
        try Data(bytes).write(to: url)
        var indices: [Int] = []
        let summary = try RecordingFile.readEvents(at: url) { events in
            indices += events.compactMap { $0.properties["index"]?.intValue }
        }
        #expect(indices == Array(0..<12_000))
        #expect(
            summary.problems.map(\.description) == [
                "\(url.path):9002: Not valid JSON: Expected a string key (at byte 1)"
            ])
    }
}
