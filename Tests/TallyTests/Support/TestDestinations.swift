import Dispatch
import Foundation
import Tally
import TallyTesting

/// A destination that blocks in `receive` until the test opens the gate. Lets a test hold one lane busy.
final class GateDestination: Destination {
    let name: String
    private let gate = DispatchSemaphore(value: 0)
    private let entered = DispatchSemaphore(value: 0)
    private let received = InMemoryDestination()

    init(name: String = "gate") { self.name = name }

    func receive(_ envelope: Envelope, context: DestinationContext) throws {
        entered.signal()
        gate.wait()
        gate.signal()  // once open, stay open
        try received.receive(envelope, context: context)
    }

    /// Waits until a `receive` call has started (and is blocked on the gate).
    func waitUntilBlocked() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.entered.wait()
                continuation.resume()
            }
        }
    }

    func open() { gate.signal() }

    var events: [Event] { received.events }
}

/// A destination that throws the given error for events whose name is in `failing`.
struct ThrowingDestination: Destination {
    let name: String
    let failing: Set<String>
    let error: any Error & Sendable
    let delivered = InMemoryDestination()

    func receive(_ envelope: Envelope, context: DestinationContext) throws {
        if failing.contains(envelope.event.name) { throw error }
        try delivered.receive(envelope, context: context)
    }
}

/// A destination that lets a test await a number of received events without polling.
final class AwaitingDestination: Destination {
    let name: String
    private let storage = InMemoryDestination()
    private let waiters = LockedWaiters()

    init(name: String = "awaiting") { self.name = name }

    func receive(_ envelope: Envelope, context: DestinationContext) throws {
        try storage.receive(envelope, context: context)
        waiters.update(count: storage.count)
    }

    var events: [Event] { storage.events }

    /// Returns once at least `count` events were received.
    func waitForCount(_ count: Int) async {
        await withCheckedContinuation { continuation in
            waiters.add(count: count, continuation: continuation, current: storage.count)
        }
    }
}

/// Continuations waiting for a count, resumed by the destination's thread.
final class LockedWaiters: @unchecked Sendable {
    // @unchecked: all state is touched under `lock`.
    private let lock = DispatchSemaphore(value: 1)
    private var waiting: [(Int, CheckedContinuation<Void, Never>)] = []
    private var latest = 0

    func add(count: Int, continuation: CheckedContinuation<Void, Never>, current: Int) {
        lock.wait()
        latest = max(latest, current)
        if latest >= count {
            lock.signal()
            continuation.resume()
            return
        }
        waiting.append((count, continuation))
        lock.signal()
    }

    func update(count: Int) {
        lock.wait()
        latest = count
        let ready = waiting.filter { $0.0 <= count }
        waiting.removeAll { $0.0 <= count }
        lock.signal()
        for (_, continuation) in ready { continuation.resume() }
    }
}

/// A clock the test controls.
final class FixedClock: Sendable {
    private let seconds = LockedBox<Double>(1_700_000_000)
    var now: Date { Date(timeIntervalSince1970: seconds.value) }
    func advance(by interval: Double) { seconds.mutate { $0 += interval } }
}

final class LockedBox<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = DispatchSemaphore(value: 1)
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        lock.wait()
        defer { lock.signal() }
        return stored
    }
    func mutate(_ body: (inout Value) -> Void) {
        lock.wait()
        body(&stored)
        lock.signal()
    }
}

/// Resumes a test once the client reports a problem that `matches`, without polling. Give `receive` to
/// the client's `onProblem`.
final class ProblemSignal: Sendable {
    private let matches: @Sendable (Problem) -> Bool
    private let state = LockedBox<(seen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    init(_ matches: @escaping @Sendable (Problem) -> Bool) { self.matches = matches }

    /// For `onProblem`.
    var receive: @Sendable (Problem) -> Void {
        { [self] problem in
            guard matches(problem) else { return }
            var waiters: [CheckedContinuation<Void, Never>] = []
            state.mutate { state in
                state.seen = true
                waiters = state.waiters
                state.waiters = []
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Returns once a matching problem was reported (at once if one already was).
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            var seen = false
            state.mutate { state in
                seen = state.seen
                if !seen { state.waiters.append(continuation) }
            }
            if seen { continuation.resume() }
        }
    }
}
