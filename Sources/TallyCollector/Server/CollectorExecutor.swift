#if Collector
import Foundation

/// The threads a collector's tasks run on: its own, not Swift's shared cooperative pool.
///
/// An embedded collector serves code in the same process. TallyTesting's `CollectorReader` no longer
/// blocks a thread (it reads asynchronously), but other code of a test process may still block one of
/// the shared pool's threads while it waits on the collector (a `CollectorRecordingSink.write` called
/// from a test, a benchmark harness): on a two-core machine that leaves the server one thread, or none.
/// Every task of the collector prefers these threads instead (child tasks inherit the preference; the few
/// unstructured tasks are started with it). The collector benchmarks' figures, and their naive reference
/// server, are measured on these threads.
///
/// Not public API. It is SPI (`@_spi(Benchmarks) import TallyCollector`) only so that the benchmarks' naive
/// reference server runs on the same threads as the collector it is compared with.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@_spi(Benchmarks)
public final class CollectorExecutor: TaskExecutor, @unchecked Sendable {
    // `jobs` and `stopped` are only touched while `condition` is locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    /// Starts `threads` threads named `name`.
    public init(threads: Int, name: String) {
        for index in 0..<max(1, threads) {
            let thread = Thread { [self] in work() }
            thread.name = "\(name) \(index + 1)"
            thread.start()
        }
    }

    /// Queues `job` for one of the threads; on the shared pool once the executor is shut down.
    public func enqueue(_ job: consuming ExecutorJob) {
        condition.lock()
        if stopped {
            condition.unlock()
            // A task that outlives the collector (a cancelled timer finishing) still runs, on the pool.
            globalConcurrentExecutor.enqueue(job)
            return
        }
        jobs.append(UnownedJob(job))
        condition.signal()
        condition.unlock()
    }

    /// Lets the threads finish what is queued, then end.
    public func shutdown() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Starts the collector's unstructured tasks on its executor when the platform has task executors.
struct CollectorTasks: Sendable {
    /// The executor, as `any TaskExecutor` where available.
    private let executor: (any Sendable)?

    /// Tasks on `threads` threads of their own; on Swift's shared pool when `threads` is 0 or the platform
    /// has no task executors (before macOS 15).
    init(threads: Int) {
        if threads > 0, #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            executor = CollectorExecutor(threads: threads, name: "tally collector")
        } else {
            executor = nil
        }
    }

    /// A task running `operation` on the collector's threads.
    @discardableResult
    func spawn<Success: Sendable>(_ operation: sending @escaping () async throws -> Success) -> Task<Success, any Error>
    {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *),
            let executor = executor as? CollectorExecutor
        {
            return Task(executorPreference: executor, operation: operation)
        }
        return Task(operation: operation)
    }

    /// A task that cannot fail, running `operation` on the collector's threads.
    @discardableResult
    func spawn(_ operation: sending @escaping () async -> Void) -> Task<Void, Never> {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *),
            let executor = executor as? CollectorExecutor
        {
            return Task(executorPreference: executor, operation: operation)
        }
        return Task(operation: operation)
    }

    /// Ends the threads once what is queued has run.
    public func shutdown() {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *),
            let executor = executor as? CollectorExecutor
        {
            executor.shutdown()
        }
    }
}
#endif
