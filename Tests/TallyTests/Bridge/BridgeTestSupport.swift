import Dispatch
import Tally
import TallyTesting

/// A queue with one consumer: `send` from any thread, `next()` waits for the next value without polling.
final class Mailbox<Value: Sendable>: Sendable {
    private let state = Locked<(values: [Value], waiter: CheckedContinuation<Value, Never>?)>(([], nil))

    func send(_ value: Value) {
        let waiter: CheckedContinuation<Value, Never>? = state.withLock { state in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.values.append(value)
            return nil
        }
        waiter?.resume(returning: value)
    }

    func next() async -> Value {
        await withCheckedContinuation { continuation in
            let value: Value? = state.withLock { state in
                precondition(state.waiter == nil, "Mailbox has one consumer")
                if !state.values.isEmpty { return state.values.removeFirst() }
                state.waiter = continuation
                return nil
            }
            if let value { continuation.resume(returning: value) }
        }
    }
}

/// What happened, in order, across starts, callbacks and cleanups.
final class EventLog: Sendable {
    private let events = Locked<[String]>([])

    func record(_ event: String) { events.withLock { $0.append(event) } }
    var entries: [String] { events.current }
    func count(of event: String) -> Int { entries.filter { $0 == event }.count }
}

/// Runs `body` on a global-queue thread and returns its value.
func onAnotherThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: body()) }
    }
}

struct Offline: Error, Hashable {
    var attempt = 1
}
