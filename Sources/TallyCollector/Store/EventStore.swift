#if Collector
import Foundation
import GRDB
import GRDBSQLite
import Tally
import TallyPlan

/// The collector's SQLite database: every event, in arrival order.
///
/// ## Concurrency
/// One `DatabasePool` in WAL mode (a `DatabaseQueue` for `:memory:`): reads run beside the writer and see
/// the last committed state. All writes go through one queue of pending inserts, drained by one task:
/// the requests that arrive while a transaction commits are written together in the next one, so a load
/// of many small batches costs few commits. ``insert(_:)`` returns only after its transaction committed;
/// ``onCommit`` then hears of the new events, before any caller is answered.
///
/// ## Durability
/// `synchronous = NORMAL` in WAL mode: a committed transaction survives the collector being killed
/// (`kill -9`); a power cut may lose the last transactions before a checkpoint.
final class EventStore: Sendable {
    /// The database. `any DatabaseWriter` is Sendable; GRDB serializes its use.
    let database: any DatabaseWriter
    /// Told of every committed insert, with the stored events, on the writing task.
    private let listeners = Locked<[@Sendable ([StoredEvent]) -> Void]>([])
    private let queue = Locked(Pending())
    private let tasks: CollectorTasks

    private struct Pending {
        var jobs: [Job] = []
        var draining = false
    }

    private struct Job {
        var events: [StoredEvent]
        var continuation: CheckedContinuation<[StoredEvent], any Error>
    }

    /// Opens (creating when missing) the database at `path`, or an in-memory one for `:memory:`.
    ///
    /// - Throws: GRDB's error when the file cannot be opened or is not a collector database.
    init(path: String, tasks: CollectorTasks) throws {
        self.tasks = tasks
        var configuration = Configuration()
        configuration.label = "tally.collector"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        if path == ":memory:" {
            database = try DatabaseQueue(configuration: configuration)
        } else {
            database = try DatabasePool(path: path, configuration: configuration)
        }
        try Self.migrator.migrate(database)
    }

    /// The schema, in migrations so that later versions can change it without losing a database.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: events") { db in
            try db.execute(
                sql: """
                    CREATE TABLE event (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        received_at INTEGER NOT NULL,
                        session TEXT NOT NULL,
                        source TEXT NOT NULL,
                        type TEXT NOT NULL,
                        name TEXT NOT NULL,
                        properties TEXT NOT NULL,
                        user_id TEXT,
                        anonymous_id TEXT,
                        group_id TEXT,
                        previous_id TEXT,
                        message_id TEXT,
                        timestamp TEXT,
                        context TEXT NOT NULL,
                        write_key TEXT,
                        violations TEXT
                    );
                    CREATE INDEX event_by_session ON event(session);
                    CREATE UNIQUE INDEX event_by_message_id ON event(session, message_id) WHERE message_id IS NOT NULL;
                    """)
        }
        // What a Tally record says beyond the event: its consent purpose, the consent it was delivered with,
        // its stage and its origin. Events stored before have none of them (a record's were lost then) and
        // read as delivered.
        migrator.registerMigration("v2: purpose, consent, stage, origin") { db in
            try db.execute(
                sql: """
                    ALTER TABLE event ADD COLUMN purpose TEXT;
                    ALTER TABLE event ADD COLUMN consent TEXT;
                    ALTER TABLE event ADD COLUMN stage TEXT NOT NULL DEFAULT 'delivered';
                    ALTER TABLE event ADD COLUMN origin TEXT;
                    """)
        }
        return migrator
    }

    /// Calls `listener` with the events of every committed insert, in commit order, before the inserting
    /// callers are answered.
    func onCommit(_ listener: @escaping @Sendable ([StoredEvent]) -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    // MARK: Writing

    /// Stores `events` and returns them with their ids, once committed. An event whose session already
    /// holds its message id is a client's retry: it is not stored again and is left out of the result.
    ///
    /// - Throws: the database's error when its transaction fails; nothing of `events` is stored then. The
    ///   requests written in the same round are not refused with it: a round that fails is written again one
    ///   request at a time.
    func insert(_ events: [StoredEvent]) async throws -> [StoredEvent] {
        guard !events.isEmpty else { return [] }
        return try await withCheckedThrowingContinuation { continuation in
            let start = queue.withLock { pending in
                pending.jobs.append(Job(events: events, continuation: continuation))
                defer { pending.draining = true }
                return !pending.draining
            }
            if start { tasks.spawn { await self.drain() } }
        }
    }

    /// Writes what is pending, one transaction per round, until nothing is.
    private func drain() async {
        while true {
            let jobs = queue.withLock { pending in
                defer { pending.jobs = [] }
                if pending.jobs.isEmpty { pending.draining = false }
                return pending.jobs
            }
            if jobs.isEmpty { return }
            do {
                let stored = try commit(jobs.map(\.events))
                let all = stored.flatMap { $0 }
                if !all.isEmpty {
                    for listener in listeners.current { listener(all) }
                }
                for (job, events) in zip(jobs, stored) { job.continuation.resume(returning: events) }
            } catch {
                // Nothing of the round is stored. Each request again in a transaction of its own, so that one
                // that cannot be stored does not refuse the others written with it.
                guard jobs.count > 1 else {
                    jobs[0].continuation.resume(throwing: error)
                    continue
                }
                for job in jobs {
                    do {
                        let stored = try commit([job.events])[0]
                        if !stored.isEmpty {
                            for listener in listeners.current { listener(stored) }
                        }
                        job.continuation.resume(returning: stored)
                    } catch {
                        job.continuation.resume(throwing: error)
                    }
                }
            }
        }
    }

    /// Writes `batches` in one transaction, on the calling thread: GRDB runs a synchronous write where it is
    /// called when no other write holds the writer, where its asynchronous write would hop to the writer's
    /// queue and back, two thread switches per commit. The drain task is the store's only writer of events;
    /// ``delete(_:)`` holds the writer for one statement at most.
    private func commit(_ batches: [[StoredEvent]]) throws -> [[StoredEvent]] {
        try database.write { db in try batches.map { try Self.insert($0, db) } }
    }

    private static let insertSQL = """
        INSERT OR IGNORE INTO event (received_at, session, source, type, name, properties, user_id, anonymous_id,
            group_id, previous_id, message_id, timestamp, context, write_key, violations, purpose, consent, stage,
            origin)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Inserts `events` with one cached statement whose columns are bound through SQLite's C API: GRDB's
    /// `StatementArguments` box each of the 19 values per event, which cost ingest about a tenth of its time.
    private static func insert(_ events: [StoredEvent], _ db: Database) throws -> [StoredEvent] {
        let statement = try db.cachedStatement(sql: insertSQL)
        let handle = statement.sqliteStatement
        var stored: [StoredEvent] = []
        stored.reserveCapacity(events.count)
        for var event in events {
            sqlite3_reset(handle)
            sqlite3_bind_int64(handle, 1, event.receivedAt)
            bind(event.session, 2, handle)
            bind(event.source.rawValue, 3, handle)
            bind(event.type.rawValue, 4, handle)
            bind(event.name, 5, handle)
            bind(event.properties, 6, handle)
            bind(event.userId, 7, handle)
            bind(event.anonymousId, 8, handle)
            bind(event.groupId, 9, handle)
            bind(event.previousId, 10, handle)
            bind(event.messageId, 11, handle)
            bind(event.timestamp, 12, handle)
            bind(event.context, 13, handle)
            bind(event.writeKey, 14, handle)
            bind(event.violations, 15, handle)
            bind(event.purpose?.rawValue, 16, handle)
            bind(event.consent?.rawValue, 17, handle)
            bind(event.stage.rawValue, 18, handle)
            bind(event.origin, 19, handle)
            let code = sqlite3_step(handle)
            guard code == SQLITE_DONE else {
                let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
                sqlite3_reset(handle)
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: insertSQL)
            }
            guard sqlite3_changes(db.sqliteConnection) > 0 else { continue }
            event.id = sqlite3_last_insert_rowid(db.sqliteConnection)
            stored.append(event)
        }
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        return stored
    }

    /// Binds `text` (NULL when nil) to parameter `index`; SQLite copies the bytes.
    private static func bind(_ text: String?, _ index: Int32, _ handle: SQLiteStatement) {
        guard var text else {
            sqlite3_bind_null(handle, index)
            return
        }
        text.withUTF8 { bytes in
            // A null pointer would bind NULL: the empty text needs an address of its own.
            guard let address = bytes.baseAddress, !bytes.isEmpty else {
                _ = sqlite3_bind_text(handle, index, "", 0, transient)
                return
            }
            _ = sqlite3_bind_text(handle, index, address, Int32(bytes.count), transient)
        }
    }

    /// SQLite's `SQLITE_TRANSIENT` (a C macro Swift does not import): copy the bound bytes.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Deletes the events `filter` selects.
    ///
    /// - Returns: how many were deleted.
    func delete(_ filter: EventFilter) async throws -> Int {
        let (condition, arguments) = filter.sql
        return try await database.write { db in
            try db.execute(sql: "DELETE FROM event WHERE \(condition)", arguments: arguments)
            return db.changesCount
        }
    }

    // MARK: Reading

    /// The events `filter` selects, in arrival order, at most `limit`.
    func events(_ filter: EventFilter, limit: Int) async throws -> [StoredEvent] {
        let (condition, arguments) = filter.sql
        return try await database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM event WHERE \(condition) ORDER BY id LIMIT ?", arguments: arguments + [limit]
            ).map(Self.event)
        }
    }

    /// The last `limit` events `filter` selects, in arrival order, and the last id stored when they were read.
    func latest(_ filter: EventFilter, limit: Int) async throws -> (events: [StoredEvent], lastId: Int64) {
        let (condition, arguments) = filter.sql
        return try await database.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM event WHERE \(condition) ORDER BY id DESC LIMIT ?",
                arguments: arguments + [limit])
            let lastId = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM event") ?? 0
            return (rows.reversed().map(Self.event), lastId)
        }
    }

    /// How many events `filter` selects, and the last id stored, read together.
    func count(_ filter: EventFilter) async throws -> (count: Int, lastId: Int64) {
        let (condition, arguments) = filter.sql
        return try await database.read { db in
            let count =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM event WHERE \(condition)", arguments: arguments) ?? 0
            let lastId = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM event") ?? 0
            return (count, lastId)
        }
    }

    /// How the events `filter` selects cover `plan`, read one at a time: memory stays flat however many
    /// events are stored.
    func coverage(of plan: TrackingPlan, _ filter: EventFilter) async throws -> PlanCoverage {
        let (condition, arguments) = filter.sql
        return try await database.read { db in
            let cursor = try Row.fetchCursor(
                db, sql: "SELECT type, name, properties, user_id, group_id FROM event WHERE \(condition) ORDER BY id",
                arguments: arguments)
            let events = AnySequence {
                AnyIterator { () -> Event? in
                    guard let row = try? cursor.next() else { return nil }
                    let type = MessageType(rawValue: row[0]) ?? .track
                    let properties = (try? PropertyValue(json: row[2] as String))?.objectValue ?? [:]
                    return Event(kind: type.kind, name: row[1], properties: properties, userId: row[3], groupId: row[4])
                }
            }
            return PlanCoverage(plan: plan, events: events)
        }
    }

    private static func event(_ row: Row) -> StoredEvent {
        StoredEvent(
            id: row["id"], receivedAt: row["received_at"], session: row["session"],
            source: EventSource(rawValue: row["source"]) ?? .segment,
            type: MessageType(rawValue: row["type"]) ?? .track,
            name: row["name"], properties: row["properties"], userId: row["user_id"], anonymousId: row["anonymous_id"],
            groupId: row["group_id"], previousId: row["previous_id"], messageId: row["message_id"],
            timestamp: row["timestamp"], context: row["context"], writeKey: row["write_key"],
            purpose: (row["purpose"] as String?).map(ConsentPurpose.init(rawValue:)),
            consent: (row["consent"] as String?).flatMap(DeliveredConsent.init(rawValue:)),
            stage: Record.Stage(rawValue: row["stage"]) ?? .delivered, origin: row["origin"],
            violations: row["violations"])
    }
}
#endif
