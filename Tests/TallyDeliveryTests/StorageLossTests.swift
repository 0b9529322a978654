#if Delivery
import Foundation
import GRDB
import Tally
import TallyDelivery
import TallyTestSupport
import TallyTesting
import Testing

/// No silent storage loss (issue 34): a queue file emptied, cut short or damaged outside the app between two
/// launches loses events, and the next launch says how many, as `storage_failed` drops.
///
/// A "crash" here is a copy of the queue's files taken between two commits, while the destination runs,
/// put back after it closed: the files a process killed at that moment would leave.
@Suite(.serialized) struct StorageLossTests {
    /// The queue's files as a process killed now would leave them.
    struct Snapshot {
        var database: Data
        var wal: Data
        var ledger: Data?
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    private func snapshot(_ harness: Harness) throws -> Snapshot {
        let file = harness.folder.file("queue.sqlite")
        return Snapshot(
            database: try Data(contentsOf: file),
            wal: (try? Data(contentsOf: URL(fileURLWithPath: file.path + "-wal"))) ?? Data(),
            ledger: try? Data(contentsOf: URL(fileURLWithPath: file.path + ".ledger")))
    }

    /// Puts `snapshot` back in place of the (closed) queue's files; its `-shm` is rebuilt from the WAL.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    private func restore(_ snapshot: Snapshot, in harness: Harness) throws {
        let file = harness.folder.file("queue.sqlite")
        try? FileManager.default.removeItem(atPath: file.path + "-shm")
        try snapshot.database.write(to: file)
        try snapshot.wal.write(to: URL(fileURLWithPath: file.path + "-wal"))
        if let ledger = snapshot.ledger { try ledger.write(to: URL(fileURLWithPath: file.path + ".ledger")) }
    }

    /// 3,000 events committed and not sent, then the process stops, leaving `damage(snapshot)` behind; the
    /// next launch sends what is left. Returns how many events were lost and how many the destination
    /// reported lost (and counted).
    ///
    /// The WAL is never checkpointed meanwhile, so that it holds every commit: cut in half, it loses about
    /// half of them however the writer grouped them (with checkpoints, the part cut could be frames already
    /// copied to the file, and the loss would vary from none to all).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    private func lose(
        _ what: String, damage: (inout Snapshot) -> Void
    ) async throws -> (lost: Int, reported: Int, harness: Harness) {
        let harness = try Harness(durable: true) {
            $0.flushAt = 1_000_000
            $0.prepareDatabase = { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        }
        var files: Snapshot
        do {
            let first = harness.destination()
            try await harness.receiveAndCommit(1...3_000, into: first, padding: 100)
            files = try snapshot(harness)
            first.close()
        }
        damage(&files)
        try restore(files, in: harness)
        let second = harness.destination()
        defer { second.close() }
        try harness.receive(3_001...3_001, into: second)
        await second.flushed()
        let delivered = Set(harness.transport.sent.flatMap(\.numbers)).subtracting([3_001]).count
        let statistics = second.statistics
        let reported = statistics.dropped[.storageFailed] ?? 0
        #expect(statistics.queuedEvents == 0)
        #expect(harness.reports.drops == statistics.dropped, "what is counted is reported")
        print("issue 34, \(what): \(3_000 - delivered) of 3000 lost, \(reported) reported lost")
        return (3_000 - delivered, reported, harness)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func anEmptiedFileWhoseWALSurvivedIsReported() async throws {
        let (lost, reported, harness) = try await lose("database file emptied, its WAL kept") {
            $0.database = Data()
        }
        #expect(lost == 3_000)
        #expect(reported == lost)
        let problem = try #require(harness.reports.problems.first { $0.code == .storageFailed })
        #expect(problem.message.contains("3000 events"), "\(problem.message)")
        #expect(problem.message.contains("empty"), "\(problem.message)")
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aWALCutInHalfIsReported() async throws {
        let (lost, reported, harness) = try await lose("WAL cut in half") { $0.wal = $0.wal.prefix($0.wal.count / 2) }
        #expect(lost > 0)
        #expect(reported == lost)
        let problem = try #require(harness.reports.problems.first { $0.code == .storageFailed })
        #expect(problem.message.contains("\(lost) events"), "\(problem.message)")
    }

    /// Events evicted (`queue_full`) or sent, whose deletion a WAL cut short then undid, were counted when
    /// they were removed: the next launch removes them again without sending or counting them, so each event
    /// is counted once (before, an evicted event came back and was delivered too, and a sent one was sent and
    /// counted as delivered twice). The cut also loses the 40 events committed after them, reported lost.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: ["evicted", "sent"]) func removalsAWALCutUndidAreCountedOnce(_ removal: String) async throws {
        let harness = try Harness(durable: true) {
            $0.flushAt = 1_000_000
            $0.maximumQueuedEvents = 50
            $0.prepareDatabase = { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        }
        var files: Snapshot
        let first = harness.destination()
        do {
            try await harness.receiveAndCommit(1...40, into: first)
            let committedOnly = try snapshot(harness).wal.count
            if removal == "sent" { await first.flushed() }  // 1...40 sent and deleted
            // 80 queued for at most 50: 1...30 evicted (nothing is sent meanwhile).
            try await harness.receiveAndCommit(41...80, into: first)
            files = try snapshot(harness)
            first.close()
            // Cut back to the commits of 1...40: the deletion of 1...30 (or 1...40) is undone, 41...80 lost.
            files.wal = files.wal.prefix(committedOnly)
        }
        if removal == "evicted" {
            #expect(first.statistics.dropped == [.queueFull: 30])
            #expect(first.statistics.delivered == 0)
        } else {
            #expect(first.statistics.dropped.isEmpty)
            #expect(first.statistics.delivered == 40)
        }
        try restore(files, in: harness)
        let second = harness.destination()
        defer { second.close() }
        #expect(second.statistics.queuedEvents == (removal == "evicted" ? 10 : 0), "31...40 are queued")
        try harness.receive(81...81, into: second)
        await second.flushed()
        #expect(second.statistics.dropped == [.storageFailed: 40], "41...80")
        let sent = harness.transport.sent.flatMap(\.numbers)
        #expect(sent.count == Set(sent).count, "no event is sent twice")
        let expected = removal == "evicted" ? Array(31...40) + [81] : Array(1...40) + [81]
        #expect(sent.sorted() == expected)
        let delivered = first.statistics.delivered + second.statistics.delivered
        let dropped = harness.reports.drops.values.reduce(0, +)
        #expect(delivered + dropped == 81, "each of the 81 events is counted once")
        #expect((harness.reports.drops[.queueFull] ?? 0) == (removal == "evicted" ? 30 : 0))
    }

    /// A launch after a normal close, after sends, after evictions, or on a database from before ledgers
    /// reports nothing.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func sendsEvictionsAndRelaunchesReportNothing() async throws {
        let harness = try Harness(durable: true) {
            $0.flushAt = 1_000_000
            $0.maximumQueuedEvents = 50
        }
        var next = 1
        var delivered = 0
        for launch in 1...5 {
            if launch == 5 {
                try? FileManager.default.removeItem(atPath: harness.folder.file("queue.sqlite").path + ".ledger")
            }
            let destination = harness.destination()
            for _ in 1...2 {
                // At most 50 staged at once: more would overflow the writer's buffer before it commits them.
                try await harness.receiveAndCommit(next...(next + 39), into: destination)
                next += 40
            }
            if launch.isMultiple(of: 2) { await destination.flushed() }
            delivered += destination.statistics.delivered
            #expect(destination.statistics.dropped.keys.allSatisfy { $0 == .queueFull }, "launch \(launch)")
            destination.close()
        }
        let last = harness.destination()
        try harness.receive(next...next, into: last)
        await last.flushed()
        delivered += last.statistics.delivered
        last.close()
        #expect(harness.reports.codes.allSatisfy { $0 == .queueFull }, "\(harness.reports.problems)")
        #expect(harness.reports.drops.keys.allSatisfy { $0 == .queueFull })
        #expect(delivered + (harness.reports.drops[.queueFull] ?? 0) == next)
    }

    /// A database deleted with its ledger left behind lost what it held; deleted with its ledger, it was
    /// emptied on purpose.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: [false, true]) func aDeletedDatabaseIsReportedUnlessItsLedgerWentWithIt(_ withLedger: Bool)
        async throws
    {
        let harness = try Harness(durable: true) { $0.flushAt = 1_000_000 }
        let first = harness.destination()
        try await harness.receiveAndCommit(1...20, into: first)
        first.close()
        let file = harness.folder.file("queue.sqlite").path
        for suffix in ["", "-wal", "-shm"] + (withLedger ? [".ledger"] : []) {
            try? FileManager.default.removeItem(atPath: file + suffix)
        }
        let second = harness.destination()
        defer { second.close() }
        try harness.receive(21...21, into: second)
        await second.flushed()
        #expect(second.statistics.delivered == 1)
        if withLedger {
            #expect(harness.reports.problems.isEmpty)
            #expect(second.statistics.dropped.isEmpty)
        } else {
            #expect(second.statistics.dropped == [.storageFailed: 20])
            #expect(harness.reports.drops == [.storageFailed: 20])
            let problem = try #require(harness.reports.problems.first)
            #expect(problem.message.contains("20 events") && problem.message.contains("missing"), "\(problem.message)")
        }
    }

    /// A ledger that does not read back whole (a torn write, garbage) is ignored, and started again.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aDamagedLedgerReportsNothingAndIsStartedAgain() async throws {
        let harness = try Harness(durable: true) { $0.flushAt = 1_000_000 }
        let ledger = URL(fileURLWithPath: harness.folder.file("queue.sqlite").path + ".ledger")
        do {
            let first = harness.destination()
            try await harness.receiveAndCommit(1...20, into: first)
            first.close()
        }
        var bytes = try Data(contentsOf: ledger)
        bytes[bytes.count - 1] ^= 0xFF
        try bytes.write(to: ledger)
        do {
            let second = harness.destination()  // the ledger is ignored: nothing reported
            #expect(second.statistics.dropped.isEmpty)
            #expect(second.statistics.queuedEvents == 20)
            second.close()  // with a new ledger
        }
        try FileManager.default.removeItem(at: harness.folder.file("queue.sqlite"))
        let third = harness.destination()
        defer { third.close() }
        #expect(third.statistics.dropped == [.storageFailed: 20])
    }

    /// Random truncations and byte flips of the database and of its WAL, each at a random moment between
    /// commits, sends and evictions: every committed event is delivered or reported lost.
    ///
    /// `TALLY_STORAGE_FAULT_RUNS` sets the number of runs (default 100); `TALLY_STORAGE_FAULT_SEED` replays them.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(3))) func randomFaultsLoseNothingWithoutAWord() async throws {
        let environment = ProcessInfo.processInfo.environment
        let runs = Int(environment["TALLY_STORAGE_FAULT_RUNS"] ?? "") ?? 100
        let seed = UInt64(environment["TALLY_STORAGE_FAULT_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64.max)
        var random = SplitMix64(seed: seed)
        // Per kind of fault, and in all: committed, not delivered, reported dropped (any reason), reported
        // lost by storage (storage_failed), lost in silence, storage-reported but delivered, sent again.
        var figures: [String: [Int]] = [:]
        for run in 1...runs {
            let evicting = Int.random(in: 0..<4, using: &random) == 0
            let harness = try Harness(durable: true) {
                $0.flushAt = 1_000_000
                if evicting { $0.maximumQueuedEvents = 120 }
            }
            var committed = 0
            var delivered = 0
            var files: Snapshot
            do {
                let first = harness.destination()
                for _ in 1...Int.random(in: 1...4, using: &random) {
                    // At most 100 staged at once: more could overflow the writer's buffer before it commits.
                    let count = Int.random(in: 1...100, using: &random)
                    try await harness.receiveAndCommit(
                        (committed + 1)...(committed + count), into: first,
                        padding: Int.random(in: 0...200, using: &random))
                    committed += count
                    if Int.random(in: 0..<3, using: &random) == 0 { await first.flushed() }
                }
                files = try snapshot(harness)
                first.close()
                delivered = first.statistics.delivered
            }
            let kind = damage(&files, using: &random)
            try restore(files, in: harness)
            let second = harness.destination()
            try harness.receive((committed + 1)...(committed + 1), into: second)
            committed += 1
            await second.flushed()
            second.close()
            delivered += second.statistics.delivered

            let sent = harness.transport.sent.flatMap(\.numbers)
            // Events sent again (a delete rolled back by the fault) are delivered once.
            let resent = sent.count - Set(sent).count
            delivered -= resent
            let dropped = harness.reports.drops.values.reduce(0, +)
            let storageDropped = harness.reports.drops[.storageFailed] ?? 0
            let notDelivered = committed - delivered
            // Nothing lost without a word: what was not delivered was reported dropped.
            #expect(
                notDelivered <= dropped,
                "run \(run) (\(kind)): \(notDelivered - dropped) events lost in silence; seed \(seed)")
            // Storage reports no more lost than were not delivered (a byte flipped in a row's id could make
            // that one event both; not seen so far).
            #expect(
                storageDropped <= notDelivered,
                "run \(run) (\(kind)): \(storageDropped - notDelivered) reported lost and delivered; seed \(seed)")
            // A WAL cut short takes the queue back to an earlier commit: every event is then counted exactly
            // once, and none is sent twice (sends and evictions it undid are not sent or counted again).
            if kind == "WAL truncated" {
                #expect(
                    resent == 0 && notDelivered == dropped,
                    "run \(run) (\(kind)): \(resent) sent again, \(dropped - notDelivered) counted twice; seed \(seed)"
                )
            }
            let silent = max(0, notDelivered - dropped)
            let overReported = max(0, storageDropped - notDelivered)
            for key in [kind, "all"] {
                let row = [1, committed, notDelivered, dropped, storageDropped, silent, overReported, resent]
                figures[key] = zip(figures[key] ?? Array(repeating: 0, count: row.count), row).map { $0 + $1 }
            }
        }
        let lines = figures.keys.sorted().map { key in
            let f = figures[key]!
            return "\(key): \(f[0]) runs, \(f[1]) committed, \(f[2]) not delivered, \(f[3]) reported dropped "
                + "(\(f[4]) storage_failed), \(f[5]) lost in silence, \(f[6]) reported lost but delivered, "
                + "\(f[7]) sent again"
        }
        print("issue 34, random faults, seed \(seed):\n  " + lines.joined(separator: "\n  "))
    }

    /// Truncates or flips bytes of the database or of its WAL; returns what it did.
    private func damage(_ files: inout Snapshot, using random: inout SplitMix64) -> String {
        let inWAL = !files.wal.isEmpty && Bool.random(using: &random)
        var bytes = inWAL ? files.wal : files.database
        let kind: String
        if Bool.random(using: &random) {
            let length =
                Int.random(in: 0..<5, using: &random) == 0 ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            bytes = bytes.prefix(length)
            kind = inWAL ? "WAL truncated" : "database truncated"
        } else {
            for _ in 1...Int.random(in: 1...4, using: &random) {
                let offset = Int.random(in: 0..<bytes.count, using: &random)
                bytes[bytes.startIndex + offset] ^= UInt8.random(in: 1...255, using: &random)
            }
            kind = inWAL ? "WAL bytes flipped" : "database bytes flipped"
        }
        if inWAL { files.wal = bytes } else { files.database = bytes }
        return kind
    }
}
#endif
