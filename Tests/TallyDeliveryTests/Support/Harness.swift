#if Delivery
import Foundation
import Tally
import TallyDelivery
import TallyTestSupport
import TallyTesting

/// A destination under test with a manual clock (TallyTesting's), a scripted transport, its own folder and a
/// context that records what it reports.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
final class Harness: Sendable {
    let clock = ManualClock()
    let transport: ScriptedTransport
    let folder: TemporaryFolder
    let reports = Reports()
    let commits = Commits()
    let configuration: SegmentAPIDestination.Configuration

    init(
        _ script: [ScriptedTransport.Answer] = [], standing: ScriptedTransport.Answer? = nil, durable: Bool = false,
        configure: (inout SegmentAPIDestination.Configuration) -> Void = { _ in }
    ) throws {
        transport = ScriptedTransport(script, standing: standing)
        folder = try TemporaryFolder()
        var configuration = SegmentAPIDestination.Configuration(
            endpoint: URL(string: "http://127.0.0.1:9/v1/batch")!, writeKey: "test-key",
            database: durable ? folder.file("queue.sqlite") : nil, flushAt: 1_000, transport: transport.transport,
            now: { Date(timeIntervalSince1970: 1_790_000_000) })
        configuration.clock = clock
        configure(&configuration)
        configuration.onCommit = { [commits] in commits.committed($0) }
        self.configuration = configuration
    }

    /// Events received by the current destination.
    private let received = Locked(0)

    /// A new destination on this harness's configuration (and database). Close the previous one first.
    func destination(name: String = "http") -> SegmentAPIDestination {
        commits.committed(0)
        received.withLock { $0 = 0 }
        return SegmentAPIDestination(configuration: configuration, name: name)
    }

    var context: DestinationContext {
        DestinationContext(
            destination: "http", report: { [reports] in reports.add($0) },
            countDropped: { [reports] in reports.drop($0, $1) })
    }

    /// Receives events numbered `numbers` (property `n`), with message ids of the same sequence.
    func receive(_ numbers: ClosedRange<Int>, into destination: SegmentAPIDestination, padding: Int = 0) throws {
        for n in numbers {
            try destination.receive(envelope(n, padding: padding), context: context)
            received.withLock { $0 += 1 }
        }
    }

    /// Receives `numbers`, then waits until the writer committed them (counting from this destination's start).
    func receiveAndCommit(
        _ numbers: ClosedRange<Int>, into destination: SegmentAPIDestination, padding: Int = 0
    ) async throws {
        try receive(numbers, into: destination, padding: padding)
        await commits.reach(received.current)
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ManualClock {
    /// Waits until a timer is asleep on this clock between `range` seconds after `start`, and returns its
    /// deadline.
    @discardableResult
    func timer(after start: Instant, in range: ClosedRange<Double>) async throws -> Instant {
        try await waitForSleeper { deadline in
            let (seconds, attoseconds) = start.duration(to: deadline).components
            return range.contains(Double(seconds) + Double(attoseconds) / 1e18)
        }
    }
}

/// An envelope for event `n`: a track event `e` with properties `n` (and `padding`, when asked).
func envelope(
    _ n: Int, kind: Event.Kind = .track, name: String = "e", userId: String? = nil, groupId: String? = nil,
    padding: Int = 0
) -> Envelope {
    var properties: [String: PropertyValue] = ["n": .int(n)]
    if padding > 0 { properties["padding"] = .string(String(repeating: "x", count: padding)) }
    return Envelope(
        event: Event(kind: kind, name: name, properties: properties, userId: userId, groupId: groupId),
        messageId: MessageID(prefix: 0xABC, sequence: UInt64(n)),
        timestamp: Date(timeIntervalSince1970: 1_790_000_000 + Double(n) / 1000), userId: nil, anonymousId: "anon-1")
}

/// What a destination reported through its context.
final class Reports: Sendable {
    private let state = Locked(
        (
            problems: [Problem](), drops: [DropReason: Int](),
            waiters: [(Problem.Code, CheckedContinuation<Void, Never>)]()
        ))
    func add(_ problem: Problem) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.problems.append(problem)
            let ready = state.waiters.filter { $0.0 == problem.code }.map(\.1)
            state.waiters.removeAll { $0.0 == problem.code }
            return ready
        }
        ready.forEach { $0.resume() }
    }
    /// Returns once a problem with `code` was reported (at once if one was).
    func reach(_ code: Problem.Code) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.problems.contains(where: { $0.code == code }) { return true }
                state.waiters.append((code, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
    func drop(_ count: Int, _ reason: DropReason) { state.withLock { $0.drops[reason, default: 0] += count } }
    var problems: [Problem] { state.withLock { $0.problems } }
    var codes: [Problem.Code] { problems.map(\.code) }
    var drops: [DropReason: Int] { state.withLock { $0.drops } }
}

/// The writer's commits, to wait for.
final class Commits: Sendable {
    private let state = Locked((total: 0, waiters: [(Int, CheckedContinuation<Void, Never>)]()))

    func committed(_ total: Int) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.total = total
            let ready = state.waiters.filter { $0.0 <= total }.map(\.1)
            state.waiters.removeAll { $0.0 <= total }
            return ready
        }
        ready.forEach { $0.resume() }
    }

    /// Returns once the destination has committed at least `total` events.
    func reach(_ total: Int) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.total >= total { return true }
                state.waiters.append((total, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// Runs a blocking call (such as `flush()`) on a thread of its own and awaits it, so the test's thread
/// stays free.
func onThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        Thread {
            body()
            done.resume()
        }.start()
    }
}

extension SegmentAPIDestination {
    /// `flush()` on a thread of its own.
    func flushed() async { await onThread { self.flush() } }
}
#endif
