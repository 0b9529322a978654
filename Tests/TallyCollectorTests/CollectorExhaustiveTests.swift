#if Collector
import Foundation
import Tally
@testable import TallyCollector
import TallyTesting
import Testing

/// Exhaustive mode with a collector the test runs itself, written as the articles write it: the collector
/// stops at the end of the test's body, before the check's last read.
@Suite("CollectorReader in exhaustive mode", .timeLimit(.minutes(1)))
struct CollectorExhaustiveTests {
    /// The article's test under `.exhaustive`. Before stopping a collector let its readers take a last
    /// read, the check read a stopped collector and failed the test: "Exhaustive mode could not read what
    /// the CollectorReader created at ... recorded: Cannot reach the collector at http://127.0.0.1:...".
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test(.exhaustive) func aTestThatStopsItsCollectorPassesWhenEverythingIsAccountedFor() async throws {
        let collector = try await Collector.start()
        let events = CollectorReader(url: collector.url)
        try await CollectorReaderTests.send(collector, [trackJSON("Order Completed")], session: events.session)
        await events.waitForEvent(.named("Order Completed"))
        events.expectTracked(.named("Order Completed"))
        await collector.stop()
    }

    /// An event the collector stored but the test never read still fails the test, though the collector
    /// stopped first: it is read as the collector stops.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func anEventStoredBeforeTheCollectorStopsIsStillChecked() async throws {
        let line = #line + 4
        let issues = await issues {
            try? await withExhaustiveCheck {
                let collector = try await Collector.start()
                let events = CollectorReader(url: collector.url)
                try await CollectorReaderTests.send(collector, [trackJSON("paid")], session: events.session)
                await events.waitForEvent(.named("paid"))
                events.expectTracked(.named("paid"))
                // Stored after the test's last read: only the read at stop sees it.
                try await CollectorReaderTests.send(collector, [trackJSON("refunded")], session: events.session)
                await collector.stop()
            }
        }
        #expect(issues.count == 1)
        #expect(issues.first?.message.contains("1 event recorded by the CollectorReader") == true)
        #expect(issues.first?.message.contains("refunded") == true)
        #expect(issues.first?.line == line)
    }

    /// With the collector still running when the test ends (one shared by several tests, or `tally
    /// collect`), the async check reads it itself.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func theAsyncCheckReadsACollectorThatStillRuns() async throws {
        try await withLiveCollector { collector in
            let issues = await issues {
                await withExhaustiveCheck {
                    let events = CollectorReader(url: collector.url)
                    try? await CollectorReaderTests.send(collector, [trackJSON("unread")], session: events.session)
                }
            }
            #expect(issues.count == 1)
            #expect(issues.first?.message.contains("unread") == true)
        }
    }

    /// The synchronous check cannot read a collector without blocking a thread: it says so instead of
    /// passing events it never saw.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func theSynchronousCheckSaysItCannotReadARunningCollector() async throws {
        try await withLiveCollector { collector in
            let issues = issues {
                withExhaustiveCheck {
                    _ = CollectorReader(url: collector.url)
                }
            }
            #expect(issues.count == 1)
            #expect(
                issues.first?.message.contains("the synchronous withExhaustiveCheck cannot read a collector") == true)
        }
    }
}
#endif
