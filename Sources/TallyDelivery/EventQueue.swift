#if Delivery
import Foundation
import GRDB
import Tally

/// The queue's storage: one SQLite table of encoded messages in arrival order, through GRDB.
///
/// A file opens as a `DatabasePool` in WAL mode (`synchronous = NORMAL`: a commit survives the process being
/// killed; a power cut may lose the last commits, reported at the next launch only when the ledger reached
/// the disk before them). Without a file, or when no file can be used, the queue is an in-memory database.
/// Beside a file, a ``QueueLedger`` (`<name>.ledger`) names the ids the file should hold, so that events the
/// file lost outside the app are counted when it opens next. The writer thread appends and evicts; the
/// sender thread reads batches and deletes what the server answered for. Every operation holds the queue's
/// lock, so that a damaged file can be replaced (``recover(stamp:keepingAbove:because:)``) while neither
/// thread is inside it.
///
/// `@unchecked Sendable`: `file`, `prepare` and the lock's contents are the only state; the lock guards the
/// database, whether it is durable, and the ledger.
final class EventQueue: @unchecked Sendable {
    /// One stored message.
    struct Message: Sendable {
        var id: Int64
        var payload: Data
    }

    /// The queue's database and whether it is in a file; only touched with the lock held.
    private struct Store {
        var database: any DatabaseWriter
        var isDurable: Bool
        /// How many times the database was replaced.
        var generation = 0
        /// The ids the database holds: added after each append commits, removed before each deletion does.
        var ledger = QueueLedger()
        /// Where the ledger is kept while the queue is in its file.
        var ledgerFile: QueueLedgerFile?
    }

    private let store: Locked<Store>
    private let file: URL?
    private let prepare: (@Sendable (Database) throws -> Void)?

    /// Whether the queue is in a file (it survives the process).
    var isDurable: Bool { store.withLock { $0.isDurable } }

    private init(database: any DatabaseWriter, file: URL?, prepare: (@Sendable (Database) throws -> Void)?) {
        store = Locked(Store(database: database, isDurable: file != nil))
        self.file = file
        self.prepare = prepare
    }

    /// Opens the database at `file`, or in memory when `file` is nil, and migrates it.
    private static func database(
        file: URL?, prepare: (@Sendable (Database) throws -> Void)?
    ) throws -> any DatabaseWriter {
        var configuration = GRDB.Configuration()
        configuration.label = "tally.delivery"
        if let prepare { configuration.prepareDatabase(prepare) }
        let database: any DatabaseWriter
        if let file {
            // A connection that closes (its last one checkpoints the WAL) locks the file for a moment: a
            // queue opened meanwhile waits for it, up to 5 s, rather than fall back to memory.
            configuration.busyMode = .timeout(5)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            database = try DatabasePool(path: file.path, configuration: configuration)
        } else {
            database = try DatabaseQueue(configuration: configuration)
        }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // `id` is arrival order. `payload` is the message's JSON, as sent.
            try db.execute(sql: "CREATE TABLE message (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
        }
        migrator.registerMigration("v2: ids never reused") { db in
            // A plain rowid is the largest id plus one, so a table that empties hands out old ids again; the
            // sender reads above the ids the server answered for, and would never see those rows.
            // AUTOINCREMENT ids only grow while the file lives.
            try db.execute(
                sql: """
                    CREATE TABLE message_v2 (id INTEGER PRIMARY KEY AUTOINCREMENT, payload BLOB NOT NULL);
                    INSERT INTO message_v2 (id, payload) SELECT id, payload FROM message;
                    DROP TABLE message;
                    ALTER TABLE message_v2 RENAME TO message;
                    """)
        }
        do {
            try migrator.migrate(database)
            // A damaged page anywhere in the file shows here, not at the first read that reaches it.
            try database.read { db in
                let verdict = try String.fetchAll(db, sql: "PRAGMA quick_check(1)")
                if verdict != ["ok"] {
                    throw DatabaseError(
                        resultCode: .SQLITE_CORRUPT, message: "quick_check: \(verdict.joined(separator: "; "))")
                }
            }
        } catch {
            try? database.close()
            throw error
        }
        return database
    }

    /// Opens an in-memory queue; cannot fail in practice.
    static func inMemory() -> EventQueue {
        // An in-memory database needs no file, so only a broken SQLite could make this throw.
        let memory = try! database(file: nil, prepare: nil)  // swiftlint:disable:this force_try
        return EventQueue(database: memory, file: nil, prepare: nil)
    }

    /// Opens the queue at `file` (in memory when nil). A file that is damaged or cannot be opened is set
    /// aside as `<name>.damaged-<stamp>` and replaced by a new queue holding the messages that could still be
    /// read; when that fails too, or the failure may pass (a full disk, a lock), the queue is in memory and
    /// the file is left as it is.
    ///
    /// The ledger beside the file (see ``QueueLedger``) says which events the file should hold: those it
    /// lacks (the file emptied, deleted, cut short or rolled back outside the app, or unreadable) are `lost`,
    /// and the problem says so. A file from before ledgers, or with no ledger beside it, reports nothing.
    ///
    /// - Returns: the queue, what went wrong (for a `storage_failed` problem) when the file was not used as it
    ///   was or lacked events, and how many events it lacked.
    static func open(
        file: URL?, prepare: (@Sendable (Database) throws -> Void)?, stamp: String
    ) -> (queue: EventQueue, problem: String?, lost: Int64) {
        guard let file else { return (inMemory(), nil, 0) }
        // Read before SQLite touches the file (an empty file's WAL is deleted when it opens).
        let recorded = (try? Data(contentsOf: QueueLedger.url(beside: file))).flatMap(QueueLedger.init)
        let size = Self.size(of: file)
        let (queue, problem) = openOrReplace(file: file, prepare: prepare, stamp: stamp)
        guard let queue else { return (inMemory(), problem, 0) }  // the file, and its ledger, are left as they are
        let lost = queue.startLedger(checking: recorded)
        guard lost > 0 else { return (queue, problem, 0) }
        let why =
            switch (problem, size) {
            case (.some, _): "they could not be read"
            case (nil, nil): "the file was missing"
            case (nil, .some(0)): "the file was found empty"
            default:
                "the file or its write-ahead log was cut short, rolled back or damaged outside the app, or a power cut lost its last commits"
            }
        let lostProblem =
            "\(lost) events committed to the queue, and neither sent nor dropped, are missing from its database (\(why)); they were lost"
        return (
            queue, problem.map { "\($0); \(lostProblem)" } ?? "The queue's database lost events: \(lostProblem)", lost
        )
    }

    /// The size of `file` in bytes: nil when there is none, -1 when it cannot be read. (Read through a file
    /// handle, not file attributes, which Apple's privacy manifests count among file timestamp APIs.)
    private static func size(of file: URL) -> Int64? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        guard let handle = try? FileHandle(forReadingFrom: file) else { return -1 }
        defer { try? handle.close() }
        return (try? handle.seekToEnd()).map { Int64(clamping: $0) } ?? -1
    }

    /// Opens the queue at `file`, or sets it aside and replaces it; nil when the failure may pass (the file is
    /// then left as it is).
    private static func openOrReplace(
        file: URL, prepare: (@Sendable (Database) throws -> Void)?, stamp: String
    ) -> (queue: EventQueue?, problem: String?) {
        do {
            return (EventQueue(database: try database(file: file, prepare: prepare), file: file, prepare: prepare), nil)
        } catch {
            guard !isPassing(error) else {
                return (
                    nil,
                    "The queue's database could not be opened (\(error)); it is left as it is, and events are queued in memory and will not survive the app"
                )
            }
            // Whatever can still be read is kept: the rows before and after a damaged page.
            let salvaged: [Message] = {
                guard let damaged = try? DatabaseQueue(path: file.path) else { return [] }
                defer { try? damaged.close() }
                return salvage(from: damaged)
            }()
            let memory = try! database(file: nil, prepare: nil)  // swiftlint:disable:this force_try
            let queue = EventQueue(database: memory, file: file, prepare: prepare)
            queue.store.withLock { $0.isDurable = false }
            let problem = queue.store.withLock { store in
                queue.replace(&store, salvaged: salvaged, because: error, stamp: stamp)
            }
            return (queue, problem)
        }
    }

    /// Counts the ids `recorded` names that the database lacks, deletes again the rows it holds that were
    /// deleted (and counted) before a fault brought them back (see ``QueueLedger/revived(in:)``), then starts
    /// the ledger from what the database holds. Returns how many were lacking.
    private func startLedger(checking recorded: QueueLedger?) -> Int64 {
        store.withLock { store in
            let missing = (try? store.database.read { db in try recorded?.missing(in: db) }) ?? nil
            let revived = (try? store.database.read { db in try recorded?.revived(in: db) }) ?? nil
            if let revived, !revived.isEmpty {
                // When this fails, the rows stay queued and are sent again, as they were before ledgers.
                try? store.database.write { db in
                    let statement = try db.cachedStatement(sql: "DELETE FROM message WHERE id BETWEEN ? AND ?")
                    for span in revived { try statement.execute(arguments: [span.first, span.last]) }
                }
            }
            restartLedger(&store)
            return missing ?? 0
        }
    }

    /// Takes the ledger again from what the database holds, and writes it beside the file; a queue that fell
    /// back to memory leaves an empty ledger there, so that what it lost is not reported again.
    private func restartLedger(_ store: inout Store) {
        store.ledger = (try? store.database.read { try QueueLedger.of($0) }) ?? QueueLedger()
        guard let file else { return }
        if store.ledgerFile == nil { store.ledgerFile = QueueLedgerFile(beside: file) }
        store.ledgerFile?.write(store.isDurable ? store.ledger : QueueLedger())
        if !store.isDurable {
            store.ledgerFile?.close()
            store.ledgerFile = nil
        }
    }

    /// Replaces the queue's file after a read found it damaged: keeps what can still be read (above `floor`:
    /// ids up to it were answered for), sets the file aside and opens a new one, or falls back to memory.
    ///
    /// - Returns: what happened, for a `storage_failed` problem, and the totals of the new queue.
    func recover(
        stamp: String, keepingAbove floor: Int64, because error: any Error
    ) -> (problem: String, count: Int, bytes: Int, lastId: Int64, generation: Int) {
        store.withLock { store in
            let salvaged = Self.salvage(from: store.database).filter { $0.id > floor }
            try? store.database.close()
            store.database = try! Self.database(file: nil, prepare: nil)  // swiftlint:disable:this force_try
            store.isDurable = false
            let problem = replace(&store, salvaged: salvaged, because: error, stamp: stamp)
            restartLedger(&store)
            store.generation += 1
            return (
                problem, salvaged.count, salvaged.reduce(0) { $0 + $1.payload.count }, salvaged.last?.id ?? 0,
                store.generation
            )
        }
    }

    /// Sets the file aside, opens a new one and copies `salvaged` into it; in memory when that fails.
    private func replace(
        _ store: inout Store, salvaged: [Message], because error: any Error, stamp: String
    ) -> String {
        guard let file else {
            try? Self.insert(salvaged, into: store.database)
            return "The queue's in-memory database failed (\(error)); \(salvaged.count) events it still held were kept"
        }
        let kept = "\(salvaged.count) events it still held were kept"
        let aside: String?
        do {
            aside = try Self.setAside(file, stamp: stamp)
        } catch let moveError {
            try? Self.insert(salvaged, into: store.database)
            return
                "The queue's database is damaged or cannot be opened (\(error)) and could not be set aside (\(moveError)); events are queued in memory and will not survive the app (\(kept))"
        }
        let what = aside.map { "it was set aside as \($0)" } ?? "there was no file to set aside"
        do {
            let fresh = try Self.database(file: file, prepare: prepare)
            try Self.insert(salvaged, into: fresh)
            try? store.database.close()
            store.database = fresh
            store.isDurable = true
            return
                "The queue's database was damaged or could not be opened (\(error)); \(what) and a new queue replaced it (\(kept))"
        } catch let freshError {
            try? Self.insert(salvaged, into: store.database)
            return
                "The queue's database was damaged or could not be opened (\(error)); \(what), but no new queue could be created (\(freshError)): events are queued in memory and will not survive the app (\(kept))"
        }
    }

    /// Whether `error` may pass by itself (full disk, lock, memory): the file is then not set aside.
    static func isPassing(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return [.SQLITE_FULL, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_NOMEM, .SQLITE_INTERRUPT, .SQLITE_IOERR]
            .contains(error.resultCode)
    }

    /// Whether `error` says the file is damaged or is no database.
    static func isDamage(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// The drop reason for events lost because of `error`: `storage_full` for a full disk (or database),
    /// `storage_failed` otherwise.
    static func dropReason(for error: any Error) -> DropReason {
        (error as? DatabaseError)?.resultCode == .SQLITE_FULL ? .storageFull : .storageFailed
    }

    /// The messages that can still be read, in order: from the start up to the first damaged page, and
    /// from the end back to the last. A row whose payload is not bytes is left behind (see ``message(in:)``).
    private static func salvage(from database: any DatabaseReader) -> [Message] {
        var forward: [Message] = []
        var backward: [Message] = []
        var lastRead = Int64.min
        try? database.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT id, payload FROM message ORDER BY id")
            while let row = try rows.next() {
                lastRead = row[0]
                if let message = try? Self.message(in: row) { forward.append(message) }
            }
        }
        try? database.read { db in
            let rows = try Row.fetchCursor(
                db, sql: "SELECT id, payload FROM message WHERE id > ? ORDER BY id DESC", arguments: [lastRead])
            while let row = try rows.next() {
                if let message = try? Self.message(in: row) { backward.append(message) }
            }
        }
        return forward + backward.reversed()
    }

    /// The message of a row `SELECT id, payload`. SQLite keeps any type in any column, so a file written by
    /// something else can hold a payload that is not bytes (a number): that row is damage, thrown as
    /// `SQLITE_CORRUPT`, so the queue is set aside and the rest kept, as for a damaged page. (Read as bytes,
    /// SQLite would hand over the number's text, and the batch would carry `42` where a JSON message
    /// belongs: an API refuses the whole batch for it.)
    private static func message(in row: Row) throws -> Message {
        let id: Int64 = row[0]
        let value: DatabaseValue = row[1]
        guard let payload = Data.fromDatabaseValue(value) else {
            throw DatabaseError(
                resultCode: .SQLITE_CORRUPT,
                message: "the queue's message \(id) holds \(value) where its payload's bytes should be")
        }
        return Message(id: id, payload: payload)
    }

    /// Copies `messages`, with their ids, into `database` in one transaction.
    private static func insert(_ messages: [Message], into database: any DatabaseWriter) throws {
        guard !messages.isEmpty else { return }
        try database.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO message (id, payload) VALUES (?, ?)")
            for message in messages { try statement.execute(arguments: [message.id, message.payload]) }
        }
    }

    /// Renames `file` (and its `-wal` and `-shm`) to `<name>.damaged-<stamp>`, with a number after the stamp
    /// when that name is taken; returns the new name, or nil when there was no file.
    private static func setAside(_ file: URL, stamp: String) throws -> String? {
        let manager = FileManager.default
        guard manager.fileExists(atPath: file.path) else { return nil }
        let folder = file.deletingLastPathComponent()
        var name = "\(file.lastPathComponent).damaged-\(stamp)"
        var number = 1
        while manager.fileExists(atPath: folder.appendingPathComponent(name).path) {
            number += 1
            name = "\(file.lastPathComponent).damaged-\(stamp)-\(number)"
        }
        try manager.moveItem(at: file, to: folder.appendingPathComponent(name))
        for suffix in ["-wal", "-shm"] {
            let companion = URL(fileURLWithPath: file.path + suffix)
            if manager.fileExists(atPath: companion.path) {
                try? manager.moveItem(at: companion, to: folder.appendingPathComponent(name + suffix))
            }
        }
        return name
    }

    /// How many messages the queue holds and their bytes, and the last id.
    func totals() throws -> (count: Int, bytes: Int, lastId: Int64) {
        try store.withLock {
            try $0.database.read { db in
                let row = try Row.fetchOne(
                    db, sql: "SELECT count(*), coalesce(sum(length(payload)), 0), coalesce(max(id), 0) FROM message")
                return (row?[0] ?? 0, row?[1] ?? 0, row?[2] ?? 0)
            }
        }
    }

    /// Appends `payloads` in one transaction and returns the id of the last, and the generation of the
    /// database they went to.
    func append(_ payloads: [[UInt8]]) throws -> (lastId: Int64, generation: Int) {
        try store.withLock { store in
            let lastId = try store.database.write { db in
                // Not a cached statement: GRDB keeps a statement's last arguments after it ran, and the last
                // `Data` here points into a payload freed when this returns. This statement goes with them.
                let statement = try db.makeStatement(sql: "INSERT INTO message (payload) VALUES (?)")
                for payload in payloads {
                    try payload.withUnsafeBytes { buffer in
                        let data = Data(
                            bytesNoCopy: UnsafeMutableRawPointer(
                                mutating: buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!),
                            count: buffer.count, deallocator: .none)
                        try statement.execute(arguments: [data])
                    }
                }
                return db.lastInsertedRowID
            }
            // Committed: the ledger names them now (the ids of one transaction's inserts follow each other).
            if !payloads.isEmpty {
                store.ledger.add(lastId - Int64(payloads.count) + 1, through: lastId)
                store.ledgerFile?.write(store.ledger)
            }
            return (lastId, store.generation)
        }
    }

    /// Deletes the oldest messages with an id above `floor` until at least `count` messages and `bytes` bytes
    /// are gone (or none is left above `floor`); returns how many and how many bytes were deleted.
    func evictOldest(count: Int, bytes: Int, above floor: Int64) throws -> (count: Int, bytes: Int) {
        try store.withLock { store in
            try removing(&store) { db, ledger in
                var deleted = 0
                var deletedBytes = 0
                var last: Int64?
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT id, length(payload) FROM message WHERE id > ? ORDER BY id", arguments: [floor])
                while deleted < count || deletedBytes < bytes, let row = try rows.next() {
                    last = row[0]
                    deleted += 1
                    deletedBytes += row[1] as Int? ?? 0
                }
                if let last {
                    try db.execute(sql: "DELETE FROM message WHERE id > ? AND id <= ?", arguments: [floor, last])
                    ledger.remove(floor + 1, through: last)
                }
                return (deleted, deletedBytes)
            }
        }
    }

    /// The oldest messages with an id above `floor`, in order: at most `limit`, and as many as fit in
    /// `maximumBytes` of payload (at least one).
    func oldest(limit: Int, maximumBytes: Int, above floor: Int64 = 0) throws -> [Message] {
        try store.withLock {
            try $0.database.read { db in
                var messages: [Message] = []
                var bytes = 0
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT id, payload FROM message WHERE id > ? ORDER BY id LIMIT ?",
                    arguments: [floor, limit])
                while let row = try rows.next() {
                    let message = try Self.message(in: row)
                    if !messages.isEmpty && bytes + message.payload.count > maximumBytes { break }
                    bytes += message.payload.count
                    messages.append(message)
                }
                return messages
            }
        }
    }

    /// Closes the database, so that the file is free for the next queue opened on it; every later call fails.
    func close() {
        store.withLock {
            try? $0.database.close()
            $0.ledgerFile?.close()
            $0.ledgerFile = nil
        }
    }

    /// Deletes the messages with ids from `first` to `last`, both included.
    func delete(from first: Int64, through last: Int64) throws {
        try store.withLock { store in
            try removing(&store) { db, ledger in
                try db.execute(sql: "DELETE FROM message WHERE id BETWEEN ? AND ?", arguments: [first, last])
                ledger.remove(first, through: last)
            }
        }
    }

    /// Runs `deletion` in a transaction, with the ledger to remove the ids it deletes from; the ledger is
    /// written before the transaction commits, with the deletion pending (a process killed between the two
    /// leaves a ledger naming fewer ids than the file holds, never more, and those rows stay queued), written
    /// again once it committed (the deletion no longer pending: rows of it that a fault brings back were
    /// counted, and are deleted again when the queue opens next), and written back as it was when the
    /// transaction fails.
    private func removing<T>(_ store: inout Store, _ deletion: (Database, inout QueueLedger) throws -> T) throws -> T {
        let before = store.ledger
        var after = before
        do {
            let ledgerFile = store.ledgerFile
            let result = try store.database.write { db in
                let result = try deletion(db, &after)
                if after != before { ledgerFile?.write(after) }
                return result
            }
            if after.pending != nil {
                after.pending = nil
                ledgerFile?.write(after)
            }
            store.ledger = after
            return result
        } catch {
            if after != before { store.ledgerFile?.write(before) }
            throw error
        }
    }
}
#endif
