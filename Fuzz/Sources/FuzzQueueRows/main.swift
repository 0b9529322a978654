// Fuzzes what TallyDelivery's sender reads back from its queue: the `message` table's payloads
// (EventQueue.append, oldest, totals, evictOldest, delete; DeliveryEngine+Sender reads `oldest`).
//
// The input is split at each 0xFF byte into at most 16 payloads (arbitrary bytes, an empty one included); its first
// byte sets the batch limits.
//
// Properties:
// 1. No payload crashes the queue or the sender's reading of it.
// 2. What the sender reads is what was appended, byte for byte and in order, within its limits (at least
//    one message, at most `limit`, and no more bytes than `maximumBytes` unless it is the first).
// 3. The totals count what is stored; evicting and deleting leave exactly the rest.
import Foundation
import FuzzDriver
@testable import TallyDelivery

let queue = EventQueue.inMemory()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let limits = data[0]
    let payloads = UnsafeBufferPointer(start: data + 1, count: size - 1)
        .split(separator: 0xFF, omittingEmptySubsequences: false).prefix(16).map(Array.init)
    let limit = Int(limits & 0x0F) + 1
    let maximumBytes = Int(limits >> 4) * 16

    do {
        // Opening a queue costs far more than a run: one queue serves every input, emptied first.
        try queue.delete(from: .min, through: .max)
        let (lastId, _) = try queue.append(payloads)
        let totals = try queue.totals()
        precondition(payloads.isEmpty || totals.lastId == lastId, "last id \(lastId), totals say \(totals.lastId)")
        precondition(totals.count == payloads.count && totals.bytes == payloads.reduce(0) { $0 + $1.count })

        // The sender's read, batch after batch, deleting what it read.
        var floor = lastId - Int64(payloads.count)  // below the first id
        var read: [[UInt8]] = []
        while true {
            let messages = try queue.oldest(limit: limit, maximumBytes: maximumBytes, above: floor)
            guard let last = messages.last else { break }
            precondition(messages.count <= limit, "\(messages.count) messages over the limit \(limit)")
            let bytes = messages.reduce(0) { $0 + $1.payload.count }
            precondition(messages.count == 1 || bytes <= maximumBytes, "\(bytes) bytes over \(maximumBytes)")
            precondition(zip(messages, messages.dropFirst()).allSatisfy { $0.id < $1.id }, "ids out of order")
            read += messages.map { [UInt8]($0.payload) }
            if limits & 1 == 0 {
                try queue.delete(from: messages[0].id, through: last.id)
            } else {
                floor = last.id
            }
        }
        precondition(read == payloads, "the queue read back other payloads")

        // Evicting the oldest half (by count) of a refilled queue leaves the rest.
        _ = try queue.append(payloads)
        let before = try queue.totals()
        let half = payloads.count / 2
        let evicted = try queue.evictOldest(count: half, bytes: 0, above: floor)
        let after = try queue.totals()
        // Above `floor` are exactly the refilled payloads.
        precondition(evicted.count == half && evicted.bytes == payloads.prefix(half).reduce(0) { $0 + $1.count })
        precondition(after.count == before.count - evicted.count && after.bytes == before.bytes - evicted.bytes)
    } catch {
        fatalError("an in-memory queue failed: \(error)")
    }
    return 0
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzz))
