// Starts processes: `Process` exists on macOS and Linux only (iOS, tvOS and watchOS have none).
#if os(macOS) || os(Linux)

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Tally
import TallyPlan
import TallyTestSupport
import Testing

/// Recordings under faults: writers killed mid-line, a full disk shared by two writers, writers in several
/// processes at once. Every test makes its own files (and file system) and removes them.
struct RecordingFaultTests {
    /// The fixture, built with the test target (it depends on it); a test that needs it fails, saying what to
    /// build, when it is missing, instead of skipping.
    static func requireWriter() throws -> URL {
        try BuiltProducts.require("RecordingWriterFixture", build: "swift build --product RecordingWriterFixture")
    }

    func record(_ name: String, index: Int = 0, source: String = "test", padding: Int = 0) -> Record {
        Record(
            envelope: Envelope(
                event: Event(name, ["index": .int(index), "padding": .string(String(repeating: "x", count: padding))]),
                messageId: MessageID(prefix: 1, sequence: UInt64(index)), timestamp: Date(timeIntervalSince1970: 0),
                anonymousId: "a"),
            source: source)
    }

    @Test func aWriterEndsACutLineBeforeItsOwn() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("app.jsonl")
        // What a writer killed mid-line leaves: a whole record, then half of one.
        let whole = record("first").line
        let half = Array(record("cut").line.prefix(30))
        try Data(whole + half).write(to: url)

        let sink = try FileRecordingSink(url: url)
        let next = record("after")
        try sink.write(next, line: next.line)

        let bytes = try Array(Data(contentsOf: url))
        #expect(bytes == whole + half + [UInt8(ascii: "\n")] + next.line)
        let file = try RecordingFile(contentsOf: url)
        #expect(file.records.map(\.event.name) == ["first", "after"])
        #expect(file.problems.map(\.line) == [2])
        #expect(file.problems.first?.description.hasPrefix("\(url.path):2: Not valid JSON") == true)
    }

    /// 30 writer processes in a row append lines of 64 KiB to one file, each killed with SIGKILL after a
    /// random number of records (so usually in the middle of a write); then one writer appends 5 records and
    /// ends normally. However the kills fall, every line of the file is a whole record or one cut line that
    /// readers name and skip, no record is glued to a cut one, and the last writer's records are all read.
    @Test(.timeLimit(.minutes(5)))
    func killedWritersNeverCorruptLaterRecords() async throws {
        let writer = try Self.requireWriter()
        let folder = try TemporaryFolder()
        let url = folder.file("killed.jsonl")
        var cutLines = 0
        for run in 0..<30 {
            let process = Process()
            process.executableURL = writer
            process.arguments = [url.path, "run-\(run)", "1000", String(64 * 1024)]
            let progress = Pipe()
            process.standardOutput = progress
            try process.run()
            // Let it write a record or two, then kill it while it writes.
            let wanted = Int.random(in: 1...2)
            var seen = 0
            var buffer = Data()
            while seen < wanted {
                let data = progress.fileHandleForReading.availableData
                if data.isEmpty { break }
                buffer += data
                seen = buffer.filter { $0 == UInt8(ascii: "\n") }.count
            }
            // Not a wait for anything: a random delay of up to 2 ms decorrelates the kill from the progress
            // line just read, so it falls anywhere in the writer's loop, mostly inside a `write`.
            usleep(UInt32.random(in: 0...2000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
            if size > 0, try FileHandle(forReadingFrom: url).readLastByte() != UInt8(ascii: "\n") { cutLines += 1 }
        }
        let (status, output) = try runToEnd(writer, [url.path, "final", "5", "1000"])
        #expect(status == 0)
        #expect(output == "0\n1\n2\n3\n4\n")

        let file = try RecordingFile(contentsOf: url)
        #expect(cutLines > 0, "no kill cut a line: the test proved nothing")
        #expect(file.problems.count == cutLines, "each cut line is one problem, and only those")
        #expect(file.records.filter { $0.source == "final" }.map { $0.event.properties["index"] } == [0, 1, 2, 3, 4])
        #expect(!file.incompleteTail)
        // Every record's start begins a line of its own: a cut line never swallowed the record after it.
        let starts = Self.occurrences(of: Data(#"{"tally_record""#.utf8), in: try Data(contentsOf: url))
        #expect(starts == file.records.count + file.problems.count)
        print(
            "killedWritersNeverCorruptLaterRecords: \(cutLines) of 30 kills left a cut line; \(file.records.count) records read"
        )
    }

    /// Two clients record into one file on a 1 MiB tmpfs until it is full. Whatever fails, each client's
    /// Statistics counts exactly the records of its own that the file holds, no line is a fragment, and the
    /// records of one client are never removed by the other's failed writes.
    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs Linux and root to mount a tmpfs"))
    func aFullDiskLosesOnlyTheFailedEventsAndStatisticsMatchTheFile() async throws {
        let disk = try SmallFileSystem(bytes: 1 << 20)
        let url = disk.file("shared.jsonl")
        let clients = try (0..<2).map { index in
            AnalyticsClient(
                destinations: [RecordingDestination(sink: try FileRecordingSink(url: url), source: "client-\(index)")],
                configuration: AnalyticsClient.Configuration(
                    destinationBuffering: Buffering(capacity: 100_000, whenFull: .block)))
        }
        let padding = String(repeating: "y", count: 3000)
        await onNewThreads(2) { index in
            for event in 0..<600 {
                clients[index].track("filling", ["index": .int(event), "padding": .string(padding)])
            }
        }
        for client in clients { await client.flush() }

        let file = try RecordingFile(contentsOf: url)
        #expect(file.problems.isEmpty, "\(file.problems.prefix(3))")
        #expect(!file.incompleteTail)
        var totalFailed = 0
        for (index, client) in clients.enumerated() {
            let statistics = client.statistics
            let held = file.records.filter { $0.source == "client-\(index)" }.count
            #expect(statistics.delivered["recording"] == held)
            totalFailed += statistics.destinations["recording"]?.dropped[.failed] ?? 0
            #expect(held + (statistics.destinations["recording"]?.dropped[.failed] ?? 0) == 600)
        }
        #expect(totalFailed > 0, "the disk never filled up: the test proved nothing")
        #expect(file.records.count > 0)
    }

    /// Three processes append 200 records each to one file at once: every record is read back whole.
    @Test
    func concurrentWriterProcessesNeverInterleave() async throws {
        let writer = try Self.requireWriter()
        let folder = try TemporaryFolder()
        let url = folder.file("shared.jsonl")
        let processes = try (0..<3).map { index in
            let process = Process()
            process.executableURL = writer
            process.arguments = [url.path, "process-\(index)", "200", "20000"]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            return process
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let file = try RecordingFile(contentsOf: url)
        #expect(file.problems.isEmpty)
        for index in 0..<3 {
            #expect(
                file.records.filter { $0.source == "process-\(index)" }.map { $0.event.properties["index"]?.intValue }
                    == (0..<200).map { $0 })
        }
    }

    static func occurrences(of needle: Data, in haystack: Data) -> Int {
        haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { needle in
                var count = 0
                var offset = 0
                let first = Int32(needle[0])
                while offset + needle.count <= hay.count,
                    let found = memchr(hay.baseAddress! + offset, first, hay.count - offset - needle.count + 1)
                {
                    offset = UnsafeRawPointer(found) - hay.baseAddress!
                    if memcmp(found, needle.baseAddress!, needle.count) == 0 { count += 1 }
                    offset += 1
                }
                return count
            }
        }
    }
}

extension FileHandle {
    fileprivate func readLastByte() throws -> UInt8? {
        defer { try? close() }
        let end = try seekToEnd()
        guard end > 0 else { return nil }
        try seek(toOffset: end - 1)
        return try read(upToCount: 1)?.first
    }
}

#endif

/// The full-disk test's tmpfs is released when the test ends; one left by a killed test process is removed by
/// the next.
@Suite(.enabled(if: SmallFileSystem.isAvailable, "needs Linux and root to mount a tmpfs"))
struct SmallFileSystemTests {
    @Test func aTmpfsLeftByAProcessThatIsGoneIsUnmountedAndRemoved() throws {
        #if os(Linux)
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let leftover = FileManager.default.temporaryDirectory
            .appendingPathComponent("tally-tmpfs-\(gone.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: leftover, withIntermediateDirectories: false)
        let (status, _) = try runToEnd(
            URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=4096", "tally-test", leftover.path])
        try #require(status == 0)
        let mine = try SmallFileSystem(bytes: 4096)
        #expect(SmallFileSystem.removeLeftovers().isEmpty, "the first was removed when the second was made")
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
        let mounts = try String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)
        #expect(!mounts.contains(leftover.path))
        #expect(mounts.contains(mine.url.path), "a tmpfs whose process runs is kept")
        #endif
    }
}
