import Foundation

/// Threads of its own for the counting reference's tasks, as the collector has (TallyCollector's
/// `CollectorExecutor`): the benchmark harness blocks one thread of Swift's shared pool while a benchmark
/// runs, so a server on that pool would get one core where the collector gets two. The comparison is then
/// of the work each route does, not of where it runs.
@available(macOS 15, *)
final class ServerThreads: TaskExecutor, @unchecked Sendable {
    // `jobs` and `stopped` are only touched while `condition` is locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    /// Starts `count` threads.
    init(count: Int) {
        for index in 0..<max(1, count) {
            let thread = Thread { [self] in work() }
            thread.name = "counting server \(index + 1)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        condition.lock()
        if stopped {
            condition.unlock()
            globalConcurrentExecutor.enqueue(job)
            return
        }
        jobs.append(UnownedJob(job))
        condition.signal()
        condition.unlock()
    }

    /// Lets the threads finish what is queued, then end.
    func shutdown() {
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
