import Foundation
import TallyTesting
import Testing

@testable import Tally

/// A destination lane's per-event work without the ledger's lock (issue 39): the opt-out cutoff is read
/// for every event, deliveries are counted outside the lock, and nothing a user relies on changes: an
/// opt-out stops the rest of a chunk, counts are exact after a flush, and order is kept. Each test runs on
/// both paths: with the atomics, and on the ledger's lock alone, as on Apple systems older than the atomics.
@Suite struct LaneLedgerTests {
    // MARK: The ledger alone

    @Test(arguments: [true, false])
    func theLedgerAdmitsUpToTheCutoffAndCountsEveryOutcome(atomics: Bool) {
        let ledger = DestinationLedger(name: "d", atomics: atomics)
        ledger.received(4, routedAway: 0, full: 0)
        // No opt-out yet: every sequence number passes, 0 included.
        #expect(ledger.settle(deliveredPrevious: false, thenAdmit: 0))
        #expect(ledger.settle(deliveredPrevious: true, thenAdmit: 1))
        #expect(ledger.held == 3)
        ledger.optOut(below: 2)
        #expect(!ledger.settle(deliveredPrevious: true, thenAdmit: 2))
        #expect(ledger.settle(deliveredPrevious: false, thenAdmit: 3))
        ledger.settle(.delivered)
        var counts = ledger.counts
        #expect(counts.delivered == 3)
        #expect(counts.dropped == [.optedOut: 1])
        #expect(ledger.held == 0)

        // A later opt-out moves the cutoff; a failure is settled at once.
        ledger.received(2, routedAway: 0, full: 0)
        ledger.optOut(below: 5)
        #expect(!ledger.settle(deliveredPrevious: false, thenAdmit: 5))
        #expect(ledger.settle(deliveredPrevious: false, thenAdmit: 6))
        ledger.settle(.dropped(.failed))
        counts = ledger.counts
        #expect(counts.delivered == 3)
        #expect(counts.dropped == [.optedOut: 2, .failed: 1])
        #expect(ledger.held == 0)
    }

    @Test(arguments: [true, false])
    func anOptOutAtSequenceZeroCutsOnlySequenceZero(atomics: Bool) {
        let ledger = DestinationLedger(name: "d", atomics: atomics)
        ledger.optOut(below: 0)
        #expect(!ledger.settle(deliveredPrevious: false, thenAdmit: 0))
        #expect(ledger.settle(deliveredPrevious: false, thenAdmit: 1))
    }

    // MARK: The client

    /// The worker is held on a first event while `a`, `b` and `c` are tracked, so that its next batch, one
    /// chunk for the lane, holds all three. The destination opts the user out while it receives `a`, on
    /// the lane's own thread: `b` and `c`, queued before the opt-out, must not be delivered.
    @Test(.timeLimit(.minutes(1)), arguments: [true, false])
    func anOptOutWhileTheDestinationReceivesStopsTheRestOfItsChunk(atomics: Bool) async {
        await expectTheRestOfTheChunkStopped(atomics: atomics) { destination, analytics in
            destination.setAction { analytics.optOut() }
        }
    }

    /// The same with the opt-out on another thread while the destination is inside `receive` for `a`.
    @Test(.timeLimit(.minutes(1)), arguments: [true, false])
    func anOptOutFromAnotherThreadStopsTheRestOfTheChunkBeingDelivered(atomics: Bool) async {
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        await expectTheRestOfTheChunkStopped(atomics: atomics) { destination, _ in
            destination.setAction {
                entered.signal()
                _ = proceed.wait(timeout: .now() + 30)
            }
        } whileDelivering: { analytics in
            let receiving = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                DispatchQueue.global().async {
                    continuation.resume(returning: entered.wait(timeout: .now() + 30) == .success)
                }
            }
            #expect(receiving, "the destination never received a")
            analytics.optOut()
            proceed.signal()
        }
    }

    /// Tracks `hold`, then `a`, `b` and `c` while the processor holds the worker on `hold` (so the three reach
    /// the lane as one chunk), runs `whileDelivering` once the worker is released, flushes, and expects only
    /// `hold` and `a` delivered, `b` and `c` dropped for the opt-out.
    private func expectTheRestOfTheChunkStopped(
        atomics: Bool,
        configure: (ActingDestination, AnalyticsClient) -> Void,
        whileDelivering: (AnalyticsClient) async -> Void = { _ in }
    ) async {
        let holding = HoldingProcessor(holding: "hold")
        let destination = ActingDestination(actingOn: "a")
        let analytics = AnalyticsClient(
            processors: [holding], destinations: [destination], configuration: configuration(atomics: atomics))
        configure(destination, analytics)
        analytics.track("hold")
        await holding.waitUntilHolding()
        for name in ["a", "b", "c"] { analytics.track(name) }
        holding.release()
        await whileDelivering(analytics)
        await analytics.flush()

        #expect(destination.names == ["hold", "a"])
        let counts = analytics.statistics.destinations["acting"]
        #expect(counts?.delivered == 2)
        #expect(counts?.dropped == [.optedOut: 2])
        await analytics.shutdown()
    }

    /// After every flush the counts are exact, at each of two destinations, and each received every event in
    /// the order tracked.
    @Test(.timeLimit(.minutes(1)), arguments: [true, false])
    func countsAreExactAfterEachFlushAndOrderIsKept(atomics: Bool) async {
        let first = InMemoryDestination(name: "first")
        let second = InMemoryDestination(name: "second")
        let analytics = AnalyticsClient(
            destinations: [first, second], configuration: configuration(atomics: atomics))
        var tracked = 0
        for round in 0..<20 {
            for index in 0..<(round * 7 + 1) {
                analytics.track("e\(tracked)", ["round": .int(round), "index": .int(index)])
                tracked += 1
            }
            await analytics.flush()
            let statistics = analytics.statistics
            #expect(statistics.tracked == tracked)
            #expect(statistics.delivered == ["first": tracked, "second": tracked])
        }
        let expected = (0..<tracked).map { "e\($0)" }
        #expect(first.events.map(\.name) == expected)
        #expect(second.events.map(\.name) == expected)
        await analytics.shutdown()
    }

    private func configuration(atomics: Bool) -> AnalyticsClient.Configuration {
        var configuration = AnalyticsClient.Configuration()
        configuration.ledgersUseAtomics = atomics
        return configuration
    }
}

/// A processor that holds the worker on the event named `holding` until ``release()`` (at most 30 s).
/// `@unchecked Sendable`: its state is two semaphores and a constant.
private final class HoldingProcessor: Processor, @unchecked Sendable {
    let name = "holding"
    private let holding: String
    private let entered = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)

    init(holding: String) { self.holding = holding }

    func process(_ envelope: inout Envelope, context: ProcessingContext) -> ProcessingDecision {
        if envelope.event.name == holding {
            entered.signal()
            _ = gate.wait(timeout: .now() + 30)
        }
        return .keep
    }

    /// Returns once the worker holds on the event (a failed expectation after 30 s without it).
    func waitUntilHolding() async {
        let holds = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            DispatchQueue.global().async {
                continuation.resume(returning: self.entered.wait(timeout: .now() + 30) == .success)
            }
        }
        #expect(holds, "the worker never reached the held event")
    }
    func release() { gate.signal() }
}

/// A destination that keeps the names it receives and runs an action, on the lane's thread, when it
/// receives the event named `actingOn` (after keeping it). `@unchecked Sendable`: the names and the action
/// (a closure the test sets before tracking) are only touched under `state`'s lock.
private final class ActingDestination: Destination, @unchecked Sendable {
    let name = "acting"
    private let actingOn: String
    private let state = Locked<(names: [String], action: (() -> Void)?)>(([], nil))

    init(actingOn: String) { self.actingOn = actingOn }

    func setAction(_ action: @escaping () -> Void) { state.withLock { $0.action = action } }

    func receive(_ envelope: Envelope, context: DestinationContext) throws {
        let action = state.withLock { state in
            state.names.append(envelope.event.name)
            return envelope.event.name == actingOn ? state.action : nil
        }
        action?()
    }

    var names: [String] { state.withLock { $0.names } }
}
