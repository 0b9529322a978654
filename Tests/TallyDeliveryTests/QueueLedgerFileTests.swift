#if Delivery
import Foundation
import TallyTestSupport
import Testing

@testable import TallyDelivery

/// The queue's ledger file (`<name>.ledger`, see `QueueLedger`) as its reader takes it: what the queue wrote
/// reads back equal, and a file it never writes, even whole (its checksum right), is ignored rather than
/// trusted. Found while writing the `FuzzQueueLedger` target: a span from `Int64.min` read, and the next
/// launch trapped counting its ids (`missing(in:)`).
@Suite struct QueueLedgerFileTests {
    /// A ledger with a deletion pending and three spans.
    private var sample: QueueLedger {
        var ledger = QueueLedger()
        ledger.add(3, through: 9)
        ledger.add(12, through: 40)
        ledger.remove(15, through: 20)
        return ledger
    }

    @Test func whatTheQueueWritesReadsBackEqual() throws {
        let ledger = sample
        #expect(ledger.pending == .init(first: 15, last: 20))
        #expect(ledger.spans.count == 3)
        #expect(QueueLedger(ledger.encoded) == ledger)
        // Bytes after it (a ledger that shrank leaves them) are ignored.
        #expect(QueueLedger(ledger.encoded + Data([1, 2, 3])) == ledger)
        #expect(QueueLedger(QueueLedger().encoded) == QueueLedger())
    }

    @Test func aLedgerThatIsNotWholeIsIgnored() {
        let bytes = sample.encoded
        #expect(QueueLedger(bytes.dropLast()) == nil)
        #expect(QueueLedger(Data()) == nil)
        #expect(QueueLedger(Data("tallyql2".utf8)) == nil)
        var flipped = bytes
        flipped[20] ^= 0x01
        #expect(QueueLedger(flipped) == nil)
    }

    /// Ids start at 1 (the table is `AUTOINCREMENT`): a whole ledger naming 0 or below is not the queue's.
    @Test(arguments: [Int64.min, -1, 0])
    func aWholeLedgerNamingAnIdBelowOneIsIgnored(first: Int64) {
        var ledger = QueueLedger()
        ledger.add(first, through: .max)
        #expect(QueueLedger(ledger.encoded) == nil)
        var fromOne = QueueLedger()
        fromOne.add(1, through: .max)
        #expect(QueueLedger(fromOne.encoded) == fromOne)
        #expect(QueueLedger(fromOne.encoded)?.count == .max)
    }

    /// A whole ledger with more spans than the queue keeps, or spans out of order, is ignored.
    @Test func aWholeLedgerTheQueueCannotHaveWrittenIsIgnored() {
        func sealed(spans: [(Int64, Int64)]) -> Data {
            var bytes = QueueLedger.magic
            func append(_ value: Int64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
            for value in [Int64(100), 0, 1, 0, Int64(spans.count)] { append(value) }
            for (first, last) in spans {
                append(first)
                append(last)
            }
            bytes.append(contentsOf: withUnsafeBytes(of: QueueLedger.checksum(bytes[...]).littleEndian, Array.init))
            return Data(bytes)
        }
        #expect(QueueLedger(sealed(spans: [(1, 2), (4, 5)]))?.spans.count == 2)
        #expect(QueueLedger(sealed(spans: [(4, 5), (1, 2)])) == nil)
        #expect(QueueLedger(sealed(spans: [(1, 4), (4, 5)])) == nil)
        #expect(QueueLedger(sealed(spans: [(5, 4)])) == nil)
        let many = (0..<Int64(QueueLedger.maximumSpans + 1)).map { ($0 * 3 + 1, $0 * 3 + 1) }
        #expect(QueueLedger(sealed(spans: Array(many.dropLast())))?.spans.count == QueueLedger.maximumSpans)
        #expect(QueueLedger(sealed(spans: many)) == nil)
    }

    /// The launch the fuzz target's finding would have crashed: a whole ledger naming every id beside a
    /// queue of 20 events. It is ignored: nothing reported lost, the 20 events still queued.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aQueueOpensBesideAWholeLedgerNamingIdsBelowOne() async throws {
        let harness = try Harness(durable: true) { $0.flushAt = 1_000_000 }
        do {
            let first = harness.destination()
            try await harness.receiveAndCommit(1...20, into: first)
            first.close()
        }
        var everything = QueueLedger()
        everything.add(.min, through: .max)
        try everything.encoded.write(to: QueueLedger.url(beside: harness.folder.file("queue.sqlite")))
        let second = harness.destination()
        defer { second.close() }
        #expect(second.statistics.dropped.isEmpty)
        #expect(second.statistics.queuedEvents == 20)
    }
}
#endif
