#if Collector
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Tally
@testable import TallyCollector
import Testing

/// Segment's HTTP tracking API as real clients send it, through the routes (no sockets).
@Suite("Ingest: Segment's tracking API")
struct SegmentIngestTests {
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aBatchOfEveryTypeIsStoredInOrderAndAcknowledged() async throws {
        try await RouterHarness.run { collector in
            let body = batchJSON([
                trackJSON("Order Completed", properties: #"{"total":12.5,"items":[1,2]}"#),
                #"{"type":"screen","name":"Home","anonymousId":"a1","properties":{"tab":"new"}}"#,
                #"{"type":"page","name":"Pricing","anonymousId":"a1"}"#,
                #"{"type":"identify","userId":"u1","traits":{"plan":"pro"}}"#,
                #"{"type":"group","userId":"u1","groupId":"g1","traits":{"seats":5}}"#,
                #"{"type":"alias","userId":"u2","previousId":"u1"}"#,
            ])
            let (status, json) = try await collector.post("/v1/batch", body)
            #expect(status == .ok)
            #expect(json == ["success": true])
            let events = try await collector.events()
            #expect(events.map { $0["type"] } == ["track", "screen", "page", "identify", "group", "alias"])
            #expect(events.map { $0["kind"] } == ["track", "screen", "screen", "identify", "group", "alias"])
            #expect(events.map { $0["name"] } == ["Order Completed", "Home", "Pricing", "", "", ""])
            #expect(events[0]["properties"] == ["total": 12.5, "items": [1, 2]])
            #expect(events[3]["properties"] == ["plan": "pro"])
            #expect(events[4]["group_id"] == "g1")
            #expect(events[5]["user_id"] == "u2")
            #expect(events[5]["previous_id"] == "u1")
            #expect(events.map { $0["id"]?.intValue } == [1, 2, 3, 4, 5, 6])
            #expect(events.allSatisfy { $0["source"] == "segment" && $0["session"] == "" })
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test(arguments: ["track", "screen", "page", "identify", "group", "alias"])
    func eachSingleCallRouteStoresItsType(_ type: String) async throws {
        try await RouterHarness.run { collector in
            let body: String
            switch type {
            case "track": body = #"{"event":"Signed Up","userId":"u1"}"#
            case "group": body = #"{"groupId":"g1","userId":"u1"}"#
            case "alias": body = #"{"previousId":"u0","userId":"u1"}"#
            default: body = #"{"name":"Home","userId":"u1"}"#
            }
            let (status, json) = try await collector.post("/v1/\(type)", body)
            #expect(status == .ok)
            #expect(json == ["success": true])
            #expect(try await collector.events().map { $0["type"] } == [.string(type)])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test(arguments: [
        ("/v1/b", "batch"), ("/v1/t", "track"), ("/v1/p", "page"), ("/v1/s", "screen"), ("/v1/i", "identify"),
    ])
    func theShortPathsOfNewerLibrariesAreAccepted(_ path: String, _ type: String) async throws {
        let body = type == "batch" ? batchJSON([trackJSON("A")]) : #"{"event":"A","name":"A","userId":"u1"}"#
        let stored: PropertyValue = .string(type == "batch" ? "track" : type)
        try await RouterHarness.run { (collector: RouterHarness) async throws in
            #expect(try await collector.post(path, body).status == .ok)
            #expect(try await collector.events().map { $0["type"] } == [stored])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func theWriteKeyIsReadFromBasicAuthOrTheBodyOrIsAbsent() async throws {
        try await RouterHarness.run { collector in
            var basic = HTTPFields()
            basic[.authorization] = "Basic " + Data("key-from-auth:".utf8).base64EncodedString()
            try await collector.post("/v1/track", #"{"event":"A","userId":"u1"}"#, headers: basic)
            try await collector.post("/v1/batch", batchJSON([trackJSON("B")], extra: #","writeKey":"key-from-body""#))
            try await collector.post("/v1/track", #"{"event":"C","userId":"u1","writeKey":"key-in-message"}"#)
            try await collector.post("/v1/track", #"{"event":"D","userId":"u1"}"#)
            let keys = try await collector.events().map { $0["write_key"] }
            #expect(keys == ["key-from-auth", "key-from-body", "key-in-message", .null])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aGzippedBodyIsStored() async throws {
        try await RouterHarness.run { collector in
            var headers = HTTPFields()
            headers[.contentEncoding] = "gzip"
            let status = try await collector.send(
                .post, "/v1/batch", body: try gzip(batchJSON([trackJSON("Zipped")])), headers: headers
            ).status
            #expect(status == .ok)
            #expect(try await collector.events().map { $0["name"] } == ["Zipped"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func propertiesAndContextAreKeptAsSentEscapesIncluded() async throws {
        try await RouterHarness.run { collector in
            let body =
                #"{"event":"Café","userId":"u1","properties": {"name" : "caf\u00e9", "quote": "\"hi\"", "n": 1.50},"context":{"app":{"name":"x"}}}"#
            #expect(try await collector.post("/v1/track", body).status == .ok)
            let event = try #require(try await collector.events().first)
            #expect(event["name"] == "Café")
            #expect(event["properties"] == ["name": "café", "quote": "\"hi\"", "n": 1.5])
            #expect(event["context"] == ["app": ["name": "x"]])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aNullAnonymousIdIsFineBesideAUserId() async throws {
        try await RouterHarness.run { collector in
            let (status, _) = try await collector.post("/v1/track", #"{"event":"A","userId":"u1","anonymousId":null}"#)
            #expect(status == .ok)
            let event = try #require(try await collector.events().first)
            #expect(event["anonymous_id"] == .null)
            #expect(event["user_id"] == "u1")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func traitsAreReadAtTheTopLevelOrFromContext() async throws {
        try await RouterHarness.run { collector in
            try await collector.post("/v1/identify", #"{"userId":"u1","traits":{"plan":"pro"}}"#)
            try await collector.post("/v1/identify", #"{"userId":"u2","context":{"traits":{"plan":"team"}}}"#)
            try await collector.post("/v1/group", #"{"userId":"u2","groupId":"g","context":{"traits":{"seats":3}}}"#)
            let properties = try await collector.events().map { $0["properties"] }
            #expect(properties == [["plan": "pro"], ["plan": "team"], ["seats": 3]])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aSessionComesFromTheHeaderOrTheContextWhichWins() async throws {
        try await RouterHarness.run { collector in
            var header = HTTPFields()
            header[CollectorRoutes.sessionHeader] = "from-header"
            try await collector.post("/v1/batch", batchJSON([trackJSON("A")]), headers: header)
            try await collector.post(
                "/v1/batch", batchJSON([trackJSON("B", extra: #","context":{"tally_session":"from-context"}"#)]),
                headers: header)
            try await collector.post("/v1/batch", batchJSON([trackJSON("C")]))
            #expect(try await collector.events().map { $0["session"] } == ["from-header", "from-context", ""])
            #expect(try await collector.events("session=from-context").map { $0["name"] } == ["B"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aRetriedMessageIdIsStoredOnceAndStillAcknowledged() async throws {
        try await RouterHarness.run { collector in
            let batch = batchJSON([trackJSON("A", messageId: "m-1"), trackJSON("B", messageId: "m-2")])
            #expect(try await collector.post("/v1/batch", batch).status == .ok)
            #expect(try await collector.post("/v1/batch", batch).status == .ok)
            #expect(try await collector.events().map { $0["name"] } == ["A", "B"])
            // The same id in another session is another test's event.
            var other = HTTPFields()
            other[CollectorRoutes.sessionHeader] = "other"
            try await collector.post("/v1/batch", batch, headers: other)
            #expect(try await collector.events().count == 4)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func theBatchContextIsMergedUnderEachMessagesContext() async throws {
        try await RouterHarness.run { collector in
            let body = batchJSON(
                [trackJSON("A", extra: #","context":{"app":{"name":"mine"}}"#), trackJSON("B")],
                extra: #","context":{"library":{"name":"analytics-x"},"app":{"name":"batch"}}"#)
            try await collector.post("/v1/batch", body)
            let contexts = try await collector.events().map { $0["context"] }
            #expect(contexts[0] == ["library": ["name": "analytics-x"], "app": ["name": "mine"]])
            #expect(contexts[1] == ["library": ["name": "analytics-x"], "app": ["name": "batch"]])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func browsersOnOtherOriginsMayPost() async throws {
        try await RouterHarness.run { collector in
            var headers = HTTPFields()
            headers[.origin] = "http://localhost:3000"
            headers[.accessControlRequestMethod] = "POST"
            let preflight = try await collector.client.execute(uri: "/v1/batch", method: .options, headers: headers) {
                $0
            }
            #expect(preflight.status == .noContent || preflight.status == .ok)
            #expect(preflight.headers[.accessControlAllowOrigin] == "*")
        }
    }
}

#endif
