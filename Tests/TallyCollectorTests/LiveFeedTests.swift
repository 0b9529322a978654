#if Collector
import Foundation
import Tally
@testable import TallyCollector
import Testing

/// The live page's feed: every viewer gets what its filter selects, a slow one loses the oldest and is
/// told how many.
@Suite("Live feed", .timeLimit(.minutes(1)))
struct LiveFeedTests {
    static func event(_ id: Int64, _ name: String, session: String = "") -> StoredEvent {
        StoredEvent(
            id: id, receivedAt: 0, session: session, source: .segment, type: .track, name: name, properties: "{}",
            context: "{}")
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aViewerGetsTheEventsItsFilterSelects() async throws {
        let feed = LiveFeed(capacity: 10, heartbeat: .seconds(3600), tasks: CollectorTasks(threads: 1))
        let (_, messages) = try #require(feed.subscribe(EventFilter(session: "s")))
        feed.publish([
            Self.event(1, "A", session: "s"), Self.event(2, "B", session: "other"), Self.event(3, "C", session: "s"),
        ])
        feed.close()
        var ids: [Int64] = []
        for await message in messages { if case .event(let id, _, _) = message { ids.append(id) } }
        #expect(ids == [1, 3])
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aSlowViewerLosesTheOldestAndIsToldHowMany() async throws {
        let feed = LiveFeed(capacity: 3, heartbeat: .seconds(3600), tasks: CollectorTasks(threads: 1))
        let (token, messages) = try #require(feed.subscribe(EventFilter()))
        feed.publish((1...10).map { Self.event($0, "E\($0)") })
        #expect(feed.takeSkipped(token) == 7)
        #expect(feed.takeSkipped(token) == 0)
        feed.close()
        var ids: [Int64] = []
        for await message in messages { if case .event(let id, _, _) = message { ids.append(id) } }
        #expect(ids == [8, 9, 10])
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func closingEndsEveryStreamAndRefusesNewViewers() async throws {
        let feed = LiveFeed(capacity: 3, heartbeat: .seconds(3600), tasks: CollectorTasks(threads: 1))
        let (_, messages) = try #require(feed.subscribe(EventFilter()))
        feed.close()
        for await _ in messages {}
        #expect(feed.viewerCount == 0)
        #expect(feed.subscribe(EventFilter()) == nil)
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aViewerWhoLeavesIsForgotten() async throws {
        let feed = LiveFeed(capacity: 3, heartbeat: .seconds(3600), tasks: CollectorTasks(threads: 1))
        let (token, messages) = try #require(feed.subscribe(EventFilter()))
        #expect(feed.viewerCount == 1)
        feed.remove(token)
        #expect(feed.viewerCount == 0)
        feed.publish([Self.event(1, "A")])  // nobody to send to
        for await _ in messages {}  // the stream has ended
        // A viewer whose stream is dropped is forgotten too.
        _ = feed.subscribe(EventFilter())
        #expect(feed.viewerCount == 0)
    }
}
#endif
