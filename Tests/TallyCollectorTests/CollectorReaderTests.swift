#if Collector
import Foundation
import Tally
@testable import TallyCollector
import TallyTesting
import Testing

/// TallyTesting's `CollectorReader` against a real collector: the spy's expectations, waits the
/// collector answers, and sessions that keep parallel tests apart.
@Suite("CollectorReader", .timeLimit(.minutes(1)))
struct CollectorReaderTests {
    /// Posts a batch the way a Segment client would, tagged with `session` in each event's context.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    static func send(_ collector: Collector, _ messages: [String], session: String) async throws {
        let tagged = messages.map { String($0.dropLast()) + #","context":{"tally_session":"\#(session)"}}"# }
        let answer = try await HTTP.post(collector.url.appendingPathComponent("v1/batch"), batchJSON(tagged))
        #expect(answer.status == 200)
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func theSpysExpectationsWorkOnACollectorSession() async throws {
        try await withLiveCollector { collector in
            let reader = CollectorReader(url: collector.url)
            try await Self.send(
                collector,
                [
                    trackJSON("login_tapped", properties: #"{"action":"tap"}"#),
                    #"{"type":"screen","name":"Login","userId":"u1"}"#,
                    #"{"type":"identify","userId":"u1","traits":{"plan":"pro"}}"#,
                ], session: reader.session)
            try await reader.refresh()
            reader.expectTracked(Event("login_tapped", ["action": "tap"]))
            reader.expectTracked(.screen("Login"))
            reader.expectTracked(.identify(userId: "u1", traits: ["plan": "pro"]))
            reader.expectNothingElse()
            #expect(reader.log.envelopes.map(\.userId) == ["u1", "u1", "u1"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func parallelSessionsNeverSeeEachOthersEvents() async throws {
        try await withLiveCollector { collector in
            let readers = (0..<4).map { _ in CollectorReader(url: collector.url) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, reader) in readers.enumerated() {
                    group.addTask {
                        try await Self.send(
                            collector, (0..<5).map { trackJSON("e\($0)-of-\(index)") }, session: reader.session)
                        #expect(await reader.waitForCount(5))
                        reader.expectCount(5, of: .where("mine") { $0.name.hasSuffix("-of-\(index)") })
                        reader.expectNothingElse()
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aWaitIsAnsweredByTheInsertThatBringsTheEvent() async throws {
        try await withLiveCollector { collector in
            let reader = CollectorReader(url: collector.url)
            try await Self.send(collector, [trackJSON("started")], session: reader.session)
            let waiting = Task { await reader.waitForEvent(.named("paid"), timeout: .seconds(30)) }
            // The reader reads "started", then waits on the collector for what follows.
            await collector.routes.waits.waitForWaiters(1)
            try await Self.send(collector, [trackJSON("paid", properties: #"{"total":3}"#)], session: reader.session)
            #expect(await waiting.value == Event("paid", ["total": 3]))
            reader.expectTracked(.named("started"))
            reader.expectTracked(.named("paid"))
            reader.expectNothingElse()
        }
    }

    /// A wait that ends (cancelling its follow-up long-poll) just as the test stops its collector. Before the
    /// reader's URLSession kept no cache, the cancel raced the task's removal on Linux and FoundationNetworking
    /// stopped the process ("Trying to access a behaviour for a task that in not in the registry"). A race:
    /// a release-built loop of this shape stopped 3 runs of 3 within 50 rounds, and none of 3 x 200 rounds
    /// after the change; this debug-built test caught it in 1 run of 5 before the change (the crash takes
    /// the test process down, so the run fails), and passed 3 of 3 after.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aWaitThatEndsAsItsCollectorStopsDoesNotStopTheProcess() async throws {
        for round in 0..<300 {
            try await withLiveCollector { collector in
                let reader = CollectorReader(url: collector.url)
                let waiting = Task { await reader.waitForEvent(.named("e\(round)"), timeout: .seconds(30)) }
                try await Self.send(collector, [trackJSON("e\(round)")], session: reader.session)
                #expect(await waiting.value?.name == "e\(round)")
                reader.expectTracked(.named("e\(round)"))
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func waitForCountCountsAcrossInserts() async throws {
        try await withLiveCollector { collector in
            let reader = CollectorReader(url: collector.url)
            let waiting = Task { await reader.waitForCount(3, of: .named("tick"), timeout: .seconds(30)) }
            for _ in 0..<3 {
                try await Self.send(collector, [trackJSON("tick"), trackJSON("tock")], session: reader.session)
            }
            #expect(await waiting.value)
            reader.expectCount(3, of: .named("tick"))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aTimeoutReportsOneIssueAtTheCallersLine() async throws {
        try await withLiveCollector { collector in
            let reader = CollectorReader(url: collector.url)
            try await Self.send(collector, [trackJSON("something_else")], session: reader.session)
            let clock = ManualClock()
            let line = #line + 6
            let issues = await issues {
                let timer = Task {
                    try await clock.waitForSleepers(count: 1)
                    clock.advance(by: .seconds(2))
                }
                #expect(
                    await reader.waitForEvent(.named("payment_succeeded"), timeout: .seconds(2), clock: clock) == nil)
                try? await timer.value
            }
            #expect(issues.count == 1)
            #expect(
                issues.first?.message.contains(#"Timed out after 2.0 seconds waiting for "payment_succeeded"."#) == true
            )
            #expect(issues.first?.message.contains("[0] track something_else") == true)
            #expect(issues.first?.line == line)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func anUnreachableCollectorIsNamedInTheFailure() async throws {
        let collector = try await Collector.start()
        let url = collector.url
        await collector.stop()
        let reader = CollectorReader(url: url)
        await #expect(throws: CollectorReaderError.self) { try await reader.refresh() }
        // The synchronous expectation does not read; it reports why the last read failed.
        let issues = issues { reader.expectTracked(.named("anything")) }
        #expect(issues.count == 2)
        #expect(
            issues.first?.message.contains(
                "Could not read the recording: Cannot reach the collector at \(url.absoluteString)") == true)
        #expect(issues.last?.message.contains(#"Expected "anything" to have been tracked"#) == true)
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func deletingASessionStartsItOver() async throws {
        try await withLiveCollector { collector in
            let reader = CollectorReader(url: collector.url)
            let other = CollectorReader(url: collector.url)
            try await Self.send(collector, [trackJSON("first")], session: reader.session)
            try await Self.send(collector, [trackJSON("kept")], session: other.session)
            try await reader.refresh()
            reader.expectTracked(.named("first"))
            try await reader.deleteEvents()
            try await Self.send(collector, [trackJSON("second")], session: reader.session)
            try await reader.refresh()
            #expect(reader.recordedEvents.map(\.name) == ["second"])
            try await other.refresh()
            other.expectTracked(.named("kept"))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aClientsRecordingSinkSendsToTheCollector() async throws {
        try await withLiveCollector { collector in
            let reader = CollectorReader(url: collector.url)
            let analytics = AnalyticsClient(
                processors: [.superProperties(["app_version": "2.0"])],
                destinations: [RecordingDestination.collector(collector.url, session: reader.session, source: "app")])
            analytics.identify(userId: "u1")
            analytics.track("checkout_started", ["items": 2])
            analytics.alias("u2")
            await analytics.flush()
            #expect(await reader.waitForCount(3))
            reader.expectTracked(Event("checkout_started", ["items": 2, "app_version": "2.0"]))
            reader.expectTracked(.identify(userId: "u1", traits: [:]))
            reader.expectTracked(.alias("u2"))
            reader.expectNothingElse()
            let envelopes = reader.log.envelopes
            #expect(envelopes[1].userId == "u1")
            #expect(envelopes[2].userId == "u1")  // an alias's previous id
            #expect(Set(envelopes.map(\.anonymousId)).count == 1)
            #expect(analytics.statistics.destinations["collector"]?.delivered == 3)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func theSinkReportsACollectorThatIsDown() async throws {
        let collector = try await Collector.start()
        let url = collector.url
        await collector.stop()
        let sink = CollectorRecordingSink(url: url, timeout: 2)
        let record = Record(
            envelope: Envelope(
                event: Event("x"), messageId: MessageID(prefix: 1, sequence: 1), timestamp: Date(), anonymousId: "a"))
        #expect {
            try sink.write(record, line: record.line)
        } throws: { error in
            "\(error)".contains("Cannot reach the collector at \(url.absoluteString)")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func theCollectorDestinationIsReadFromTheEnvironment() throws {
        #expect(try RecordingDestination.collectorFromEnvironment([:]) == nil)
        let destination = try #require(
            try RecordingDestination.collectorFromEnvironment([
                "TALLY_COLLECTOR": "http://127.0.0.1:8787", "TALLY_SESSION": "s",
            ]))
        #expect(destination.name == "collector")
        #expect {
            try RecordingDestination.collectorFromEnvironment(["TALLY_COLLECTOR": "127.0.0.1:8787"])
        } throws: { error in
            "\(error)".contains("TALLY_COLLECTOR must be an http URL such as http://127.0.0.1:8787, not 127.0.0.1:8787")
        }
    }
}

/// The issues `body` reports, with their messages and lines, instead of failing the test with them.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
func issues(_ body: () async -> Void) async -> [(message: String, line: Int)] {
    let log = IssueLog()
    await withKnownIssue(isIntermittent: true) {
        await body()
    } matching: { issue in
        log.append((issue.comments.map(\.rawValue).joined(separator: "\n"), issue.sourceLocation?.line ?? -1))
        return true
    }
    return log.all
}

/// Synchronous form of ``issues(_:)-(()->Void)``.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
func issues(_ body: () -> Void) -> [(message: String, line: Int)] {
    let log = IssueLog()
    withKnownIssue(isIntermittent: true) {
        body()
    } matching: { issue in
        log.append((issue.comments.map(\.rawValue).joined(separator: "\n"), issue.sourceLocation?.line ?? -1))
        return true
    }
    return log.all
}

final class IssueLog: Sendable {
    private let issues = Locked<[(message: String, line: Int)]>([])
    func append(_ issue: (message: String, line: Int)) { issues.withLock { $0.append(issue) } }
    var all: [(message: String, line: Int)] { issues.current }
}
#endif
