import Foundation

/// Runs `body(thread)` on `count` new threads at once and returns when every one has finished.
///
/// The caller awaits instead of blocking: Swift Testing runs tests on the cooperative pool, which has one
/// thread per core, and a test that held a pool thread for the length of a stress run would hold back every
/// async test beside it (under ThreadSanitizer on two cores, past their time limits).
package func onNewThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let group = DispatchGroup()
        for thread in 0..<count {
            group.enter()
            Thread {
                body(thread)
                group.leave()
            }.start()
        }
        group.notify(queue: .global()) { done.resume() }
    }
}

/// Runs `body` on a thread of its own and lets the test await its end.
///
/// For writers that feed a reader the test runs meanwhile: a reader blocked in `read` holds a thread of
/// Swift's cooperative pool (one per core), and a writer queued on that pool could wait for it forever.
package final class BackgroundThread: @unchecked Sendable {
    // @unchecked: `failure` is written by the thread before `group.leave()` and read after `notify`.
    private let group = DispatchGroup()
    private var failure: (any Error)?

    package init(_ body: @escaping @Sendable () throws -> Void) {
        group.enter()
        Thread {
            do { try body() } catch { self.failure = error }
            self.group.leave()
        }.start()
    }

    /// Waits for the thread to end; rethrows what `body` threw.
    package func value() async throws {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            group.notify(queue: .global()) { done.resume() }
        }
        if let failure { throw failure }
    }
}
