#if Delivery
import Foundation
import GRDB
import Tally
import TallyDelivery
import TallyTesting
import TallyTestSupport
import Testing

/// The durable queue: bounds, restarts, and a database that fails.
struct QueueTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func theCountBoundDropsTheOldestAndReportsOnce() async throws {
        let harness = try Harness { $0.maximumQueuedEvents = 5 }
        let destination = harness.destination()
        defer { destination.close() }
        for n in 1...8 { try await harness.receiveAndCommit(n...n, into: destination) }
        #expect(destination.statistics.queuedEvents == 5)
        #expect(destination.statistics.dropped == [.queueFull: 3])
        #expect(harness.reports.drops == [.queueFull: 3])
        #expect(harness.reports.codes == [.queueFull])
        await destination.flushed()
        #expect(harness.transport.sent.flatMap(\.numbers) == [4, 5, 6, 7, 8])
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func theByteBoundDropsTheOldest() async throws {
        let harness = try Harness { $0.maximumQueuedBytes = 40_000 }
        let destination = harness.destination()
        defer { destination.close() }
        // Each event is a little over 10 KB: three fit in 40,000 bytes, a fourth does not.
        for n in 1...6 { try await harness.receiveAndCommit(n...n, into: destination, padding: 10_000) }
        #expect(destination.statistics.queuedEvents == 3)
        #expect(destination.statistics.queuedBytes <= 40_000)
        #expect(destination.statistics.dropped == [.queueFull: 3])
        await destination.flushed()
        #expect(harness.transport.sent.flatMap(\.numbers) == [4, 5, 6])
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func eventsSurviveARestartWithTheirMessageIds() async throws {
        let harness = try Harness([.noAnswer], durable: true)
        let first = harness.destination()
        try await harness.receiveAndCommit(1...3, into: first)
        await first.flushed()  // the server is down: they stay queued
        first.close()
        #expect(first.statistics.isDurable)
        let lost = try #require(harness.transport.sent.first)

        let second = harness.destination()
        defer { second.close() }
        #expect(second.statistics.queuedEvents == 3)
        await second.flushed()
        let delivered = try #require(harness.transport.sent.last)
        #expect(delivered.numbers == [1, 2, 3])
        #expect(delivered.messageIds == lost.messageIds)
        #expect(second.statistics.delivered == 3)
        #expect(second.statistics.queuedEvents == 0)
    }

    /// Queues written before ids were made never to be reused keep their events, and take the new rule.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aQueueWhoseIdsCouldBeReusedIsMigratedWithItsEvents() async throws {
        let harness = try Harness([.noAnswer], durable: true)
        let first = harness.destination()
        try await harness.receiveAndCommit(1...3, into: first)
        first.close()
        let file = harness.folder.file("queue.sqlite")
        do {
            // The table as the first schema made it: a plain rowid, and only "v1" recorded as applied.
            let old = try DatabaseQueue(path: file.path)
            try await old.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE message_v1 (id INTEGER PRIMARY KEY, payload BLOB NOT NULL);
                        INSERT INTO message_v1 SELECT id, payload FROM message;
                        DROP TABLE message;
                        ALTER TABLE message_v1 RENAME TO message;
                        DELETE FROM grdb_migrations WHERE identifier <> 'v1';
                        """)
            }
            try old.close()
        }

        let second = harness.destination()
        defer { second.close() }
        #expect(second.statistics.queuedEvents == 3)
        await second.flushed()
        #expect(harness.transport.sent.last?.numbers == [1, 2, 3])
        let migrated = try DatabaseQueue(path: file.path)
        let schema = try await migrated.read {
            try String.fetchOne($0, sql: "SELECT sql FROM sqlite_master WHERE name = 'message'")
        }
        #expect(schema?.contains("AUTOINCREMENT") == true)
    }

    /// `close()` lets go of the file even while the destination object lives on: a connection can then take
    /// it for itself at once.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func closeReleasesTheQueueFile() async throws {
        let harness = try Harness([.noAnswer], durable: true)
        let destination = harness.destination()
        try await harness.receiveAndCommit(1...3, into: destination)
        destination.close()
        var configuration = GRDB.Configuration()
        configuration.busyMode = .immediateError
        let alone = try DatabaseQueue(path: harness.folder.file("queue.sqlite").path, configuration: configuration)
        try await alone.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
            try db.execute(sql: "BEGIN EXCLUSIVE")
            try db.execute(sql: "DELETE FROM message")
            try db.execute(sql: "COMMIT")
        }
        #expect(destination.statistics.queuedEvents == 3)
        #expect(throws: Problem.self) { try destination.receive(envelope(4), context: harness.context) }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func anEventIsRemovedOnlyAfterA2xxForItsBatch() async throws {
        let harness = try Harness([.hold], durable: true)
        let destination = harness.destination()
        try await harness.receiveAndCommit(1...2, into: destination)
        async let flushed: Void = destination.flushed()
        _ = await harness.transport.requests(count: 1)
        // In flight: still in the database, as another process opening it would see.
        let database = try DatabaseQueue(path: harness.folder.file("queue.sqlite").path)
        let whileInFlight = try await database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM message") }
        #expect(whileInFlight == 2)
        harness.transport.release()
        await flushed
        let afterTheAnswer = try await database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM message") }
        #expect(afterTheAnswer == 0)
        destination.close()
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aDatabaseThatCannotBeOpenedIsSetAsideAndReplacedAndSaysSo() async throws {
        let harness = try Harness(durable: true)
        // A folder where the database file should be.
        try FileManager.default.createDirectory(
            at: harness.folder.file("queue.sqlite"), withIntermediateDirectories: true)
        let destination = harness.destination()
        defer { destination.close() }
        #expect(destination.statistics.isDurable)
        try harness.receive(1...2, into: destination)
        await destination.flushed()
        #expect(destination.statistics.delivered == 2)
        let problem = try #require(harness.reports.problems.first)
        #expect(problem.code == .storageFailed)
        #expect(problem.outcome == .reported)
        #expect(problem.message.contains("set aside as queue.sqlite.damaged-"))
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aDatabaseThatTurnsReadOnlyKeepsEventsInMemoryWithinTheBoundAndRecovers() async throws {
        let refuser = WriteRefuser()
        let harness = try Harness(durable: true) {
            $0.maximumQueuedEvents = 5
            $0.flushInterval = 10_000  // only flushes send
            $0.prepareDatabase = { db in db.add(transactionObserver: refuser, extent: .databaseLifetime) }
        }
        let destination = harness.destination()
        defer { destination.close() }
        refuser.refusing.withLock { $0 = true }
        try harness.receive(1...1, into: destination)
        await destination.flushed()  // nothing could be committed: sent from memory
        try harness.receive(2...9, into: destination)  // no flush: they wait in memory
        var statistics = destination.statistics
        #expect(statistics.committed == 0)
        #expect(statistics.delivered == 1)
        #expect(statistics.staged == 5)
        #expect(statistics.dropped == [.storageFailed: 3])
        #expect(harness.reports.drops == [.storageFailed: 3])
        #expect(harness.reports.codes.contains(.storageFailed))
        #expect(harness.transport.sent.flatMap(\.numbers) == [1])

        // Writable again: the writer's next attempt, on the clock, commits what waited in memory.
        refuser.refusing.withLock { $0 = false }
        harness.clock.advance(by: .seconds(60))
        await harness.commits.reach(5)
        await destination.flushed()
        statistics = destination.statistics
        #expect(statistics.delivered == 6)
        #expect(harness.transport.sent.flatMap(\.numbers) == [1, 5, 6, 7, 8, 9])
        #expect(harness.reports.problems.contains { $0.message.contains("works again") })
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aBatchWhoseRemovalFailsIsNotSentAgainAndIsRemovedLater() async throws {
        let refuser = WriteRefuser()
        let harness = try Harness(durable: true) {
            $0.prepareDatabase = { db in db.add(transactionObserver: refuser, extent: .databaseLifetime) }
        }
        let destination = harness.destination()
        defer { destination.close() }
        try await harness.receiveAndCommit(1...2, into: destination)
        refuser.refusing.withLock { $0 = true }
        await destination.flushed()  // delivered, but the queue cannot remove them
        #expect(destination.statistics.delivered == 2)
        #expect(destination.statistics.queuedEvents == 0)
        #expect(harness.reports.codes == [.storageFailed])

        refuser.refusing.withLock { $0 = false }
        harness.clock.advance(by: .seconds(60))
        try await harness.receiveAndCommit(3...3, into: destination)
        await destination.flushed()
        #expect(harness.transport.sent.map(\.numbers) == [[1, 2], [3]])
        #expect(destination.statistics.delivered == 3)
        let database = try DatabaseQueue(path: harness.folder.file("queue.sqlite").path)
        let left = try await database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM message") }
        #expect(left == 0)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(2))) func aFullDatabaseReportsThenCommitsOnceSendingMadeRoom() async throws {
        // The first batch is held until the database has filled: otherwise a sender that keeps up (or a writer
        // slowed down, under ThreadSanitizer on a loaded machine) would make room before SQLite ever answers
        // SQLITE_FULL, and the test would not see what it is about.
        let harness = try Harness([.hold], durable: true) {
            $0.flushAt = 10
            // 16 pages of 4 KB: the queue holds about 200 small events, then SQLite answers SQLITE_FULL.
            $0.prepareDatabase = { db in try db.execute(sql: "PRAGMA max_page_count = 16") }
        }
        let destination = harness.destination()
        defer { destination.close() }
        try harness.receive(1...400, into: destination, padding: 100)
        await harness.reports.reach(.storageFailed)
        harness.transport.release()
        // Sending makes room; the writer retries on the clock's back-off until everything is committed.
        var rounds = 0
        while destination.statistics.delivered < 400 && rounds < 100 {
            await destination.flushed()
            harness.clock.advance(by: .seconds(60))
            rounds += 1
        }
        #expect(destination.statistics.delivered == 400)
        #expect(harness.transport.sent.flatMap(\.numbers) == Array(1...400))
        #expect(harness.reports.codes.contains(.storageFailed))
        #expect(harness.reports.drops.isEmpty)
    }
}
/// Refuses every commit while ``refusing`` is set, as SQLite does on a database that became read-only.
final class WriteRefuser: TransactionObserver, Sendable {
    let refusing = Locked(false)
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseWillCommit() throws {
        if refusing.current {
            throw DatabaseError(resultCode: .SQLITE_READONLY, message: "attempt to write a readonly database")
        }
    }
    func databaseDidCommit(_ db: Database) {}
    func databaseDidRollback(_ db: Database) {}
}
#endif
