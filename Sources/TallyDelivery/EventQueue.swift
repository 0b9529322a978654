#if Delivery
import Foundation
import GRDB

/// The queue's storage: one SQLite table of encoded messages in arrival order, through GRDB.
///
/// A file opens as a `DatabasePool` in WAL mode (`synchronous = NORMAL`: a commit survives the process being
/// killed; a power cut may lose the last commits). Without a file, or when the file cannot be opened, the
/// queue is an in-memory database. The writer thread appends and evicts; the sender thread reads batches
/// and deletes what the server acknowledged. GRDB serialises the writes.
final class EventQueue: Sendable {
    /// One stored message.
    struct Message: Sendable {
        var id: Int64
        var payload: Data
    }

    private let database: any DatabaseWriter
    /// Whether the queue is in a file (it survives the process).
    let isDurable: Bool

    /// Opens the queue at `file`, or in memory when `file` is nil.
    ///
    /// - Throws: the database's error when the file cannot be opened, created or migrated.
    init(file: URL?, prepare: (@Sendable (Database) throws -> Void)?) throws {
        var configuration = GRDB.Configuration()
        configuration.label = "tally.delivery"
        if let prepare { configuration.prepareDatabase(prepare) }
        let database: any DatabaseWriter
        if let file {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            database = try DatabasePool(path: file.path, configuration: configuration)
        } else {
            database = try DatabaseQueue(configuration: configuration)
        }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // `id` is SQLite's rowid: arrival order. `payload` is the message's JSON, as sent.
            try db.execute(sql: "CREATE TABLE message (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
        }
        try migrator.migrate(database)
        self.database = database
        self.isDurable = file != nil
    }

    /// Opens an in-memory queue; cannot fail in practice.
    static func inMemory() -> EventQueue {
        // An in-memory database needs no file, so only a broken SQLite could make this throw.
        try! EventQueue(file: nil, prepare: nil)  // swiftlint:disable:this force_try
    }

    /// How many messages the queue holds and their bytes, and the last id.
    func totals() throws -> (count: Int, bytes: Int, lastId: Int64) {
        try database.read { db in
            let row = try Row.fetchOne(
                db, sql: "SELECT count(*), coalesce(sum(length(payload)), 0), coalesce(max(id), 0) FROM message")
            return (row?[0] ?? 0, row?[1] ?? 0, row?[2] ?? 0)
        }
    }

    /// Appends `payloads` in one transaction and returns the id of the last.
    func append(_ payloads: [[UInt8]]) throws -> Int64 {
        try database.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO message (payload) VALUES (?)")
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
    }

    /// Deletes the oldest messages with an id above `floor` until at least `count` messages and `bytes` bytes
    /// are gone (or none is left above `floor`); returns how many and how many bytes were deleted.
    func evictOldest(count: Int, bytes: Int, above floor: Int64) throws -> (count: Int, bytes: Int) {
        try database.write { db in
            var deleted = 0
            var deletedBytes = 0
            var last: Int64?
            let rows = try Row.fetchCursor(
                db, sql: "SELECT id, length(payload) FROM message WHERE id > ? ORDER BY id", arguments: [floor])
            while deleted < count || deletedBytes < bytes, let row = try rows.next() {
                last = row[0]
                deleted += 1
                deletedBytes += row[1] as Int
            }
            if let last {
                try db.execute(sql: "DELETE FROM message WHERE id > ? AND id <= ?", arguments: [floor, last])
            }
            return (deleted, deletedBytes)
        }
    }

    /// The oldest messages, in order: at most `limit`, and as many as fit in `maximumBytes` of payload (at
    /// least one).
    func oldest(limit: Int, maximumBytes: Int) throws -> [Message] {
        try database.read { db in
            var messages: [Message] = []
            var bytes = 0
            let rows = try Row.fetchCursor(
                db, sql: "SELECT id, payload FROM message ORDER BY id LIMIT ?", arguments: [limit])
            while let row = try rows.next() {
                let payload: Data = row[1]
                if !messages.isEmpty && bytes + payload.count > maximumBytes { break }
                bytes += payload.count
                messages.append(Message(id: row[0], payload: payload))
            }
            return messages
        }
    }

    /// Deletes the messages with ids from `first` to `last`, both included.
    func delete(from first: Int64, through last: Int64) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM message WHERE id BETWEEN ? AND ?", arguments: [first, last])
        }
    }
}
#endif
