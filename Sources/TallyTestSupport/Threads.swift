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
