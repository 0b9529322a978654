#if Collector
import Foundation
import Hummingbird
import Tally
@testable import TallyCollector
import Testing

/// `GET /tally/events/wait`: a long-poll answered by the insert that brings the events.
@Suite("Waiting", .timeLimit(.minutes(1)))
struct WaitTests {
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func answersAtOnceWhenEnoughEventsAreStored() async throws {
        try await RouterHarness.run { collector in
            try await collector.post("/v1/batch", batchJSON([trackJSON("A"), trackJSON("B"), trackJSON("A")]))
            let (status, json) = try await collector.send(.get, "/tally/events/wait?name=A&count=2&timeout=600000")
            #expect(status == .ok)
            #expect(json["events"]?.arrayValue?.compactMap { $0["id"] } == [1, 3])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func isWokenByTheInsertThatBringsTheEvent() async throws {
        try await RouterHarness.run { collector in
            try await collector.post("/v1/track", #"{"event":"Before","userId":"u"}"#)
            let waiting = Task { try await collector.send(.get, "/tally/events/wait?name=Paid&timeout=600000") }
            await collector.routes.waits.waitForWaiters(1)
            try await collector.post("/v1/batch", batchJSON([trackJSON("Other"), trackJSON("Paid")]))
            let (status, json) = try await waiting.value
            #expect(status == .ok)
            #expect(json["events"]?.arrayValue?.compactMap { $0["name"] } == ["Paid"])
            #expect(collector.routes.waits.count == 0)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func countsEventsAcrossInserts() async throws {
        try await RouterHarness.run { collector in
            let waiting = Task {
                try await collector.send(.get, "/tally/events/wait?kind=track&count=3&timeout=600000")
            }
            await collector.routes.waits.waitForWaiters(1)
            try await collector.post("/v1/track", #"{"event":"A","userId":"u"}"#)
            try await collector.post("/v1/screen", #"{"name":"S","userId":"u"}"#)
            try await collector.post("/v1/batch", batchJSON([trackJSON("B"), trackJSON("C")]))
            let (status, json) = try await waiting.value
            #expect(status == .ok)
            #expect(json["events"]?.arrayValue?.compactMap { $0["name"] } == ["A", "B", "C"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aTimeoutAnswers408WithWhatMatched() async throws {
        try await RouterHarness.run { collector in
            try await collector.post("/v1/track", #"{"event":"A","userId":"u"}"#)
            let (status, json) = try await collector.send(.get, "/tally/events/wait?name=A&count=2&timeout=50")
            #expect(status == .requestTimeout)
            #expect(json["timed_out"] == true)
            #expect(json["code"] == "timeout")
            #expect(json["message"] == "1 of 2 matching events after 50 ms")
            #expect(json["events"]?.arrayValue?.count == 1)
            #expect(collector.routes.waits.count == 0)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aSessionsWaitIsNotWokenByAnotherSession() async throws {
        try await RouterHarness.run { collector in
            let waiting = Task { try await collector.send(.get, "/tally/events/wait?session=mine&timeout=600000") }
            await collector.routes.waits.waitForWaiters(1)
            var theirs = HTTPFields()
            theirs[CollectorRoutes.sessionHeader] = "theirs"
            try await collector.post("/v1/track", #"{"event":"Theirs","userId":"u"}"#, headers: theirs)
            var mine = HTTPFields()
            mine[CollectorRoutes.sessionHeader] = "mine"
            try await collector.post("/v1/track", #"{"event":"Mine","userId":"u"}"#, headers: mine)
            let (status, json) = try await waiting.value
            #expect(status == .ok)
            #expect(json["events"]?.arrayValue?.compactMap { $0["name"] } == ["Mine"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func afterADeletionTheWaitCountsAgain() async throws {
        try await RouterHarness.run { collector in
            var header = HTTPFields()
            header[CollectorRoutes.sessionHeader] = "s"
            try await collector.post("/v1/track", #"{"event":"Old","userId":"u"}"#, headers: header)
            let waiting = Task { try await collector.send(.get, "/tally/events/wait?session=s&count=2&timeout=600000") }
            await collector.routes.waits.waitForWaiters(1)
            try await collector.send(.delete, "/tally/events?session=s")
            try await collector.post("/v1/track", #"{"event":"New 1","userId":"u"}"#, headers: header)
            #expect(collector.routes.waits.count == 1)
            try await collector.post("/v1/track", #"{"event":"New 2","userId":"u"}"#, headers: header)
            let (status, json) = try await waiting.value
            #expect(status == .ok)
            #expect(json["events"]?.arrayValue?.compactMap { $0["name"] } == ["New 1", "New 2"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func stoppingEndsEveryWaitWith503() async throws {
        try await RouterHarness.run { collector in
            let waiting = Task { try await collector.send(.get, "/tally/events/wait?timeout=600000") }
            await collector.routes.waits.waitForWaiters(1)
            collector.routes.stopping.withLock { $0 = true }
            collector.routes.waits.close()
            let (status, json) = try await waiting.value
            #expect(status == .serviceUnavailable)
            #expect(json["code"] == "stopping")
            #expect(
                try await collector.post("/v1/track", #"{"event":"Late","userId":"u"}"#).status == .serviceUnavailable)
        }
    }
}
#endif
