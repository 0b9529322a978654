import Benchmark
import BenchmarkSupport
import Foundation
import Tally
import TallyPlan

// TallyPlan's budget: at least 1,000,000 events per second validated on one core against a plan of 50 events
// with 5 to 10 properties each; coverage over 1,000,000 recorded events in under 2 seconds. Each beside a
// naive reference in the same run.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 10_000
    )

    // MARK: Validation, one core

    // The naive validator: look the event up by name and compare each property's JSON type with the
    // planned one. No ranges, lengths, enums or formats: less than the plan asks, as a floor.
    Benchmark("Reference: look up the event and compare property types") { benchmark, state in
        let (types, events) = state
        for index in benchmark.scaledIterations {
            let event = events[index % events.count]
            var conforms = false
            if let planned = types[event.name] {
                conforms = event.properties.allSatisfy { planned[$0.key] == $0.value.typeName }
            }
            blackHole(conforms)
        }
    } setup: {
        (PlanFixture.plannedTypes, PlanFixture.events)
    }

    Benchmark("PlanValidator: validate one event (50 planned events, 5-10 properties)") { benchmark, state in
        let (validator, events) = state
        for index in benchmark.scaledIterations {
            blackHole(validator.validate(events[index % events.count]).isEmpty)
        }
    } setup: {
        (PlanValidator(plan: PlanFixture.plan), PlanFixture.events)
    }

    // What `tally validate` and `tally coverage` add to every event: each string value not marked personal is
    // scanned for an e-mail address or a phone number (`scansUnmarkedValues`). On the events above, where the
    // unmarked `format: email` property holds an address in 5 events of 6 (each then reports a violation), and
    // on the same events with that property null (nothing to find: the usual case), each beside the validator
    // without the scan on the same events.
    Benchmark("PlanValidator: the same events, scanning unmarked values (an address found in 5 of 6)") {
        benchmark, state in
        let (validator, events) = state
        for index in benchmark.scaledIterations {
            blackHole(validator.validate(events[index % events.count]).isEmpty)
        }
    } setup: {
        (PlanValidator(plan: PlanFixture.plan, scansUnmarkedValues: true), PlanFixture.events)
    }

    Benchmark("PlanValidator: events holding no address, without the scan") { benchmark, state in
        let (validator, events) = state
        for index in benchmark.scaledIterations {
            blackHole(validator.validate(events[index % events.count]).isEmpty)
        }
    } setup: {
        (PlanValidator(plan: PlanFixture.plan), PlanFixture.eventsWithoutAddresses)
    }

    Benchmark("PlanValidator: events holding no address, scanning unmarked values") { benchmark, state in
        let (validator, events) = state
        for index in benchmark.scaledIterations {
            blackHole(validator.validate(events[index % events.count]).isEmpty)
        }
    } setup: {
        (PlanValidator(plan: PlanFixture.plan, scansUnmarkedValues: true), PlanFixture.eventsWithoutAddresses)
    }

    // MARK: Coverage over 1,000,000 recorded events

    let coverageConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal], timeUnits: .milliseconds, warmupIterations: 1,
        scalingFactor: .one, maxDuration: .seconds(60), maxIterations: 5)

    // The naive reader: split the file into lines, parse each with JSONSerialization, count event names.
    Benchmark("Reference: JSONSerialization over 1,000,000 recorded events", configuration: coverageConfiguration) {
        benchmark, file in
        benchmark.startMeasurement()
        let data = try Data(contentsOf: file.url)
        var counts: [String: Int] = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
            if let name = object?["name"] as? String { counts[name, default: 0] += 1 }
        }
        benchmark.stopMeasurement()
        precondition(counts.values.reduce(0, +) == PlanFixture.recordedEvents)
    } setup: {
        try RecordingFixture()
    }

    Benchmark("Coverage: read and measure 1,000,000 recorded events", configuration: coverageConfiguration) {
        benchmark, file in
        benchmark.startMeasurement()
        var events: [Event] = []
        _ = try RecordingFile.readEvents(at: file.url) { events += $0 }
        let coverage = PlanCoverage(plan: PlanFixture.plan, events: events)
        blackHole(coverage.renderTable())
        benchmark.stopMeasurement()
        precondition(coverage.events.reduce(0) { $0 + $1.count } == PlanFixture.recordedEvents)
    } setup: {
        try RecordingFixture()
    }
}

/// A plan of 50 events with 5 to 10 properties each, and events that conform to it.
enum PlanFixture {
    static let recordedEvents = 1_000_000

    /// Property `p` of event `e`: a rotation of string, integer, number, boolean, enum and email.
    static func schema(_ p: Int) -> (yaml: String, type: String, value: (Int) -> PropertyValue) {
        switch p % 6 {
        case 0: return ("{ type: string, maxLength: 40 }", "string", { .string("value \($0 % 100)") })
        case 1: return ("{ type: integer, minimum: 0, maximum: 1000000 }", "integer", { .int($0 % 1000) })
        case 2: return ("{ type: number, exclusiveMinimum: 0 }", "number", { .double(Double($0 % 50) + 0.5) })
        case 3: return ("{ type: boolean }", "boolean", { .bool($0 % 2 == 0) })
        case 4:
            return (
                "{ type: string, enum: [small, medium, large] }", "string",
                { .string(["small", "medium", "large"][$0 % 3]) }
            )
        default: return ("{ type: [string, \"null\"], format: email }", "string", { _ in "ada@example.com" })
        }
    }

    static func propertyCount(_ event: Int) -> Int { 5 + event % 6 }

    static let plan: TrackingPlan = {
        var yaml = "version: 1\nevents:\n"
        for event in 0..<50 {
            yaml += "  - name: event_\(event)\n    description: Benchmark event \(event).\n    properties:\n"
            for property in 0..<propertyCount(event) {
                yaml += "      p\(property): \(schema(property).yaml)\n"
            }
            yaml += "    required: [p0, p1, p2]\n"
        }
        do {
            return try TrackingPlan(text: yaml, file: "benchmark-plan.yaml")
        } catch {
            fatalError("The benchmark plan does not load: \(error)")
        }
    }()

    static let plannedTypes: [String: [String: String]] = Dictionary(
        uniqueKeysWithValues: (0..<50).map { event in
            (
                "event_\(event)",
                Dictionary(uniqueKeysWithValues: (0..<propertyCount(event)).map { ("p\($0)", schema($0).type) })
            )
        })

    /// 1,000 conforming events over the 50 planned ones.
    static let events: [Event] = (0..<1000).map { index in
        let event = index % 50
        var properties: [String: PropertyValue] = [:]
        for property in 0..<propertyCount(event) { properties["p\(property)"] = schema(property).value(index) }
        return Event("event_\(event)", properties)
    }

    /// ``events`` with the `format: email` property null (the plan allows it): nothing for a scan to find.
    static let eventsWithoutAddresses: [Event] = events.map { event in
        var properties = event.properties.dictionary
        for key in properties.keys where properties[key] == .string("ada@example.com") { properties[key] = .null }
        return Event(event.name, properties)
    }
}

/// A recording of `PlanFixture.recordedEvents` events in a fresh temporary folder, removed when done.
final class RecordingFixture: Sendable {
    let folder: URL
    let url: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-benchmark-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        url = folder.appendingPathComponent("run.jsonl")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(PlanFixture.recordedEvents * 300)
        let start = Date(timeIntervalSince1970: 1_795_317_473)
        for index in 0..<PlanFixture.recordedEvents {
            let envelope = Envelope(
                event: PlanFixture.events[index % PlanFixture.events.count],
                messageId: MessageID(prefix: 1, sequence: UInt64(index)), timestamp: start, userId: "user-1",
                anonymousId: "3f2c7a1e-9b4d-4e8a-a1c2-7d5e9f0b1c3a", context: ["app_version": "2.3.0"])
            bytes += Record(envelope: envelope, source: "benchmark").line
        }
        try Data(bytes).write(to: url)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }
}
