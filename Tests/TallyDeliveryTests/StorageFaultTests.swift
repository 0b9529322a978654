#if Delivery
import Foundation
import GRDB
import Tally
import TallyDelivery
import TallyTesting
import TallyTestSupport
import Testing

/// Storage faults never swallow an event: a damaged or unopenable queue file is set aside and replaced, an
/// acknowledged batch is not sent again in a loop, events waiting in memory keep flowing, drops caused by
/// storage say so, and a 413 is remembered.
@Suite(.serialized) struct StorageFaultTests {
    private let storageFull = DropReason(rawValue: "storage_full")

    /// Files in the harness's folder whose name starts with `queue.sqlite.damaged-`.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    private func setAside(in harness: Harness) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: harness.folder.url.path)
            .filter { $0.hasPrefix("queue.sqlite.damaged-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aDamagedPageIsSetAsideAndWhatCanStillBeReadIsSent() async throws {
        let harness = try Harness(durable: true)
        do {
            let first = harness.destination()
            try await harness.receiveAndCommit(1...300, into: first, padding: 200)
            first.close()
        }
        let file = harness.folder.file("queue.sqlite")
        try await damageAPageInTheMiddle(of: file)
        let second = harness.destination()
        let queued = second.statistics.queuedEvents
        #expect(second.statistics.isDurable)
        #expect(queued > 200 && queued < 300, "what can still be read is kept: \(queued)")
        try harness.receive(301...303, into: second)
        await second.flushed()
        let numbers = harness.transport.sent.flatMap(\.numbers)
        #expect(numbers.count == queued + 3)
        #expect(numbers.first == 1)
        #expect(Array(numbers.suffix(4)) == [300, 301, 302, 303])
        #expect(second.statistics.delivered == queued + 3)
        #expect(second.statistics.queuedEvents == 0)
        second.close()

        let names = try setAside(in: harness)
        #expect(names.count == 1)
        let problem = try #require(harness.reports.problems.first { $0.code == .storageFailed })
        #expect(names.allSatisfy { problem.message.contains($0) }, "\(problem.message)")
        #expect(harness.reports.codes == [.storageFailed])

        // The next launch finds a sound queue: nothing to report, nothing left.
        let third = harness.destination()
        defer { third.close() }
        #expect(third.statistics.isDurable)
        #expect(third.statistics.queuedEvents == 0)
        try harness.receive(304...304, into: third)
        await third.flushed()
        #expect(harness.transport.sent.last?.numbers == [304])
        #expect(harness.reports.codes == [.storageFailed])
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aReadThatFindsTheFileDamagedSetsItAsideAndCountsWhatWasLost() async throws {
        let harness = try Harness(durable: true)
        do {
            let first = harness.destination()
            try await harness.receiveAndCommit(1...300, into: first, padding: 200)
            first.close()
        }
        let second = harness.destination()  // sound when it opens
        defer { second.close() }
        #expect(second.statistics.queuedEvents == 300)
        try await damageAPageInTheMiddle(of: harness.folder.file("queue.sqlite"))
        try harness.receive(301...301, into: second)
        await second.flushed()  // a read meets the damaged page

        let statistics = second.statistics
        let lost = statistics.dropped[.storageFailed] ?? 0
        #expect(lost > 0 && lost < 100, "lost \(lost)")
        #expect(statistics.dropped == [.storageFailed: lost])
        #expect(harness.reports.drops == [.storageFailed: lost])
        #expect(statistics.delivered + lost == 301)
        #expect(statistics.queuedEvents == 0)
        #expect(statistics.isDurable)
        let numbers = Set(harness.transport.sent.flatMap(\.numbers))
        #expect(numbers.count == 301 - lost)
        #expect(numbers.contains(1) && numbers.contains(301))
        let names = try setAside(in: harness)
        #expect(names.count == 1)
        let problem = try #require(harness.reports.problems.first { $0.code == .storageFailed })
        #expect(names.allSatisfy { problem.message.contains($0) }, "\(problem.message)")
    }

    /// SQLite keeps any type in any column: a queue file written by something else can hold a number where a
    /// message's bytes belong. That row is damage: the file is set aside, the one event is counted lost, the
    /// others are sent (before, the number's text went into the batch as a message, which an API refuses
    /// with the whole batch).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: ["42", "4.5"]) func aPayloadThatIsNotBytesIsSetAsideNotSent(_ value: String) async throws {
        let harness = try Harness(durable: true)
        do {
            let first = harness.destination()
            try await harness.receiveAndCommit(1...10, into: first)
            first.close()
        }
        do {
            let database = try DatabaseQueue(path: harness.folder.file("queue.sqlite").path)
            try await database.write { try $0.execute(sql: "UPDATE message SET payload = \(value) WHERE id = 5") }
            try database.close()
        }
        let second = harness.destination()
        defer { second.close() }
        #expect(second.statistics.queuedEvents == 10)
        try harness.receive(11...11, into: second)
        await second.flushed()

        let statistics = second.statistics
        #expect(statistics.dropped == [.storageFailed: 1])
        #expect(harness.reports.drops == [.storageFailed: 1])
        #expect(statistics.delivered == 10)
        #expect(statistics.queuedEvents == 0)
        #expect(harness.transport.sent.flatMap(\.numbers) == [1, 2, 3, 4, 6, 7, 8, 9, 10, 11])
        let problem = try #require(harness.reports.problems.first { $0.code == .storageFailed })
        #expect(problem.message.contains("message 5 holds \(value)"), "\(problem.message)")
        #expect(try setAside(in: harness).count == 1)
    }

    /// Moves everything into the main file, then overwrites a page in its middle, as a bad sector would.
    private func damageAPageInTheMiddle(of file: URL) async throws {
        do {
            let database = try DatabaseQueue(path: file.path)
            _ = try await database.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            try database.close()
        }
        let handle = try FileHandle(forUpdating: file)
        let pages = try handle.seekToEnd() / 4096
        #expect(pages > 10)
        try handle.seek(toOffset: (pages / 2) * 4096)
        handle.write(Data(repeating: 0xA5, count: 4096))
        try handle.close()
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: ["garbage", "directory"])
    func aQueueFileThatCannotBeOpenedIsSetAsideAndReplaced(_ kind: String) async throws {
        let harness = try Harness(durable: true)
        let file = harness.folder.file("queue.sqlite")
        if kind == "directory" {
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        } else {
            try Data(repeating: 0x42, count: 10_000).write(to: file)
        }
        let first = harness.destination()
        #expect(first.statistics.isDurable)
        try harness.receive(1...2, into: first)
        await first.flushed()
        #expect(first.statistics.delivered == 2)
        first.close()
        let names = try setAside(in: harness)
        #expect(names.count == 1)
        let problem = try #require(harness.reports.problems.first)
        #expect(problem.code == .storageFailed)
        #expect(names.allSatisfy { problem.message.contains($0) }, "\(problem.message)")

        // Durable again: what the next launch queues survives it.
        let second = harness.destination()
        defer { second.close() }
        #expect(second.statistics.isDurable)
        #expect(harness.reports.codes == [.storageFailed])
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func whenNoQueueCanBeCreatedItRunsInMemoryAndSaysSoAtEveryLaunch() async throws {
        let harness = try Harness(durable: true) {
            // A regular file where the queue's folder should be: nothing can be created under it.
            $0.database = $0.database?.deletingLastPathComponent()
                .appendingPathComponent("blocker").appendingPathComponent("queue.sqlite")
        }
        try Data("not a folder".utf8).write(to: harness.folder.file("blocker"))
        for launch in 1...2 {
            let destination = harness.destination()
            #expect(!destination.statistics.isDurable)
            try harness.receive(launch...launch, into: destination)
            await destination.flushed()
            #expect(destination.statistics.delivered == 1)
            destination.close()
            #expect(harness.reports.codes == Array(repeating: .storageFailed, count: launch))
            #expect(harness.reports.problems.allSatisfy { $0.message.contains("in memory") })
        }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func anAcknowledgedBatchIsNotSentAgainWhileTheQueueCannotDeleteIt() async throws {
        let fault = StorageFault()
        let harness = try Harness(durable: true) {
            $0.prepareDatabase = { db in db.add(transactionObserver: fault, extent: .databaseLifetime) }
        }
        let destination = harness.destination()
        defer { destination.close() }
        try await harness.receiveAndCommit(1...2, into: destination)
        fault.full.withLock { $0 = true }
        await destination.flushed()  // delivered; the disk is full, so the queue cannot delete them
        #expect(destination.statistics.delivered == 2)
        #expect(destination.statistics.queuedEvents == 0)
        // 20 minutes of the clock: no second copy.
        for _ in 1...20 {
            harness.clock.advance(by: .seconds(60))
            await destination.flushed()
        }
        #expect(harness.transport.sent.map(\.numbers) == [[1, 2]])

        // Events that wait in memory while the disk is full still reach a server that answers.
        try harness.receive(3...5, into: destination)
        await destination.flushed()
        #expect(harness.transport.sent.flatMap(\.numbers) == [1, 2, 3, 4, 5])
        #expect(destination.statistics.delivered == 5)
        #expect(destination.statistics.dropped.isEmpty)

        // Room again: the acknowledged rows go, and nothing is sent twice.
        fault.full.withLock { $0 = false }
        harness.clock.advance(by: .seconds(60))
        try harness.receive(6...6, into: destination)
        await destination.flushed()
        #expect(harness.transport.sent.flatMap(\.numbers) == [1, 2, 3, 4, 5, 6])
        let database = try DatabaseQueue(path: harness.folder.file("queue.sqlite").path)
        let left = try await database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM message") }
        #expect(left == 0)
    }

    /// SQLite gives a row the largest id plus one, so a table that empties would hand out the ids of the rows
    /// the server answered for again, and the sender, which reads above them, would never see the new ones.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.timeLimit(.minutes(1))) func anEventQueuedAfterTheAnsweredRowsAreFinallyRemovedIsSent() async throws {
        let fault = StorageFault()
        let harness = try Harness(durable: true) {
            $0.prepareDatabase = { db in db.add(transactionObserver: fault, extent: .databaseLifetime) }
        }
        let destination = harness.destination()
        defer { destination.close() }
        try await harness.receiveAndCommit(1...2, into: destination)
        fault.full.withLock { $0 = true }
        await destination.flushed()  // delivered; rows 1 and 2 stay, not to be sent again
        // Deletes work again but inserts still fail: 3 is sent from memory, and rows 1 and 2 go before it.
        fault.full.withLock { $0 = false }
        fault.insertsFail.withLock { $0 = true }
        try harness.receive(3...3, into: destination)
        await destination.flushed()
        let database = try DatabaseQueue(path: harness.folder.file("queue.sqlite").path)
        #expect(try await database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM message") } == 0)
        // The queue works again: past the writer's retry (0.5 s ± 10 %), not the send interval (30 s), so
        // 4 is committed, not sent from memory, and under an id the sender has not answered for.
        fault.insertsFail.withLock { $0 = false }
        try await harness.clock.timer(after: harness.clock.now, in: 0.45...0.55)  // the writer's retry, asleep
        harness.clock.advance(by: .seconds(1))
        try harness.receive(4...4, into: destination)
        await destination.flushed()
        #expect(harness.transport.sent.flatMap(\.numbers) == [1, 2, 3, 4])
        #expect(try await database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM message") } == 0)
        #expect(destination.statistics.queuedEvents == 0)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func eventsDroppedBecauseOfAFullDiskSaySo() async throws {
        let fault = StorageFault()
        let harness = try Harness(standing: .noAnswer, durable: true) {
            $0.maximumQueuedEvents = 5
            $0.prepareDatabase = { db in db.add(transactionObserver: fault, extent: .databaseLifetime) }
        }
        let destination = harness.destination()
        fault.full.withLock { $0 = true }
        try harness.receive(1...1, into: destination)
        await destination.flushed()  // the disk is full and the server down: it waits in memory
        try harness.receive(2...8, into: destination)
        #expect(destination.statistics.dropped == [storageFull: 3])
        destination.close()  // five still in memory, never written
        #expect(destination.statistics.dropped == [storageFull: 8])
        #expect(harness.reports.drops == [storageFull: 8])
        #expect(harness.reports.drops[.queueFull] == nil)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func after413TheNextBatchesStartAtTheSizeThatFitted() async throws {
        let harness = try Harness(standing: .tooLargeAbove(25))
        let destination = harness.destination()
        defer { destination.close() }
        try await harness.receiveAndCommit(1...300, into: destination)
        await destination.flushed()
        let sent = harness.transport.sent
        #expect(destination.statistics.delivered == 300)
        #expect(sent.filter { $0.messages.count <= 25 }.flatMap(\.numbers) == Array(1...300))
        let refused = sent.filter { $0.messages.count > 25 }.map(\.messages.count)
        #expect(refused == [100, 50], "413s: \(refused)")
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func theBatchSizeGrowsBackSlowlyAfterA413() async throws {
        let harness = try Harness([.status(413)])
        let destination = harness.destination()
        defer { destination.close() }
        try await harness.receiveAndCommit(1...1_000, into: destination)
        await destination.flushed()
        #expect(destination.statistics.delivered == 1_000)
        let sizes = harness.transport.sent.map(\.messages.count)
        // 50 fitted: ten batches of 50, then a quarter more.
        #expect(Array(sizes.prefix(14)) == [100, 50, 50] + Array(repeating: 50, count: 10) + [62], "\(sizes)")
    }
}

/// Refuses every commit with `SQLITE_FULL` while ``full`` is set, as SQLite does on a full disk.
final class StorageFault: TransactionObserver, Sendable {
    /// Every write fails.
    let full = Locked(false)
    /// Only writes that insert rows fail (deletes work).
    let insertsFail = Locked(false)
    private let inserted = Locked(false)

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        if case .insert = eventKind { return true }
        return false
    }
    func databaseDidChange(with event: DatabaseEvent) { inserted.withLock { $0 = true } }
    func databaseWillCommit() throws {
        let insert = inserted.withLock { inserted in
            defer { inserted = false }
            return inserted
        }
        if full.current || (insert && insertsFail.current) {
            throw DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full")
        }
    }
    func databaseDidCommit(_ db: Database) {}
    func databaseDidRollback(_ db: Database) { inserted.withLock { $0 = false } }
}
#endif
