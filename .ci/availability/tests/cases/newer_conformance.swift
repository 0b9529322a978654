// A conformance to a newer protocol, and an extension of a newer type, outside an @available context.
struct ManualClock: Clock { // expect: _Concurrency.Clock
    typealias Instant = ContinuousClock.Instant
    var now: ContinuousClock.Instant { ContinuousClock.now } // expect: _Concurrency.ContinuousClock.Instant
    var minimumResolution: Duration { .zero } // expect: Swift.Duration
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {} // expect: Swift.Duration
}

extension Duration { // expect: Swift.Duration
    var halved: Duration { self / 2 } // expect: Swift.Duration
}
