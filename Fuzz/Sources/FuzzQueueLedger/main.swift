// Fuzzes the reader of TallyDelivery's queue ledger, the file beside a durable queue that names the ids its
// database should hold (QueueLedger.init?(Data), read by EventQueue.open at every launch).
//
// The first byte chooses how the rest is read: bit 0 clear, the rest is the file as it is (most inputs then
// fail the checksum, as damaged files do); bit 0 set, it is sealed: put after the magic (bit 1 set: the
// first version's, `tallyql1`) and given the checksum the reader expects, so that the reader's checks past the
// checksum see every input. Bits 2-7: how many changes (adds and removes, as the queue makes them) follow a
// ledger that reads.
//
// Properties:
// 1. No input crashes the reader.
// 2. A ledger that reads is one the queue could have written: at most `maximumSpans` spans, each from an
//    id of 1 or more to one no lower, in order and apart; counting its ids (as `missing(in:)` does) cannot
//    overflow.
// 3. It writes and reads back equal (`encoded`), and so it does after each change.
import Foundation
import FuzzDriver
@testable import TallyDelivery

/// The 8-byte little-endian numbers in `bytes`, as the file stores them.
func numbers(_ bytes: ArraySlice<UInt8>) -> [Int64] {
    stride(from: bytes.startIndex, to: bytes.endIndex - 7, by: 8).map { start in
        Int64(bitPattern: bytes[start..<start + 8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }
}

/// `body` after `magic`, cut where the reader expects the checksum and sealed with it, when the span count
/// (its first number after a header of `numbers` numbers) is one the reader takes; as it is otherwise.
func sealed(_ body: ArraySlice<UInt8>, magic: [UInt8], header: Int) -> Data {
    var bytes = magic + body
    let values = numbers(body)
    if values.count > header, (0...Int64(QueueLedger.maximumSpans)).contains(values[header]) {
        let end = magic.count + (header + 1 + Int(values[header]) * 2) * 8
        if end <= bytes.count {
            bytes.removeSubrange(end...)
            bytes += withUnsafeBytes(of: QueueLedger.checksum(bytes[...]).littleEndian, Array.init)
        }
    }
    return Data(bytes)
}

/// Property 2 and 3 for `ledger`.
func check(_ ledger: QueueLedger) {
    precondition(ledger.spans.count <= QueueLedger.maximumSpans, "\(ledger.spans.count) spans")
    var total: Int64 = 0
    for (index, span) in ledger.spans.enumerated() {
        precondition(1 <= span.first && span.first <= span.last, "span \(span.first)...\(span.last)")
        if index > 0 { precondition(ledger.spans[index - 1].last < span.first, "spans out of order or overlapping") }
        let (sum, overflow) = total.addingReportingOverflow(span.count)
        precondition(!overflow, "the ids counted overflow")
        total = sum
    }
    precondition(ledger.count == total)
    precondition(QueueLedger(ledger.encoded) == ledger, "the ledger did not read back equal")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let mode = data[0]
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))[...]
    let file: Data
    if mode & 1 == 0 {
        file = Data(body)
    } else if mode & 2 == 0 {
        file = sealed(body, magic: QueueLedger.magic, header: 4)
    } else {
        file = sealed(body, magic: QueueLedger.firstMagic, header: 0)
    }
    guard var ledger = QueueLedger(file) else { return 0 }
    check(ledger)

    // Changes as the queue makes them: appends above every id it names, deletions of any range (a pending
    // one cleared as the queue does once it committed).
    let values = numbers(body)
    for change in 0..<Int(mode >> 2) where !values.isEmpty {
        let value = values[change % values.count]
        if value & 1 == 0 {
            let last = ledger.lastId
            guard last < .max - 256 else { continue }
            ledger.add(last + 1, through: last + 1 + (value >> 1 & 0xFF))
        } else {
            let first = value >> 1
            ledger.remove(first, through: first &+ (value >> 56 & 0x7F))
            if change % 3 == 0 { ledger.pending = nil }
        }
        check(ledger)
    }
    return 0
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzz))
