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
/// The file is rewritten in place with one write after each change, without `fsync`: a process that is killed
/// leaves it in the kernel's cache, as SQLite's WAL is with `synchronous = NORMAL`. A power cut may leave
/// either file older than the other; a ledger that does not read back whole (its checksum) is ignored.
struct QueueLedger: Equatable {
    /// Ids from `first` to `last`, both included.
    struct Span: Equatable {
        var first: Int64
        var last: Int64
        var count: Int64 { last - first + 1 }
    }

    /// Disjoint, in order.
    private(set) var spans: [Span] = []

    /// The most spans kept: past it the oldest are forgotten (a loss among them would go unreported, but
    /// nothing is ever reported that was not lost). The sender deletes in id order, so a queue has a span or
    /// two in practice.
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
            remove(first, through: last)
            spans.append(Span(first: first, last: last))
            spans.sort { $0.first < $1.first }
        } else {
            spans.append(Span(first: first, last: last))
        }
        if spans.count > Self.maximumSpans { spans.removeFirst(spans.count - Self.maximumSpans) }
    }

    /// Removes the ids from `first` to `last`.
    mutating func remove(_ first: Int64, through last: Int64) {
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
        if spans.count > Self.maximumSpans { spans.removeFirst(spans.count - Self.maximumSpans) }
    }

    /// The ledger of the ids `database` holds.
    static func of(_ db: Database) throws -> QueueLedger {
        var ledger = QueueLedger()
        let ids = try Int64.fetchCursor(db, sql: "SELECT id FROM message ORDER BY id")
        while let id = try ids.next() { ledger.add(id, through: id) }
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

    // MARK: The file

    private static let magic: [UInt8] = Array("tallyql1".utf8)

    /// `magic`, the number of spans, each span's first and last id, then an FNV-1a hash of all that; every
    /// number is 8 bytes, little-endian.
    var encoded: Data {
        var bytes = Self.magic
        func append(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        append(UInt64(spans.count))
        for span in spans {
            append(UInt64(bitPattern: span.first))
            append(UInt64(bitPattern: span.last))
        }
        append(Self.hash(bytes[...]))
        return Data(bytes)
    }

    /// The ledger `data` holds (bytes after it are ignored: a ledger that shrank leaves them), or nil when it
    /// holds none.
    init?(_ data: Data) {
        let bytes = [UInt8](data)
        func number(at offset: Int) -> UInt64? {
            guard offset + 8 <= bytes.count else { return nil }
            var value: UInt64 = 0
            for index in (offset..<offset + 8).reversed() { value = value << 8 | UInt64(bytes[index]) }
            return value
        }
        guard bytes.starts(with: Self.magic), let spanCount = number(at: 8), spanCount <= Self.maximumSpans else {
            return nil
        }
        let end = 16 + Int(spanCount) * 16
        guard let hash = number(at: end), hash == Self.hash(bytes[..<end]) else { return nil }
        var spans: [Span] = []
        for index in 0..<Int(spanCount) {
            guard let first = number(at: 16 + index * 16), let last = number(at: 24 + index * 16) else { return nil }
            let span = Span(first: Int64(bitPattern: first), last: Int64(bitPattern: last))
            guard span.first <= span.last, spans.last.map({ $0.last < span.first }) ?? true else { return nil }
            spans.append(span)
        }
        self.spans = spans
    }

    init() {}

    private static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
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
