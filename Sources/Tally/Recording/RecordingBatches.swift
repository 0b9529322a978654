import Dispatch
import Foundation

/// The lines of one recording, decoded on every core and handed over in file order, a batch at a time.
///
/// A window of chunks of ``RecordingLines`` is decoded at once, twice as many as there are cores, so memory
/// holds a few chunks and their values whatever the size of the recording. The window slides a chunk at a
/// time: once the oldest chunk is decoded and handed over, the caller reads one more and starts it, while
/// the others are still being decoded. No chunk waits for another to finish, so a core that is done with
/// its chunk takes the next at once, and neither reading nor the caller's work on the values leaves the
/// cores idle. A line that cannot be decoded becomes a problem naming the file and the line, and reading
/// goes on.
package final class RecordingBatches<Value: Sendable> {
    /// Decoded values in file order, and the problems among the same lines, in file order.
    package struct Batch: Sendable {
        package var values: [Value] = []
        package var problems: [RecordError] = []
    }

    /// Decodes one line (without its newline). It runs on several threads at once.
    package typealias Decode = @Sendable (UnsafeBufferPointer<UInt8>) throws -> Value

    private let lines: RecordingLines
    private let decode: Decode
    private let width: Int
    /// The chunks started and not handed over yet, oldest first.
    private var window: [ChunkDecoding<Batch>] = []
    private var reachedEnd = false
    /// A read that failed: thrown once the chunks started before it are handed over.
    private var readFailure: RecordError?

    /// Decodes the lines `lines` hands over with `decode`, up to twice `parallelism` chunks at a time.
    package init(
        lines: RecordingLines, parallelism: Int = ProcessInfo.processInfo.activeProcessorCount,
        decode: @escaping Decode
    ) {
        self.lines = lines
        self.decode = decode
        self.width = parallelism > 1 ? parallelism * 2 : 1
    }

    deinit {
        // The chunks' buffers belong to `lines`; let the chunks still decoding finish with them.
        for started in window { started.wait() }
    }

    /// The input's name, as used in problems.
    package var name: String { lines.name }

    /// After the end: the number and length of a last line without its newline.
    package var unfinishedLine: (line: Int, bytes: Int)? { lines.unfinishedLine }

    /// The next batch (the lines of one chunk), in file order; nil at the end of the input.
    ///
    /// - Throws: `RecordError` naming the input when reading it fails; the batches before it stand (they
    ///   are handed over first).
    package func next() throws(RecordError) -> Batch? {
        fill()
        guard !window.isEmpty else {
            if let failure = readFailure {
                readFailure = nil
                throw failure
            }
            return nil
        }
        let oldest = window.removeFirst()
        let batch = oldest.wait()
        // The decoding thread is done with the bytes: reuse their buffer for a chunk to come.
        lines.recycle(oldest.takeBytes())
        // Keep the cores busy while the caller goes through this batch.
        fill()
        return batch
    }

    /// Reads and starts chunks until `width` are in flight, the input ends or a read fails.
    private func fill() {
        while window.count < width, !reachedEnd, readFailure == nil {
            do {
                guard let chunk = try lines.next() else {
                    reachedEnd = true
                    return
                }
                window.append(start(chunk))
            } catch {
                readFailure = error
            }
        }
    }

    /// Starts decoding `chunk` on a global queue's thread.
    private func start(_ chunk: RecordingLines.Chunk) -> ChunkDecoding<Batch> {
        let decoding = ChunkDecoding<Batch>(chunk)
        let decode = self.decode
        let name = lines.name
        DispatchQueue.global().async {
            decoding.run { chunk in Self.decode(chunk, name: name, with: decode) }
        }
        return decoding
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

/// One chunk decoded on another thread, and its result. `@unchecked Sendable`: the decoding thread reads
/// `chunk` and writes `result` in `run`, then signals `done`; the reading thread touches either only after
/// waiting for `done`, which orders the decoding thread's accesses before its own.
private final class ChunkDecoding<Result>: @unchecked Sendable {
    private var chunk: RecordingLines.Chunk
    private var result: Result?
    private let done = DispatchSemaphore(value: 0)
    private var waited = false

    init(_ chunk: RecordingLines.Chunk) { self.chunk = chunk }

    /// Decodes the chunk with `body` (on the decoding thread).
    func run(_ body: (RecordingLines.Chunk) -> Result) {
        result = body(chunk)
        done.signal()
    }

    /// Waits until the chunk is decoded, and returns the result. Called from one thread.
    @discardableResult
    func wait() -> Result {
        if !waited {
            done.wait()
            waited = true
        }
        return result!
    }

    /// The chunk's bytes, left to the caller alone (so their buffer can be reused without a copy). After
    /// `wait()`.
    func takeBytes() -> [UInt8] {
        let bytes = chunk.bytes
        chunk.bytes = []
        return bytes
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
