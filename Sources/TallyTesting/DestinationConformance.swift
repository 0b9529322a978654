import Foundation
import IssueReporting
import Tally

/// Checks that a destination behaves as the client expects, whoever wrote it.
///
/// Run it from a test of your destination, in Swift Testing or XCTest:
///
/// ```swift
/// @Test func myDestinationConforms() async {
///     let backend = FakeBackend()
///     await DestinationConformance(
///         makeDestination: { MyBackendDestination(client: backend) },
///         receivedCount: { _ in backend.receivedEvents.count },
///         reset: { _ in backend.clear() }
///     ).run()
/// }
/// ```
///
/// It drives the destination through a real `AnalyticsClient` and reports each broken rule as one issue
/// at the line of `run()`:
/// 1. **Every event delivered**: 500 track events arrive, in order of count, none failed or rejected.
/// 2. **Flush**: after `flush()` returns, the destination has received everything tracked before it, and
///    its own `Destination.flush()` ran without failing.
/// 3. **Concurrent tracking**: 8 tasks tracking 250 events each all arrive.
/// 4. **Bad input**: events carrying odd but legal content (long and non-ASCII strings, deep nesting, many
///    properties, NaN which the client turns into null, every kind) never make the destination throw
///    anything but a `Problem`: rejecting by rule is fine, failing is not.
///
/// Under exhaustive mode (`@Test(.exhaustive)`, `withExhaustiveCheck`) the suite's own events are not
/// checked: the recorders that `makeDestination` creates (an `InMemoryDestination`, a spy) receive
/// thousands of events that the rules above account for by count. A broken rule is reported in a few lines
/// that name the rule and, when one event is to blame, that event.
///
/// The events it tracks are simple: snake_case names under 40 characters and fewer than 20 scalar
/// properties, so that vendor destinations map each to exactly one vendor call.
public struct DestinationConformance<D: Destination>: Sendable {
    private let makeDestination: @Sendable () throws -> D
    private let receivedCount: @Sendable (D) -> Int
    private let reset: @Sendable (D) -> Void

    /// Creates a suite.
    ///
    /// - Parameters:
    ///   - makeDestination: a new destination for each check.
    ///   - receivedCount: how many events the destination has passed on so far, read from what it delivers
    ///     to (a spy adapter's calls, a file's lines, an in-memory list).
    ///   - reset: forgets what was received, when the destinations of several checks share a receiver.
    public init(
        makeDestination: @escaping @Sendable () throws -> D, receivedCount: @escaping @Sendable (D) -> Int,
        reset: @escaping @Sendable (D) -> Void = { _ in }
    ) {
        self.makeDestination = makeDestination
        self.receivedCount = receivedCount
        self.reset = reset
    }

    /// Runs every check; returns the number of rules broken (each also reported as an issue).
    @discardableResult
    public func run(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async -> Int {
        // The checks account for their own events by count: exhaustive mode is off for the recorders made
        // here, or it would ask for an expectation for each of the suite's 3,000 events.
        let failures = await ExhaustiveCheck.$current.withValue(nil) {
            var failures: [String] = []
            do {
                failures += try await everyEventDelivered()
                failures += try await flushDeliversWhatCameBefore()
                failures += try await concurrentTracking()
                failures += try await badInput()
            } catch {
                failures.append("Could not make the destination: \(error)")
            }
            return failures
        }
        for failure in failures {
            reportFailure(
                "Destination conformance: \(failure)", fileID: fileID, filePath: filePath, line: line, column: column)
        }
        return failures.count
    }

    // MARK: Checks

    private func fresh() throws -> D {
        let destination = try makeDestination()
        reset(destination)
        return destination
    }

    private static func client(_ destination: D) -> AnalyticsClient {
        AnalyticsClient(
            destinations: [destination],
            configuration: .init(
                buffering: Buffering(capacity: 1024, whenFull: .block),
                destinationBuffering: Buffering(capacity: 1024, whenFull: .block)))
    }

    private static func event(_ index: Int) -> Event {
        Event(
            "conformance_event",
            [
                "index": .int(index), "label": "event \(index)", "ratio": .double(Double(index) / 4),
                "flag": .bool(index % 2 == 0),
            ])
    }

    func everyEventDelivered() async throws -> [String] {
        let destination = try fresh()
        let analytics = Self.client(destination)
        for index in 0..<500 { analytics.track(Self.event(index)) }
        await analytics.shutdown()
        var failures: [String] = []
        let counts = analytics.statistics.destinations[destination.name] ?? DestinationStatistics()
        if counts.delivered != 500 || !counts.dropped.isEmpty {
            failures.append(
                "every event delivered: 500 tracked, \(counts.delivered) delivered, dropped \(counts.dropped)"
                    + Self.summary(of: analytics.statistics.recentProblems))
        }
        let received = receivedCount(destination)
        if received != 500 { failures.append("every event delivered: 500 tracked, the receiver got \(received)") }
        return failures
    }

    func flushDeliversWhatCameBefore() async throws -> [String] {
        let destination = try fresh()
        let analytics = Self.client(destination)
        var failures: [String] = []
        for round in 1...3 {
            for index in 0..<50 { analytics.track(Self.event(index)) }
            await analytics.flush()
            let received = receivedCount(destination)
            if received != round * 50 {
                failures.append(
                    "flush: after flush() number \(round), \(round * 50) events were tracked but the receiver got \(received)"
                )
                break
            }
        }
        await analytics.shutdown()
        return failures
    }

    func concurrentTracking() async throws -> [String] {
        let destination = try fresh()
        let analytics = Self.client(destination)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<250 { analytics.track(Self.event(task * 1000 + index)) }
                }
            }
        }
        await analytics.shutdown()
        let received = receivedCount(destination)
        return received == 2000
            ? [] : ["concurrent tracking: 8 tasks tracked 2000 events, the receiver got \(received)"]
    }

    func badInput() async throws -> [String] {
        let destination = try fresh()
        let analytics = Self.client(destination)
        var many: [String: PropertyValue] = [:]
        for index in 0..<300 { many["p\(index)"] = .int(index) }
        var deep: PropertyValue = "leaf"
        for _ in 0..<40 { deep = ["child": deep] }
        let events: [Event] = [
            Event("conformance_long", ["text": .string(String(repeating: "é", count: 40_000))]),
            Event("conformance_unicode", ["text": "naïve 🍕 日本語", "emoji_key_🍕": 1]),
            Event("conformance_deep", ["tree": deep]),
            Event("conformance_many", many),
            Event("conformance_nan", ["value": .double(.nan), "list": [.double(.infinity)]]),
            Event("conformance_empty"),
            Event("name with spaces-and-dashes"),
            .screen("Conformance Screen", ["from": "suite"]),
            .identify(userId: "conformance-user", traits: ["plan": "pro", "seats": 3]),
            .group("conformance-group", traits: ["size": 10]),
            .alias("conformance-user-2"),
        ]
        for event in events { analytics.track(event) }
        await analytics.shutdown()
        let failed = analytics.statistics.recentProblems.filter { $0.code == .destinationFailed }
        return failed.map { problem in
            "bad input: the destination failed on event \"\(problem.eventName ?? "?")\" instead of rejecting it by rule: "
                + Self.shortened(problem.message)
        }
    }

    /// The first three problems, one a line and each at most 200 characters, and how many more there were.
    private static func summary(of problems: [Problem]) -> String {
        guard !problems.isEmpty else { return "" }
        var lines = problems.prefix(3).map { "\n  - " + shortened($0.description) }
        if problems.count > 3 { lines.append("\n  - and \(problems.count - 3) more") }
        return "; problems:" + lines.joined()
    }

    /// `text` on one line, cut to 200 characters.
    private static func shortened(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count <= 200 ? line : String(line.prefix(199)) + "…"
    }
}
