#if Collector
import Foundation
import Hummingbird
import Tally
@testable import TallyCollector
import TallyPlan
import Testing

/// Reading for tests and tools: filters, paging, deletion, violations and coverage.
@Suite("Read API")
struct ReadAPITests {
    static let plan: TrackingPlan = {
        let text = """
            version: 1
            events:
              - name: Order Completed
                description: An order was paid.
                properties:
                  total: { type: number, minimum: 0, required: true }
                  currency: { enum: [EUR, USD] }
              - name: Home
                kind: screen
                description: The home screen.
              - name: Never Sent
                description: Planned, never sent.
            """
        return PlanLoader.load(text: text, file: "plan.yaml").plan!
    }()

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func filtersSelectByNameKindTypeSessionAndAfter() async throws {
        try await RouterHarness.run { collector in
            var header = HTTPFields()
            header[CollectorRoutes.sessionHeader] = "s1"
            try await collector.post(
                "/v1/batch",
                batchJSON([
                    trackJSON("A"), #"{"type":"screen","name":"Home","userId":"u"}"#,
                    #"{"type":"page","name":"Home","userId":"u"}"#,
                ]), headers: header)
            try await collector.post("/v1/batch", batchJSON([trackJSON("A"), trackJSON("B")]))
            #expect(try await collector.events("name=A").map { $0["id"] } == [1, 4])
            #expect(try await collector.events("kind=screen").map { $0["type"] } == ["screen", "page"])
            #expect(try await collector.events("type=page").map { $0["id"] } == [3])
            #expect(try await collector.events("session=s1").count == 3)
            #expect(try await collector.events("session=").map { $0["name"] } == ["A", "B"])
            #expect(try await collector.events("after=3").map { $0["id"] } == [4, 5])
            #expect(try await collector.events("name=A&session=s1").map { $0["id"] } == [1])
            #expect(try await collector.events("name=Order%20Completed").isEmpty)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func sinceSelectsByTheTimeOfArrival() async throws {
        try await RouterHarness.run { collector in
            try await collector.post("/v1/track", #"{"event":"A","userId":"u"}"#)
            let received = try #require(try await collector.events().first?["received_at"]?.stringValue)
            #expect(try await collector.events("since=\(received)").count == 1)
            #expect(try await collector.events("since=2999-01-01T00:00:00Z").isEmpty)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aLimitPagesThroughWithMore() async throws {
        try await RouterHarness.run { collector in
            try await collector.post("/v1/batch", batchJSON((1...5).map { trackJSON("E\($0)") }))
            let (_, first) = try await collector.send(.get, "/tally/events?limit=2")
            #expect(first["events"]?.arrayValue?.compactMap { $0["id"] } == [1, 2])
            #expect(first["more"] == true)
            let (_, last) = try await collector.send(.get, "/tally/events?limit=3&after=2")
            #expect(last["events"]?.arrayValue?.compactMap { $0["id"] } == [3, 4, 5])
            #expect(last["more"] == false)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func deletingASessionLeavesTheOthers() async throws {
        try await RouterHarness.run { collector in
            for session in ["s1", "s2"] {
                var header = HTTPFields()
                header[CollectorRoutes.sessionHeader] = session
                try await collector.post("/v1/batch", batchJSON([trackJSON("A"), trackJSON("B")]), headers: header)
            }
            let (status, json) = try await collector.send(.delete, "/tally/events?session=s1")
            #expect(status == .ok)
            #expect(json == ["deleted": 2])
            #expect(try await collector.events().map { $0["session"] } == ["s2", "s2"])
            #expect(try await collector.send(.delete, "/tally/events").json == ["deleted": 2])
            #expect(try await collector.events().isEmpty)
            // Ids are never reused, so a reader's cursor stays valid.
            try await collector.post("/v1/track", #"{"event":"C","userId":"u"}"#)
            #expect(try await collector.events().map { $0["id"] } == [5])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func withAPlanEveryEventCarriesItsViolations() async throws {
        try await RouterHarness.run(plan: Self.plan) { collector in
            try await collector.post(
                "/v1/batch",
                batchJSON([
                    trackJSON("Order Completed", properties: #"{"total":12.5,"currency":"EUR"}"#),
                    trackJSON("Order Completed", properties: #"{"total":-1,"currency":"GBP"}"#),
                    trackJSON("Debug Tapped"),
                ]))
            let violations = try await collector.events().map { $0["violations"]?.arrayValue ?? [] }
            #expect(violations[0].isEmpty)
            #expect(violations[1].compactMap { $0["path"] } == ["/properties/currency", "/properties/total"])
            #expect(violations[1].compactMap { $0["rule"] } == [#"enum: ["EUR","USD"]"#, "minimum: 0"])
            #expect(violations[1].first?["message"] == #""GBP" is not in enum: ["EUR","USD"]"#)
            #expect(violations[2].compactMap { $0["kind"] } == ["unknownEvent"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func withoutAPlanEventsHaveNoViolationsMemberAndCoverageIs404() async throws {
        try await RouterHarness.run { collector in
            try await collector.post("/v1/track", #"{"event":"A","userId":"u"}"#)
            #expect(try await collector.events().first?["violations"] == nil)
            let (status, json) = try await collector.send(.get, "/tally/coverage")
            #expect(status == .notFound)
            #expect(json["code"] == "no_plan")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func coverageListsWhatWasSeenAndWhatWasNot() async throws {
        try await RouterHarness.run(plan: Self.plan) { collector in
            try await collector.post(
                "/v1/batch",
                batchJSON([
                    trackJSON("Order Completed", properties: #"{"total":1,"currency":"EUR"}"#),
                    trackJSON("Order Completed", properties: #"{"total":2}"#),
                    trackJSON("Debug Tapped"),
                ]))
            let (status, json) = try await collector.send(.get, "/tally/coverage")
            #expect(status == .ok)
            #expect(json["events"] == ["seen": 1, "planned": 3])
            #expect(json["enum_values"] == ["seen": 1, "planned": 2])
            let planned = json["planned"]?.arrayValue ?? []
            #expect(planned.compactMap { $0["name"] } == ["Never Sent", "Order Completed", "Home"])
            #expect(planned.compactMap { $0["count"] } == [0, 2, 0])
            #expect(json["unplanned"] == [["kind": "track", "name": "Debug Tapped", "count": 1]])
            #expect(json["summary"]?.stringValue?.hasPrefix("Plan coverage: 1/3 events") == true)
            // By session: nothing was tagged.
            let (_, tagged) = try await collector.send(.get, "/tally/coverage?session=s1")
            #expect(tagged["events"] == ["seen": 0, "planned": 3])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func statusCountsEventsWaitsAndViewers() async throws {
        try await RouterHarness.run(plan: Self.plan) { collector in
            try await collector.post("/v1/batch", batchJSON([trackJSON("A"), trackJSON("B")]))
            let (_, json) = try await collector.send(.get, "/tally/status")
            #expect(json == ["events": 2, "last_id": 2, "plan": ["events": 3], "waiting": 0, "viewers": 0])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func tallyRecordsAreStoredWithTheirEnvelope() async throws {
        try await RouterHarness.run { collector in
            let envelope = Envelope(
                event: Event("login_tapped", ["action": "tap"]), messageId: MessageID(prefix: 7, sequence: 1),
                timestamp: Date(timeIntervalSince1970: 1_800_000_000), userId: "u1", anonymousId: "a1",
                context: ["app_version": "2.0"])
            let alias = Envelope(
                event: .alias("u2"), messageId: MessageID(prefix: 7, sequence: 2), timestamp: Date(), userId: "u1",
                anonymousId: "a1")
            let lines = Record(envelope: envelope, source: "app").line + Record(envelope: alias, source: "app").line
            var header = HTTPFields()
            header[CollectorRoutes.sessionHeader] = "records"
            let (status, json) = try await collector.send(.post, "/tally/records", body: lines, headers: header)
            #expect(status == .ok)
            #expect(json == ["success": true])
            let events = try await collector.events()
            #expect(events.map { $0["source"] } == ["tally", "tally"])
            #expect(events[0]["name"] == "login_tapped")
            #expect(events[0]["message_id"] == .string(MessageID(prefix: 7, sequence: 1).description))
            #expect(events[0]["timestamp"] == "2027-01-15T08:00:00.000Z")
            #expect(events[0]["context"] == ["app_version": "2.0"])
            #expect(events[0]["session"] == "records")
            #expect(events[1]["user_id"] == "u2")
            #expect(events[1]["previous_id"] == "u1")
        }
    }
}
#endif
