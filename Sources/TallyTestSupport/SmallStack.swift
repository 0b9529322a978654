// swift-format-ignore: OrderedImports
// The C library before Foundation, here and in Processes.swift: with Foundation first in both files, Swift
// 6.3.1 on Linux rejects `pthread_attr_t()` below under MemberImportVisibility ("missing import of defining
// module 'CDispatch'").
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

/// A stack large enough to build and release values nested 10,000 levels deep (releasing one recurses once
/// per level), for the part of a nesting test that is not under test.
package let largeStackBytes = 64 << 20

/// Runs `body` on a new thread whose stack is `stackBytes` long and waits for it, without holding a thread
/// of Swift's cooperative pool; returns the result and the most stack the thread used, in bytes.
package func onSmallStack<Result: Sendable>(
    _ stackBytes: Int = smallStackBytes, _ body: @escaping @Sendable () -> Result
) async -> (result: Result, stackUsed: Int) {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: runOnThread(stackBytes: stackBytes, body)) }.start()
    }
}

/// Runs `body` on a new thread whose stack is `stackBytes` long and blocks until it ends; returns the
/// result and the most stack the thread used, in bytes.
///
/// The stack is memory of its own, filled with a pattern before the thread starts, below an inaccessible
/// guard page; the bytes still holding the pattern afterwards were never touched, so the rest is the peak
/// use. A body that needs more than `stackBytes` crashes the process on the guard page, as it would crash
/// an app: that is what the tests rule out.
package func runOnThread<Result>(stackBytes: Int, _ body: () -> Result) -> (result: Result, stackUsed: Int) {
    withoutActuallyEscaping(body) { body in
        let run = StackRun(stackBytes: stackBytes) { body() }
        let used = run.run()
        return (run.result as! Result, used)
    }
}

/// One thread with a painted stack. `@unchecked Sendable`: the stack and `result` are written before the
/// thread starts or by it, and read after it has ended; pthread_join orders both.
private final class StackRun: @unchecked Sendable {
    static let pattern: UInt8 = 0xA5
    let stackBytes: Int
    let page: Int
    /// The guard page, then the stack.
    let memory: UnsafeMutableRawPointer
    var stack: UnsafeMutableRawPointer { memory + page }
    let body: () -> Any
    var result: Any?

    init(stackBytes: Int, body: @escaping () -> Any) {
        page = Int(sysconf(Int32(_SC_PAGESIZE)))
        self.stackBytes = (max(stackBytes, 64 * 1024) + page - 1) / page * page
        var memory: UnsafeMutableRawPointer?
        precondition(posix_memalign(&memory, page, page + self.stackBytes) == 0, "cannot allocate a test stack")
        self.memory = memory!
        self.body = body
        // A stack given to pthread_attr_setstack has no guard page: an overflow would write over the heap
        // instead of crashing. The page below the stack is made inaccessible, so it crashes.
        precondition(mprotect(self.memory, page, PROT_NONE) == 0, "cannot protect the test stack's guard page")
        stack.initializeMemory(as: UInt8.self, repeating: Self.pattern, count: self.stackBytes)
    }

    deinit {
        mprotect(memory, page, PROT_READ | PROT_WRITE)
        free(memory)
    }

    /// Runs the body on the thread and returns the stack it used.
    func run() -> Int {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstack(&attributes, stack, stackBytes)
        let context = Unmanaged.passRetained(self).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        let created = pthread_create(
            &thread, &attributes,
            { context in
                let run = Unmanaged<StackRun>.fromOpaque(context).takeUnretainedValue()
                run.result = run.body()
                return nil
            }, context)
        precondition(created == 0, "cannot start a thread with a small stack")
        pthread_join(thread!, nil)
        #else
        var thread = pthread_t()
        let created = pthread_create(
            &thread, &attributes,
            { context in
                let run = Unmanaged<StackRun>.fromOpaque(context!).takeUnretainedValue()
                run.result = run.body()
                return nil
            }, context)
        precondition(created == 0, "cannot start a thread with a small stack")
        pthread_join(thread, nil)
        #endif
        Unmanaged<StackRun>.fromOpaque(context).release()
        // The stack grows down: untouched pattern bytes sit at the low end.
        var untouched = 0
        let bytes = stack.assumingMemoryBound(to: UInt8.self)
        while untouched < stackBytes && bytes[untouched] == Self.pattern { untouched += 1 }
        return stackBytes - untouched
    }
}
