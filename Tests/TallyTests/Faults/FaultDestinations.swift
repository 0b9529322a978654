import Dispatch
import Foundation
import Tally

/// Destinations that misbehave on purpose, for the fault suite. Each one is released by the test that
/// holds it, so no thread stays blocked after a test.

/// A destination that blocks in `receive` (or in `flush`) until the test opens it.
final class BlockingDestination: Destination {
    enum Where { case receive, flush }

    let name: String
    private let blocksIn: Where
    private let gate = DispatchSemaphore(value: 0)
    private let entered = DispatchSemaphore(value: 0)
    private let kept = LockedBox<[Envelope]>([])
    private let waiters = LockedWaiters()

    init(name: String = "blocking", blocksIn: Where = .receive) {
        self.name = name
        self.blocksIn = blocksIn
    }

    func receive(_ envelope: Envelope, context: DestinationContext) throws {
        if blocksIn == .receive { block() }
        var count = 0
        kept.mutate {
            $0.append(envelope)
            count = $0.count
        }
        waiters.update(count: count)
    }

    func flush() {
        if blocksIn == .flush { block() }
    }

    private func block() {
        entered.signal()
        gate.wait()
        gate.signal()  // once open, stay open
    }

    /// Returns once the destination is blocked.
    func waitUntilBlocked() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.entered.wait()
                continuation.resume()
            }
        }
    }

    func open() { gate.signal() }

    var events: [Event] { kept.value.map(\.event) }

    /// Returns once at least `count` events were received.
    func waitForCount(_ count: Int) async {
        await withCheckedContinuation { continuation in
            waiters.add(count: count, continuation: continuation, current: kept.value.count)
        }
    }
}

/// A destination that sleeps for every event: slow, not stuck. The sleep is the fault under test, not a
/// way to wait for something.
final class SleepingDestination: Destination {
    let name: String
    private let microseconds: UInt32
    private let received = LockedBox(0)

    init(name: String = "sleeping", milliseconds: UInt32) {
        self.name = name
        self.microseconds = milliseconds * 1000
    }

    func receive(_ envelope: Envelope, context: DestinationContext) throws {
        if !hurried.value { usleep(microseconds) }
        received.mutate { $0 += 1 }
    }

    var count: Int { received.value }

    /// Makes every later event quick, so that a test can leave no slow work behind when it ends.
    func hurry() { hurried.mutate { $0 = true } }
    private let hurried = LockedBox(false)
}

/// A destination that keeps every envelope, origin included.
final class KeepingDestination: Destination {
    let name: String
    private let kept = LockedBox<[Envelope]>([])
    private let waiters = LockedWaiters()
    private let flushes = LockedBox(0)
    private let flushWaiters = LockedWaiters()

    init(name: String = "keeping") { self.name = name }

    func receive(_ envelope: Envelope, context: DestinationContext) throws {
        var count = 0
        kept.mutate {
            $0.append(envelope)
            count = $0.count
        }
        waiters.update(count: count)
    }

    /// Counts the call: its lane has settled every event before a flush's barrier when it calls this.
    func flush() {
        var count = 0
        flushes.mutate {
            $0 += 1
            count = $0
        }
        flushWaiters.update(count: count)
    }

    var envelopes: [Envelope] { kept.value }

    /// How many times the lane has flushed this destination.
    var flushCount: Int { flushes.value }

    /// Returns once the lane has flushed this destination at least `count` times.
    func waitForFlushes(_ count: Int) async {
        await withCheckedContinuation { continuation in
            flushWaiters.add(count: count, continuation: continuation, current: flushes.value)
        }
    }

    var names: [String] { kept.value.map(\.event.name) }

    /// Returns once at least `count` events were received.
    func waitForCount(_ count: Int) async {
        await withCheckedContinuation { continuation in
            waiters.add(count: count, continuation: continuation, current: kept.value.count)
        }
    }
}

/// A destination that calls back into its own client from `receive`: it tracks an event about every
/// event it receives and reads the client's state, as a logging or "delivery receipt" destination might.
final class ReentrantDestination: Destination, @unchecked Sendable {
    // @unchecked: `client` is set once, before any event is tracked, and cleared after the test.
    var client: AnalyticsClient?
    let name: String
    private let kept = LockedBox<[Envelope]>([])
    private let seen = LockedBox<[Statistics]>([])

    init(name: String = "reentrant") { self.name = name }

    func receive(_ envelope: Envelope, context: DestinationContext) throws {
        kept.mutate { $0.append(envelope) }
        guard let client else { return }
        let statistics = client.statistics
        seen.mutate { $0.append(statistics) }
        _ = client.identity
        client.track("received_\(envelope.event.name)")
    }

    var envelopes: [Envelope] { kept.value }
    var diagnosticsSeen: Int { seen.value.count }
}

/// A Problem code used by the fault suite's destinations.
extension Problem.Code {
    static let faultInjected = Problem.Code("fault_injected")
}

/// What a throwing destination throws when it fails rather than rejects.
struct InjectedFailure: Error, Equatable {}
