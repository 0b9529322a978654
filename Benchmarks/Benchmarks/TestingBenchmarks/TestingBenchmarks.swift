import Benchmark
import BenchmarkSupport
import Foundation
import Tally
import TallyTesting

// TallyTesting's budget (ARCHITECTURE.md, "Performance budget"): spy recording at most 200 ns per event, an
// expectation over 100,000 recorded events under 10 ms. Each beside a naive reference in the same run.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 10_000
    )

    // MARK: Recording one event

    // The events are built before the measured loop: the budget is for recording, and building a 5-property
    // event costs about as much again (see ClientBenchmarks' reference).
    let prebuilt = (0..<1000).map(SampleEvent.menuItemOrdered)

    // The naive spy: what a hand-written `MockAnalytics` does, made thread-safe.
    Benchmark("Reference: append the event to a locked array") { benchmark, spy in
        for index in benchmark.scaledIterations {
            spy.track(prebuilt[index % prebuilt.count])
        }
    } setup: {
        NaiveSpy()
    }

    Benchmark("AnalyticsSpy: record one event (5 properties)") { benchmark, spy in
        for index in benchmark.scaledIterations {
            spy.track(prebuilt[index % prebuilt.count])
        }
    } setup: {
        AnalyticsSpy()
    }

    Benchmark("Reference: append a call's arguments to a locked array") { benchmark, spy in
        for index in benchmark.scaledIterations {
            spy.record("logEvent(named:properties:)", [SampleEvent.name, index])
        }
    } setup: {
        NaiveCallSpy()
    }

    Benchmark("CallRecorder: record one call (two arguments)") { benchmark, recorder in
        for index in benchmark.scaledIterations {
            recorder.record("logEvent(named:properties:)", arguments: SampleEvent.name, index)
        }
    } setup: {
        CallRecorder()
    }

    // MARK: One expectation over 100,000 recorded events

    let expectationConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, warmupIterations: 3,
        scalingFactor: .one, maxDuration: .seconds(5), maxIterations: 200)

    // The naive check: is an equal event in the array?
    Benchmark("Reference: contains(_:) over 100,000 events", configuration: expectationConfiguration) {
        benchmark, events in
        let target = SampleEvent.menuItemOrdered(99_999)
        benchmark.startMeasurement()
        blackHole(events.contains(target))
    } setup: {
        (0..<100_000).map(SampleEvent.menuItemOrdered)
    }

    // The last event is the match, so the expectation looks at all 100,000.
    Benchmark("expectTracked over 100,000 recorded events", configuration: expectationConfiguration) {
        (benchmark: Benchmark, spy: AnalyticsSpy) in
        let target = SampleEvent.menuItemOrdered(99_999)
        benchmark.startMeasurement()
        blackHole(spy.expectTracked(target))
    } setup: {
        let spy = AnalyticsSpy()
        for index in 0..<100_000 { spy.track(SampleEvent.menuItemOrdered(index)) }
        return spy
    }

    // Expecting an event first compares a summary of the numbers in the properties, then a hash of the
    // keys and string values when they are ASCII, and compares dictionaries only when both agree. Two more
    // recordings of 100,000 events with equal numbers: in one each event has a key of its own (the second
    // summary rejects them), in the other a non-ASCII string of its own, which no summary can read (equal
    // strings may differ in bytes), so every comparison is a full dictionary comparison.
    for (label, make) in [("only in a key", eventWithKey), ("only in a non-ASCII string", eventWithAccent)] {
        Benchmark(
            "Reference: contains(_:) over 100,000 events differing \(label)", configuration: expectationConfiguration
        ) { benchmark, events in
            let target = make(99_999)
            benchmark.startMeasurement()
            blackHole(events.contains(target))
        } setup: {
            (0..<100_000).map(make)
        }

        Benchmark(
            "expectTracked over 100,000 events differing \(label)", configuration: expectationConfiguration
        ) { (benchmark: Benchmark, spy: AnalyticsSpy) in
            let target = make(99_999)
            benchmark.startMeasurement()
            blackHole(spy.expectTracked(target))
        } setup: {
            let spy = AnalyticsSpy()
            for index in 0..<100_000 { spy.track(make(index)) }
            return spy
        }
    }

    Benchmark("expectCount(_:of:) over 100,000 recorded events", configuration: expectationConfiguration) {
        (benchmark: Benchmark, spy: AnalyticsSpy) in
        benchmark.startMeasurement()
        blackHole(spy.expectCount(100_000, of: .named(SampleEvent.name)))
    } setup: {
        let spy = AnalyticsSpy()
        for index in 0..<100_000 { spy.track(SampleEvent.menuItemOrdered(index)) }
        return spy
    }
}

/// The sample event's values with the last one under a key of its own, such as `note_42`.
@Sendable func eventWithKey(_ index: Int) -> Event {
    Event(
        SampleEvent.name,
        ["item_name": "Pizza", "quantity": 1, "price": 9.5, "is_vegetarian": true, "note_\(index)": "mains"])
}

/// The sample event's values with an item name such as `Café 42`.
@Sendable func eventWithAccent(_ index: Int) -> Event {
    Event(
        SampleEvent.name,
        [
            "item_name": .string("Caf\u{E9} \(index)"), "quantity": 1, "price": 9.5, "is_vegetarian": true,
            "category": "mains",
        ])
}

/// A hand-written, thread-safe spy: a lock and an array.
final class NaiveSpy: @unchecked Sendable {
    // @unchecked: `events` is only touched while `lock` is held.
    private let lock = NSLock()
    private var events: [Event] = []

    func track(_ event: Event) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }
}

/// A hand-written, thread-safe call spy: a lock and an array of name and arguments.
final class NaiveCallSpy: @unchecked Sendable {
    // @unchecked: `calls` is only touched while `lock` is held.
    private let lock = NSLock()
    private var calls: [(String, [Any])] = []

    func record(_ method: String, _ arguments: [Any]) {
        lock.lock()
        calls.append((method, arguments))
        lock.unlock()
    }
}
