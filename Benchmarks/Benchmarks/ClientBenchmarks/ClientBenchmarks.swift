import Benchmark
import BenchmarkSupport
import Synchronization
import Tally

// The client's performance budget (see ARCHITECTURE.md, "Performance budget") against the naive reference,
// all in one run so the ratios hold on a noisy machine. BENCHMARKS.md at the repository root records the
// figures and explains each setup.

let benchmarks: @Sendable () -> Void = {
    /// Events per measured burst in the caller-cost benchmarks (the scaling factor).
    let burst = BenchmarkScalingFactor.kilo

    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: burst,
        maxDuration: .seconds(3),
        maxIterations: 10_000
    )

    // MARK: The naive reference

    Benchmark(
        "Reference: build event + 3 closures",
        configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal, threadCPU])
    ) { benchmark, reference in
        let cpu = ThreadCPUTime.now()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            reference.send(SampleEvent.menuItemOrdered(index))
        }
        benchmark.stopMeasurement()
        benchmark.measurement(threadCPU, (ThreadCPUTime.now() - cpu) / burst.rawValue)
    } setup: {
        NaiveReference.make()
    }

    // MARK: The caller's cost

    // The worker and the three destination threads run while the caller tracks, as in an app. Each
    // iteration tracks one burst of 1,000 events into empty queues that hold 2,000 (the default
    // drop-newest policy), then flushes outside the measured region, so nothing can be dropped and a
    // drop would not flatter the figure; every iteration checks that nothing was (see LossCheck). The caller's thread
    // CPU time is recorded beside the wall clock: on two shared cores the caller also waits while the
    // client's own threads (or other processes) have the core.
    let callerLosses = LossCheck()
    Benchmark(
        "track: caller cost (5 properties, 2 processors, 3 destinations)",
        configuration: .init(metrics: [.wallClock, .throughput, threadCPU])
    ) { benchmark, fixture in
        let analytics = fixture.analytics
        let cpu = ThreadCPUTime.now()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            analytics.track(SampleEvent.menuItemOrdered(index))
        }
        benchmark.stopMeasurement()
        benchmark.measurement(threadCPU, (ThreadCPUTime.now() - cpu) / burst.rawValue)
        await analytics.flush()
        callerLosses.check(fixture, benchmark)
    } setup: {
        ClientFixture(buffering: Buffering(capacity: 2 * burst.rawValue, whenFull: .dropNewest))
    } teardown: {
        callerLosses.stopIfAnythingWasLost()
    }

    // The same caller path with the worker held still (see WorkerGate): the caller's time without a
    // worker competing for one of the two cores, and the caller's allocations alone (the malloc counter
    // is process-wide, so with the worker running it would count the worker's too).
    let pausedLosses = LossCheck()
    Benchmark(
        "track: caller path alone, worker paused (5 properties)",
        configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal, threadCPU])
    ) { (benchmark: Benchmark, state: (fixture: ClientFixture, gate: WorkerGate)) in
        let (fixture, gate) = state
        let analytics = fixture.analytics
        gate.pause(analytics)
        let cpu = ThreadCPUTime.now()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            analytics.track(SampleEvent.menuItemOrdered(index))
        }
        benchmark.stopMeasurement()
        benchmark.measurement(threadCPU, (ThreadCPUTime.now() - cpu) / burst.rawValue)
        gate.resume()
        await analytics.flush()
        pausedLosses.check(fixture, benchmark)
    } setup: {
        let gate = WorkerGate()
        let fixture = ClientFixture(
            buffering: Buffering(capacity: 2 * burst.rawValue, whenFull: .dropNewest), gate: gate)
        return (fixture: fixture, gate: gate)
    } teardown: {
        pausedLosses.stopIfAnythingWasLost()
    }

    // MARK: End to end

    // One million events per iteration through both processors to all three destinations, then flush:
    // the measured time ends when the last destination has received the last event. Every queue blocks
    // when full instead of dropping, so the figure is sustained throughput with nothing lost. Time, CPU
    // (all threads) and mallocs are per event; ordo-one's own throughput metric counts whole iterations
    // per second and rounds one that takes longer than a second to zero, so events per second are
    // recorded as a custom metric.
    // The budget's setup, then the same with a fourth destination (the cost of one more) and with events of
    // 50 properties (beside a reference that builds the same wide event).
    let endToEndSetups: [(name: String, destinations: Int, properties: Int)] = [
        ("track: end-to-end (3 destinations, 2 processors)", 3, 5),
        ("track: end-to-end (4 destinations, 2 processors)", 4, 5),
        ("track: end-to-end (3 destinations, 2 processors, 50 properties)", 3, 50),
    ]
    for setup in endToEndSetups {
        let losses = LossCheck()
        Benchmark(
            setup.name,
            configuration: .init(
                metrics: [.wallClock, .cpuTotal, .mallocCountTotal, eventsPerSecond],
                timeUnits: .automatic,
                warmupIterations: 1,
                scalingFactor: .mega,
                maxDuration: .seconds(60),
                // Odd, so the median is one sample: the time and events/s series are sorted apart, and with
                // an even count under a bimodal load their medians can come from different samples.
                maxIterations: 7
            )
        ) { benchmark, fixture in
            let analytics = fixture.analytics
            let clock = ContinuousClock()
            let start = clock.now
            for index in benchmark.scaledIterations {
                analytics.track(SampleEvent.make(properties: setup.properties, index))
            }
            await analytics.flush(timeout: nil)
            let elapsed = clock.now - start
            benchmark.stopMeasurement()
            benchmark.measurement(eventsPerSecond, perSecond(benchmark.scaledIterations.count, in: elapsed))
            losses.check(fixture, benchmark)
        } setup: {
            ClientFixture(
                buffering: Buffering(capacity: 10_000, whenFull: .block), destinationCount: setup.destinations)
        } teardown: {
            losses.stopIfAnythingWasLost()
        }
    }

    // The reference for the wide event: build it (50 properties) and call the three closures.
    Benchmark(
        "Reference: build a 50-property event + 3 closures",
        configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal, threadCPU])
    ) { benchmark, reference in
        let cpu = ThreadCPUTime.now()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            reference.send(SampleEvent.wide(index))
        }
        benchmark.stopMeasurement()
        benchmark.measurement(threadCPU, (ThreadCPUTime.now() - cpu) / burst.rawValue)
    } setup: {
        NaiveReference.make()
    }
}

/// The measuring thread's CPU time per event, in nanoseconds (see ThreadCPUTime).
private var threadCPU: BenchmarkMetric {
    .custom("Thread CPU per event (ns)", polarity: .prefersSmaller, useScalingFactor: false)
}

/// Events per second, for benchmarks whose iterations take longer than a second.
private var eventsPerSecond: BenchmarkMetric {
    .custom("Throughput (events / s)", polarity: .prefersLarger, useScalingFactor: false)
}

private func perSecond(_ count: Int, in duration: Duration) -> Int {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    return Int((Double(count) / seconds).rounded())
}

/// Stops the run when a benchmark dropped or lost an event: its figures would flatter the client.
///
/// `check` runs after each iteration and remembers the first failure; `stopIfAnythingWasLost` runs in the
/// benchmark's teardown and crashes with it. ordo-one hides a benchmark's output while it iterates, and
/// prints a `benchmark.error` but still exits with status 0, so the failure waits for the teardown, where it
/// is printed and makes `swift package benchmark` fail.
private final class LossCheck: Sendable {
    private let failure = Mutex<String?>(nil)

    func check(_ fixture: ClientFixture, _ benchmark: Benchmark) {
        guard let found = fixture.deliveryFailure() else { return }
        let message = "\(benchmark.name): \(found)"
        failure.withLock { $0 = $0 ?? message }
        benchmark.error(message)
    }

    func stopIfAnythingWasLost() {
        if let message = failure.withLock({ $0 }) {
            fatalError(message)
        }
    }
}
