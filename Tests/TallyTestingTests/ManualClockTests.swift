import Dispatch
import TallyTesting
import Testing

@Suite struct ManualClockTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func timeMovesOnlyWhenAdvanced() {
        let clock = ManualClock()
        #expect(clock.now == ManualClock.Instant(offset: .zero))
        clock.advance(by: .seconds(2))
        clock.advance(by: .milliseconds(500))
        #expect(clock.now.offset == .milliseconds(2_500))
        clock.advance(to: ManualClock.Instant(offset: .seconds(10)))
        #expect(clock.now.offset == .seconds(10))
        clock.advance(to: ManualClock.Instant(offset: .seconds(3)))  // never backwards
        #expect(clock.now.offset == .seconds(10))
        #expect(clock.now.duration(to: ManualClock.Instant(offset: .seconds(12))) == .seconds(2))
        #expect(clock.minimumResolution == .zero)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func sleepingUntilAReachedDeadlineReturnsAtOnce() async throws {
        let clock = ManualClock(now: ManualClock.Instant(offset: .seconds(5)))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(5)))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(1)))
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aSleeperWakesWhenItsDeadlineIsReachedAndNotBefore() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
        try await clock.waitForSleepers(count: 1)

        clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 0)
        try await sleeper.value
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func anAdvanceWakesExactlyTheSleepersItReaches() async throws {
        let clock = ManualClock()
        let sleepers = (1...5).map { seconds in
            Task { try await clock.sleep(until: ManualClock.Instant(offset: .seconds(seconds))) }
        }
        try await clock.waitForSleepers(count: 5)

        clock.advance(to: ManualClock.Instant(offset: .seconds(3)))
        #expect(clock.sleeperCount == 2)
        for sleeper in sleepers.prefix(3) { try await sleeper.value }

        clock.advance(by: .seconds(10))
        #expect(clock.sleeperCount == 0)
        for sleeper in sleepers.suffix(2) { try await sleeper.value }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func cancellingASleeperThrowsAndRemovesIt() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
        try await clock.waitForSleepers(count: 1)

        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
        clock.advance(by: .seconds(5))  // nothing left to resume twice
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aCancelledTaskDoesNotStartSleeping() async throws {
        let clock = ManualClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(5))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func waitingForSleepersReturnsOnceEnoughAreAsleep() async throws {
        let clock = ManualClock()
        try await clock.waitForSleepers(count: 0)

        let waiter = Task { try await clock.waitForSleepers(count: 2) }
        let first = Task { try await clock.sleep(for: .seconds(1)) }
        let second = Task { try await clock.sleep(for: .seconds(2)) }
        try await waiter.value
        #expect(clock.sleeperCount == 2)

        clock.advance(by: .seconds(2))
        try await first.value
        try await second.value
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func waitingForSleepersIsCancellable() async throws {
        let clock = ManualClock()
        let waiter = Task { try await clock.waitForSleepers(count: 1) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func itWorksWhereverAClockIsExpected() async throws {
        func elapsed<C: Clock>(on clock: C, by advance: () -> Void) -> C.Duration {
            clock.measure { advance() }
        }
        let clock = ManualClock()
        #expect(elapsed(on: clock) { clock.advance(by: .seconds(3)) } == .seconds(3))
    }
}

/// Runs under ThreadSanitizer in CI (`swift test --sanitize=thread --filter Concurrency`).
@Suite struct ManualClockConcurrencyTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func sleepersAdvancesAndCancellationsFromManyThreads() async throws {
        let clock = ManualClock()
        let count = 400
        let sleepers = (0..<count).map { index in
            Task { try await clock.sleep(until: ManualClock.Instant(offset: .seconds(index % 20 + 1))) }
        }
        try await clock.waitForSleepers(count: count)

        // Cancel every fourth sleeper while ten threads each advance by one second.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                DispatchQueue.concurrentPerform(iterations: 10 + count / 4) { iteration in
                    if iteration < 10 {
                        clock.advance(by: .seconds(1))
                    } else {
                        sleepers[(iteration - 10) * 4].cancel()
                    }
                }
                done.resume()
            }
        }
        #expect(clock.now.offset == .seconds(10))

        clock.advance(by: .seconds(10))
        #expect(clock.sleeperCount == 0)
        // A cancelled sleeper either threw or had already been woken by an advance; every other one woke.
        var woken = 0
        for (index, sleeper) in sleepers.enumerated() {
            switch await sleeper.result {
            case .success:
                woken += 1
            case .failure(let error):
                #expect(error is CancellationError)
                #expect(index % 4 == 0, "sleeper \(index) was never cancelled")
            }
        }
        #expect(woken >= count - count / 4)
    }
}
