#if Delivery
import Foundation
import GRDB

/// Which message ids the queue's database should hold, kept in a small file beside it (`<name>.ledger`), so
/// that a database that lost committed events outside the app (its file emptied, its WAL cut short, a page
/// damaged) says how many when it opens next, instead of losing them in silence.
///
/// The ledger is a list of id ranges: appends add their ids after they are committed, and deletions (events
/// sent, refused or evicted) remove theirs before they are committed. So without a fault the ledger never
/// names an id the database does not hold (a process killed between the two holds more than the ledger
/// says, which is never reported), and ids the ledger names that the database lacks were committed, never
/// deleted, and are lost. Counting missing ids rather than rows keeps the figure exact when the same fault
/// both loses recent appends and brings back rows that were already deleted (a WAL cut short undoes both).
///
/// Rows brought back that way were counted when they were removed (delivered, refused, or evicted as
/// `queue_full`): sent again they would be counted twice. So the ledger also keeps the highest id it ever
/// named (``highest``) and the deletion in progress (``pending``): a row the database holds with an id up to
/// ``highest`` that the ledger neither names nor has pending was deleted, and counted, before a fault undid
/// the deletion, and ``revived(in:)`` finds it so that the queue removes it again, without counting it. A
/// deletion is pending from the write before its commit to the write after it (a process killed between the
/// two may not have counted it): its rows, when they are there, stay queued, as they did before ledgers.
///
/// The file is rewritten in place with one write after each change (two per deletion), without `fsync`: a
/// process that is killed leaves it in the kernel's cache, as SQLite's WAL is with `synchronous = NORMAL`. A
/// power cut may leave either file older than the other; a ledger that does not read back whole (its
/// checksum) is ignored.
struct QueueLedger: Equatable {
    /// Ids from `first` to `last`, both included.
    struct Span: Equatable {
        var first: Int64
        var last: Int64
        var count: Int64 { last - first + 1 }

        func contains(_ id: Int64) -> Bool { first <= id && id <= last }
    }

    /// Disjoint, in order.
    private(set) var spans: [Span] = []

    /// The highest id the ledger ever named; 0 when it never named one, or was read from a file that did not
    /// keep it (the first version's).
    private(set) var highest: Int64 = 0

    /// Ids up to this one are unknown (their spans were forgotten, see ``maximumSpans``): never reported
    /// missing, never taken as brought back.
    private(set) var floor: Int64 = 0

    /// The ids of the deletion in progress: removed from ``spans`` and written before the deletion commits,
    /// cleared once it did.
    var pending: Span?

    /// The most spans kept: past it the oldest are forgotten (a loss among them would go unreported, and a
    /// row brought back among them sent again, but nothing is ever reported that was not lost, nor removed
    /// that was not counted). The sender deletes in id order, so a queue has a span or two in practice.
    static let maximumSpans = 64

    /// How many ids the ledger names.
    var count: Int64 { spans.reduce(0) { $0 + $1.count } }

    /// The highest id the ledger names, 0 when empty.
    var lastId: Int64 { spans.last?.last ?? 0 }

    /// Adds the ids from `first` to `last` (above every id it names, as appends are).
    mutating func add(_ first: Int64, through last: Int64) {
        guard first <= last else { return }
        if let end = spans.last?.last, end >= first - 1, end < first {
            spans[spans.count - 1].last = last
        } else if let end = spans.last?.last, end >= first {
            // Not above what it names (it never happens): the ledger starts again from what it knows for sure.
            removeSpans(first, through: last)
            spans.append(Span(first: first, last: last))
            spans.sort { $0.first < $1.first }
        } else {
            spans.append(Span(first: first, last: last))
        }
        highest = max(highest, last)
        trim()
    }

    /// Removes the ids from `first` to `last`; when it named any of them, they are ``pending`` until cleared.
    mutating func remove(_ first: Int64, through last: Int64) {
        let before = spans
        removeSpans(first, through: last)
        if spans != before { pending = Span(first: first, last: last) }
    }

    private mutating func removeSpans(_ first: Int64, through last: Int64) {
        guard first <= last else { return }
        var kept: [Span] = []
        for span in spans {
            if span.last < first || span.first > last {
                kept.append(span)
                continue
            }
            if span.first < first { kept.append(Span(first: span.first, last: first - 1)) }
            if span.last > last { kept.append(Span(first: last + 1, last: span.last)) }
        }
        spans = kept
        trim()
    }

    /// Forgets the oldest spans past ``maximumSpans``.
    private mutating func trim() {
        guard spans.count > Self.maximumSpans else { return }
        let forgotten = spans.count - Self.maximumSpans
        floor = max(floor, spans[forgotten - 1].last)
        spans.removeFirst(forgotten)
    }

    /// The ledger of the ids `database` holds; ``highest`` is the last id the table handed out.
    static func of(_ db: Database) throws -> QueueLedger {
        var ledger = QueueLedger()
        let ids = try Int64.fetchCursor(db, sql: "SELECT id FROM message ORDER BY id")
        while let id = try ids.next() { ledger.add(id, through: id) }
        let handedOut = try? Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'message'")
        ledger.highest = max(ledger.highest, handedOut ?? 0)
        return ledger
    }

    /// How many ids the ledger names that `db` does not hold.
    func missing(in db: Database) throws -> Int64 {
        let statement = try db.cachedStatement(sql: "SELECT count(*) FROM message WHERE id BETWEEN ? AND ?")
        var missing: Int64 = 0
        for span in spans {
            let present = try Int64.fetchOne(statement, arguments: [span.first, span.last]) ?? 0
            missing += max(0, span.count - present)
        }
        return missing
    }

    /// The rows `db` holds that were deleted before a fault brought them back: ids above ``floor`` and up
    /// to ``highest`` that the ledger neither names nor has pending, as spans of rows that follow each other
    /// in the table (so deleting a span deletes no other row).
    func revived(in db: Database) throws -> [Span] {
        guard highest > floor else { return [] }
        var revived: [Span] = []
        var previousRevived = false
        var index = 0
        let ids = try Int64.fetchCursor(
            db, sql: "SELECT id FROM message WHERE id > ? AND id <= ? ORDER BY id", arguments: [floor, highest])
        while let id = try ids.next() {
            while index < spans.count && spans[index].last < id { index += 1 }
            let named = index < spans.count && spans[index].contains(id)
            guard !named, pending?.contains(id) != true else {
                previousRevived = false
                continue
            }
            if previousRevived {
                revived[revived.count - 1].last = id
            } else {
                revived.append(Span(first: id, last: id))
            }
            previousRevived = true
        }
        return revived
    }

    // MARK: The file

    /// The file's first 8 bytes.
    static let magic: [UInt8] = Array("tallyql2".utf8)
    /// The first version's: no ``highest``, ``floor`` or ``pending``.
    static let firstMagic: [UInt8] = Array("tallyql1".utf8)

    /// `magic`, ``highest``, ``floor``, the pending span's first and last id (1 and 0 when none), the number of
    /// spans, each span's first and last id, then an FNV-1a hash of all that (``checksum(_:)``); every number
    /// is 8 bytes, little-endian.
    var encoded: Data {
        var bytes = Self.magic
        func append(_ value: Int64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        append(highest)
        append(floor)
        append(pending?.first ?? 1)
        append(pending?.last ?? 0)
        append(Int64(spans.count))
        for span in spans {
            append(span.first)
            append(span.last)
        }
        bytes.append(contentsOf: withUnsafeBytes(of: Self.checksum(bytes[...]).littleEndian, Array.init))
        return Data(bytes)
    }

    /// The ledger `data` holds (bytes after it are ignored: a ledger that shrank leaves them), or nil when it
    /// holds none: not a ledger, not whole (its checksum), or one the queue never writes (more than
    /// ``maximumSpans`` spans, spans out of order or overlapping, or an id below 1, which the table never hands
    /// out). A ledger of the first version reads with no ``highest``: it names ids, and finds no row brought
    /// back.
    init?(_ data: Data) {
        let bytes = [UInt8](data)
        func number(at offset: Int) -> Int64? {
            guard offset + 8 <= bytes.count else { return nil }
            var value: UInt64 = 0
            for index in (offset..<offset + 8).reversed() { value = value << 8 | UInt64(bytes[index]) }
            return Int64(bitPattern: value)
        }
        let header: Int
        if bytes.starts(with: Self.magic) {
            header = 40
        } else if bytes.starts(with: Self.firstMagic) {
            header = 8
        } else {
            return nil
        }
        guard let spanCount = number(at: header), spanCount >= 0, spanCount <= Self.maximumSpans else { return nil }
        let end = header + 8 + Int(spanCount) * 16
        guard let hash = number(at: end), UInt64(bitPattern: hash) == Self.checksum(bytes[..<end]) else {
            return nil
        }
        var spans: [Span] = []
        for index in 0..<Int(spanCount) {
            guard let first = number(at: header + 8 + index * 16), let last = number(at: header + 16 + index * 16)
            else { return nil }
            let span = Span(first: first, last: last)
            // Ids from 1: a span from below would also overflow its count (`missing(in:)` sums them).
            guard span.first >= 1, span.first <= span.last, spans.last.map({ $0.last < span.first }) ?? true else {
                return nil
            }
            spans.append(span)
        }
        self.spans = spans
        if header == 40, let highest = number(at: 8), let floor = number(at: 16), let pendingFirst = number(at: 24),
            let pendingLast = number(at: 32)
        {
            self.highest = highest
            self.floor = floor
            if pendingFirst <= pendingLast { pending = Span(first: pendingFirst, last: pendingLast) }
        }
    }

    init() {}

    /// The file's checksum of `bytes`: FNV-1a, 64 bits.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    /// The ledger's file beside the queue's `file`.
    static func url(beside file: URL) -> URL { URL(fileURLWithPath: file.path + ".ledger") }
}

/// The open ledger file, rewritten in place.
///
/// `@unchecked Sendable`: only used with the queue's lock held.
final class QueueLedgerFile: @unchecked Sendable {
    private let handle: FileHandle

    /// Opens (or creates) the ledger file beside the queue's `file`; nil when it cannot.
    init?(beside file: URL) {
        let url = QueueLedger.url(beside: file)
        if !FileManager.default.fileExists(atPath: url.path) {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else { return nil }
        }
        guard let handle = try? FileHandle(forUpdating: url) else { return nil }
        self.handle = handle
    }

    /// Writes `ledger` over the file's start, in one write.
    func write(_ ledger: QueueLedger) {
        do {
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: ledger.encoded)
        } catch {
            // A ledger that cannot be written only means a loss may go unreported; the queue itself works.
        }
    }

    /// Flushes the file to the disk and closes it.
    func close() {
        try? handle.synchronize()
        try? handle.close()
    }
}
#endif
