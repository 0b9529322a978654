#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// The stack of a secondary thread on iOS and macOS (512 KiB): the smallest stack Tally's code runs on in
/// practice, and the one the nesting tests run on.
package let smallStackBytes = 512 * 1024

/// Runs `body` on a new thread whose stack is `stackBytes` long, waits for it, and returns its result
/// with the most stack the thread used, in bytes.
///
/// The stack is memory of its own, filled with a pattern before the thread starts; the bytes still
/// holding the pattern afterwards were never touched, so the rest is the peak use. A body that needs more
/// than `stackBytes` crashes the process, as it would crash an app: that is what the tests rule out.
package func onSmallStack<Result: Sendable>(
    _ stackBytes: Int = smallStackBytes, _ body: @escaping @Sendable () -> Result
) async -> (result: Result, stackUsed: Int) {
    await withCheckedContinuation { continuation in
        let run = SmallStackRun(stackBytes: stackBytes) {
            let result = body()
            return { stackUsed in continuation.resume(returning: (result, stackUsed)) }
        }
        run.start()
    }
}

/// One thread with a painted stack. `@unchecked Sendable`: the stack memory is written before the thread
/// starts and read after it has ended (pthread_join orders both).
private final class SmallStackRun: @unchecked Sendable {
    static let pattern: UInt8 = 0xA5
    let stackBytes: Int
    let page: Int
    /// The guard page, then the stack.
    let memory: UnsafeMutableRawPointer
    var stack: UnsafeMutableRawPointer { memory + page }
    let body: () -> (Int) -> Void
    var finish: ((Int) -> Void)?

    init(stackBytes: Int, body: @escaping () -> (Int) -> Void) {
        page = Int(sysconf(Int32(_SC_PAGESIZE)))
        self.stackBytes = (max(stackBytes, 64 * 1024) + page - 1) / page * page
        var memory: UnsafeMutableRawPointer?
        precondition(posix_memalign(&memory, page, page + self.stackBytes) == 0, "cannot allocate a test stack")
        self.memory = memory!
        // A stack given to pthread_attr_setstack has no guard page: an overflow would write over the heap
        // instead of crashing. The page below the stack is made inaccessible, so it crashes.
        precondition(mprotect(self.memory, page, PROT_NONE) == 0, "cannot protect the test stack's guard page")
        self.body = body
        stack.initializeMemory(as: UInt8.self, repeating: Self.pattern, count: self.stackBytes)
    }

    deinit {
        mprotect(memory, page, PROT_READ | PROT_WRITE)
        free(memory)
    }

    func start() {
        // The waiting itself happens on a plain thread, so no thread of Swift's cooperative pool blocks.
        Thread {
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            defer { pthread_attr_destroy(&attributes) }
            pthread_attr_setstack(&attributes, self.stack, self.stackBytes)
            let context = Unmanaged.passRetained(self).toOpaque()
            #if canImport(Darwin)
            var thread: pthread_t?
            #else
            var thread = pthread_t()
            #endif
            #if canImport(Darwin)
            let created = pthread_create(&thread, &attributes, { context in
                let run = Unmanaged<SmallStackRun>.fromOpaque(context).takeUnretainedValue()
                run.finish = run.body()
                return nil
            }, context)
            #else
            let created = pthread_create(&thread, &attributes, { context in
                let run = Unmanaged<SmallStackRun>.fromOpaque(context!).takeUnretainedValue()
                run.finish = run.body()
                return nil
            }, context)
            #endif
            precondition(created == 0, "cannot start a thread with a small stack")
            #if canImport(Darwin)
            pthread_join(thread!, nil)
            #else
            pthread_join(thread, nil)
            #endif
            Unmanaged<SmallStackRun>.fromOpaque(context).release()
            // The stack grows down: untouched pattern bytes sit at the low end.
            var untouched = 0
            let bytes = self.stack.assumingMemoryBound(to: UInt8.self)
            while untouched < self.stackBytes && bytes[untouched] == Self.pattern { untouched += 1 }
            self.finish?(self.stackBytes - untouched)
        }.start()
    }
}
