import Dispatch
import Foundation

/// The lines of one recording, decoded on every core and handed over in file order, a batch at a time.
///
/// Each batch decodes a few chunks of ``RecordingLines`` at once, one per core and then some, so memory
/// holds a few chunks and their values whatever the size of the recording. A line that cannot be decoded
/// becomes a problem naming the file and the line, and reading goes on.
package final class RecordingBatches<Value: Sendable> {
    /// Decoded values in file order, and the problems among the same lines, in file order.
    package struct Batch {
        package var values: [Value] = []
        package var problems: [RecordError] = []
    }

    /// Decodes one line (without its newline). It runs on several threads at once.
    package typealias Decode = @Sendable (UnsafeBufferPointer<UInt8>) throws -> Value

    private let lines: RecordingLines
    private let decode: Decode
    private let width: Int

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

    /// The input's name, as used in problems.
    package var name: String { lines.name }

    /// After the end: the number and length of a last line without its newline.
    package var unfinishedLine: (line: Int, bytes: Int)? { lines.unfinishedLine }

    /// The next batches, one per chunk decoded at once, in file order; nil at the end of the input.
    ///
    /// - Throws: `RecordError` naming the input when reading it fails; the batches before it stand.
    package func next() throws(RecordError) -> [Batch]? {
        var chunks: [RecordingLines.Chunk] = []
        while chunks.count < width, let chunk = try lines.next() { chunks.append(chunk) }
        guard !chunks.isEmpty else { return nil }
        defer { for chunk in chunks { lines.recycle(chunk.bytes) } }
        let decode = self.decode
        let name = lines.name
        let decoded = parallelMap(chunks) { chunk in
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
        return decoded
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
/// slot, and the slots are read after `concurrentPerform` has returned, which orders every write before.
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
