import Dispatch
import Foundation

/// The lines of one recording, decoded on every core and handed over in file order, a batch at a time.
///
/// Each round decodes a few chunks of ``RecordingLines`` at once, one per core and then some, so memory
/// holds a few chunks and their values whatever the size of the recording. The rounds are pipelined: while
/// one round's chunks are decoded on the cores, the caller reads the next round's chunks and goes through the
/// batches of the round before, so neither reading nor the caller's work on the values leaves the cores
/// idle. (At most two rounds of chunks are held: the one decoded and the one read.) A line that cannot be
/// decoded becomes a problem naming the file and the line, and reading goes on.
package final class RecordingBatches<Value: Sendable> {
    /// Decoded values in file order, and the problems among the same lines, in file order.
    package struct Batch: Sendable {
        package var values: [Value] = []
        package var problems: [RecordError] = []
    }

    /// Decodes one line (without its newline). It runs on several threads at once.
    package typealias Decode = @Sendable (UnsafeBufferPointer<UInt8>) throws -> Value

    /// A round of chunks being decoded on other threads.
    private struct Round {
        let chunks: [RecordingLines.Chunk]
        let results: ParallelResults<Batch>
        let done: DispatchGroup
    }

    private let lines: RecordingLines
    private let decode: Decode
    private let width: Int
    private var inFlight: Round?
    /// A read that failed while a round was in flight: thrown once that round's batches are handed over.
    private var readFailure: RecordError?

    /// Decodes the lines `lines` hands over with `decode`, `parallelism` chunks at a time and twice as
    /// many per batch.
    package init(
        lines: RecordingLines, parallelism: Int = ProcessInfo.processInfo.activeProcessorCount,
        decode: @escaping Decode
    ) {
        self.lines = lines
        self.decode = decode
        self.width = parallelism > 1 ? parallelism * 2 : 1
    }

    deinit {
        // The chunks' buffers belong to `lines`; let a round still decoding finish with them.
        inFlight?.done.wait()
    }

    /// The input's name, as used in problems.
    package var name: String { lines.name }

    /// After the end: the number and length of a last line without its newline.
    package var unfinishedLine: (line: Int, bytes: Int)? { lines.unfinishedLine }

    /// The next batches, one per chunk decoded at once, in file order; nil at the end of the input.
    ///
    /// - Throws: `RecordError` naming the input when reading it fails; the batches before it stand (they
    ///   are handed over first).
    package func next() throws(RecordError) -> [Batch]? {
        if inFlight == nil {
            if let failure = readFailure {
                readFailure = nil
                throw failure
            }
            guard let chunks = try readRound() else { return nil }
            inFlight = start(chunks)
        }
        guard let current = inFlight else { return nil }
        // Read the next round while this one decodes.
        var following: [RecordingLines.Chunk]?
        do {
            following = try readRound()
        } catch {
            readFailure = error
        }
        current.done.wait()
        inFlight = nil
        let batches = current.results.values
        for chunk in current.chunks { lines.recycle(chunk.bytes) }
        if let following { inFlight = start(following) }
        return batches
    }

    /// Up to `width` chunks; nil at the end of the input.
    private func readRound() throws(RecordError) -> [RecordingLines.Chunk]? {
        var chunks: [RecordingLines.Chunk] = []
        while chunks.count < width, let chunk = try lines.next() { chunks.append(chunk) }
        return chunks.isEmpty ? nil : chunks
    }

    /// Starts decoding `chunks`, each on its own task, at most one per core at a time.
    private func start(_ chunks: [RecordingLines.Chunk]) -> Round {
        let round = Round(chunks: chunks, results: ParallelResults(count: chunks.count), done: DispatchGroup())
        let decode = self.decode
        let name = lines.name
        let results = round.results
        for (index, chunk) in chunks.enumerated() {
            DispatchQueue.global().async(group: round.done) {
                results.set(index, Self.decode(chunk, name: name, with: decode))
            }
        }
        return round
    }

    private static func decode(_ chunk: RecordingLines.Chunk, name: String, with decode: Decode) -> Batch {
        var batch = Batch(problems: chunk.problems)
        chunk.bytes.withUnsafeBufferPointer { buffer in
            RecordingLines.forEachLine(in: buffer, firstLine: chunk.firstLine) { line, number in
                do {
                    batch.values.append(try decode(line))
                } catch let error as RecordError {
                    batch.problems.append(RecordError(error.message, file: name, line: number))
                } catch {
                    batch.problems.append(RecordError("\(error)", file: name, line: number))
                }
            }
        }
        return batch
    }
}

/// `transform` applied to each element, on as many threads as there are elements (at most one per core
/// at a time), the results in the elements' order.
package func parallelMap<Element: Sendable, Result: Sendable>(
    _ elements: [Element], _ transform: @escaping @Sendable (Element) -> Result
) -> [Result] {
    guard elements.count > 1 else { return elements.map(transform) }
    let results = ParallelResults<Result>(count: elements.count)
    DispatchQueue.concurrentPerform(iterations: elements.count) { index in
        results.set(index, transform(elements[index]))
    }
    return results.values
}

/// One slot per iteration of a parallel map. `@unchecked Sendable`: each iteration writes only its own
/// slot, and the slots are read after `concurrentPerform` has returned (or the iterations' dispatch group
/// has been waited for), which orders every write before.
private final class ParallelResults<Value>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Value?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    func set(_ index: Int, _ value: Value) { slots[index] = value }

    var values: [Value] { slots.map { $0! } }
}
