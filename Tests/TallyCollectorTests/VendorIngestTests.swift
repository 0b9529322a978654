#if Collector
import Foundation
import Hummingbird
import NIOCore
import Tally
@testable import TallyCollector
import Testing

/// PostHog's, Amplitude's and Mixpanel's ingestion APIs: each SDK's wire format becomes stored events with
/// the vendor as their source, answered as the vendor answers; bad input gets the 4xx each SDK drops.
@Suite("Ingest: PostHog, Amplitude, Mixpanel")
struct VendorIngestTests {
    static let json: HTTPFields = [.contentType: "application/json"]
    static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    static let postHogBatch = """
        {"api_key":"phc","batch":[
          {"event":"Order Completed","distinct_id":"u1","properties":{"total":12.5,"$lib":"posthog-ios"},
           "timestamp":"2026-11-26T10:00:00Z","uuid":"8f14e45f-ceea-167a-0000-000000000001"},
          {"event":"$identify","distinct_id":"u1","properties":{"$anon_distinct_id":"a1","$set":{"plan":"pro"}}},
          {"event":"$groupidentify","distinct_id":"u1","properties":{"$group_type":"company","$group_key":"acme","$group_set":{"seats":3}}},
          {"event":"$create_alias","distinct_id":"a1","properties":{"alias":"u1"}},
          {"event":"$screen","distinct_id":"u1","properties":{"$screen_name":"Home"}}
        ]}
        """

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test(arguments: ["/batch/", "/batch"])
    func postHogBatchBecomesEveryKind(_ path: String) async throws {
        try await RouterHarness.run { collector in
            var headers = Self.json
            headers[.contentEncoding] = "gzip"
            let (status, answer) = try await collector.send(
                .post, path, body: try gzip(Self.postHogBatch), headers: headers)
            #expect(status == .ok)
            #expect(answer == ["status": 1])
            let events = try await collector.events()
            #expect(events.map { $0["type"] } == ["track", "identify", "group", "alias", "screen"])
            #expect(Set(events.map { $0["source"] }) == ["posthog"])
            #expect(events[0]["name"] == "Order Completed")
            #expect(events[0]["properties"] == ["total": 12.5, "$lib": "posthog-ios"])
            #expect(events[0]["message_id"] == "8f14e45f-ceea-167a-0000-000000000001")
            #expect(events[0]["timestamp"] == "2026-11-26T10:00:00Z")
            #expect(events[0]["write_key"] == "phc")
            #expect(events[1]["properties"] == ["plan": "pro"])
            #expect(events[1]["anonymous_id"] == "a1")
            #expect(events[2]["group_id"] == "acme")
            #expect(events[2]["properties"] == ["seats": 3])
            #expect(events[3]["user_id"] == "u1")
            #expect(events[3]["previous_id"] == "a1")
            #expect(events[4]["name"] == "Home")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test(arguments: ["/capture/", "/e/", "/i/v0/e/"])
    func postHogCaptureTakesOneEventOrAnArray(_ path: String) async throws {
        try await RouterHarness.run { collector in
            let one = #"{"api_key":"k","event":"A","properties":{"distinct_id":"u1","tally_session":"s"}}"#
            #expect(try await collector.post(path, one, headers: Self.json).status == .ok)
            let two = #"[{"event":"B","distinct_id":"u1"},{"event":"C","distinct_id":"u1"}]"#
            #expect(try await collector.post(path, two, headers: Self.json).status == .ok)
            let events = try await collector.events()
            #expect(events.map { $0["name"] } == ["A", "B", "C"])
            #expect(events[0]["session"] == "s")
            #expect(events[0]["properties"] == [:])
            #expect(events[0]["write_key"] == "k")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test(arguments: ["/2/httpapi", "/batch"])
    func amplitudeEventsBecomeTrackIdentifyAndGroup(_ path: String) async throws {
        try await RouterHarness.run { collector in
            let body = """
                {"api_key":"amp","events":[
                  {"event_type":"Order Completed","user_id":"u1","device_id":"d1","time":1764151200000,
                   "insert_id":"i-1","event_properties":{"total":12.5,"tally_session":"s"}},
                  {"event_type":"$identify","user_id":"u1","user_properties":{"$set":{"plan":"pro"},"$setOnce":{"first":"x"}}},
                  {"event_type":"$groupidentify","groups":{"company":"acme"},"group_properties":{"$set":{"seats":3}}}
                ]}
                """
            let (status, answer) = try await collector.post(path, body, headers: Self.json)
            #expect(status == .ok)
            #expect(answer["code"] == 200)
            #expect(answer["events_ingested"] == 3)
            let events = try await collector.events()
            #expect(events.map { $0["type"] } == ["track", "identify", "group"])
            #expect(Set(events.map { $0["source"] }) == ["amplitude"])
            #expect(events[0]["properties"] == ["total": 12.5])
            #expect(events[0]["session"] == "s")
            #expect(events[0]["timestamp"] == "2025-11-26T10:00:00.000Z")
            #expect(events[0]["message_id"] == "i-1")
            #expect(events[0]["anonymous_id"] == "d1")
            #expect(events[1]["properties"] == ["plan": "pro", "first": "x"])
            #expect(events[2]["group_id"] == "acme")
        }
    }

    static func mixpanelData(_ json: String, base64: Bool = false) -> String {
        let data = base64 ? Data(json.utf8).base64EncodedString() : json
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._")
        return "data=" + data.addingPercentEncoding(withAllowedCharacters: allowed)!
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test(arguments: [false, true])
    func mixpanelTrackTakesJSONOrBase64Data(_ base64: Bool) async throws {
        try await RouterHarness.run { collector in
            let events = """
                [{"event":"Opened","properties":{"distinct_id":"u1","token":"t","time":1764151200,"$insert_id":"m1","n":1}},
                 {"event":"$create_alias","properties":{"distinct_id":"a1","alias":"u1","token":"t"}}]
                """
            let (status, answer) = try await collector.post(
                "/track/", Self.mixpanelData(events, base64: base64) + "&ip=0", headers: Self.form)
            #expect(status == .ok)
            #expect(answer == 1)
            let stored = try await collector.events()
            #expect(stored.map { $0["type"] } == ["track", "alias"])
            #expect(stored[0]["properties"] == ["n": 1])
            #expect(stored[0]["message_id"] == "m1")
            #expect(stored[0]["timestamp"] == "2025-11-26T10:00:00.000Z")
            #expect(stored[0]["write_key"] == "t")
            #expect(stored[1]["user_id"] == "u1")
            #expect(stored[1]["previous_id"] == "a1")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func mixpanelEngageGroupsAndImportAnswerAsMixpanelDoes() async throws {
        try await RouterHarness.run { collector in
            var headers = Self.form
            headers[.contentEncoding] = "gzip"
            let engage = Self.mixpanelData(#"{"$token":"t","$distinct_id":"u1","$set":{"plan":"pro"}}"#)
            let (status, answer) = try await collector.send(
                .post, "/engage?verbose=1", body: try gzip(engage), headers: headers)
            #expect(status == .ok)
            #expect(answer == ["status": 1, "error": nil])
            let group = Self.mixpanelData(
                #"{"$token":"t","$group_key":"company","$group_id":"acme","$set":{"seats":3}}"#)
            #expect(try await collector.post("/groups", group + "&verbose=1", headers: Self.form).json["status"] == 1)
            let add = Self.mixpanelData(#"{"$token":"t","$distinct_id":"u1","$add":{"logins":1}}"#)
            #expect(try await collector.post("/engage/", add, headers: Self.form).json == 1)
            let imported = #"[{"event":"Old","properties":{"distinct_id":"u1","time":1764151200000}}]"#
            let (_, importAnswer) = try await collector.post("/import", imported, headers: Self.json)
            #expect(importAnswer == ["code": 200, "num_records_imported": 1, "status": 1])
            let stored = try await collector.events()
            #expect(stored.map { $0["type"] } == ["identify", "group", "identify", "track"])
            #expect(Set(stored.map { $0["source"] }) == ["mixpanel"])
            #expect(stored[0]["properties"] == ["plan": "pro"])
            #expect(stored[1]["group_id"] == "acme")
            #expect(stored[2]["name"] == "$add")
            #expect(stored[3]["timestamp"] == "2025-11-26T10:00:00.000Z")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func vendorEventsAreCheckedAgainstThePlan() async throws {
        try await RouterHarness.run(plan: ReadAPITests.plan) { collector in
            let body =
                #"{"api_key":"k","batch":[{"event":"Order Completed","distinct_id":"u","properties":{"total":-1}}]}"#
            #expect(try await collector.post("/batch/", body, headers: Self.json).status == .ok)
            let violations = try await collector.events().first?["violations"]?.arrayValue ?? []
            #expect(violations.compactMap { $0["path"] } == ["/properties/total"])
            let (_, coverage) = try await collector.send(.get, "/tally/coverage")
            #expect(coverage["events"] == ["seen": 1, "planned": 3])
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var route: String
        var body: [UInt8]
        var headers: HTTPFields = VendorIngestTests.json
        var status: HTTPResponse.Status = .badRequest
        /// The answer, as the vendor's SDK reads it.
        var answer: @Sendable (PropertyValue) -> Bool
        var testDescription: String { label }
    }

    static let gzipped: HTTPFields = [.contentType: "application/json", .contentEncoding: "gzip"]

    static let cases: [Case] = [
        Case(
            label: "PostHog: a form", route: "/batch/", body: Array("data=x".utf8), headers: form,
            status: .unsupportedMediaType,
            answer: { $0["code"] == "unsupported_media_type" && $0["type"] == "validation_error" }),
        Case(
            label: "PostHog: broken gzip", route: "/batch/", body: Array("not gzip".utf8), headers: gzipped,
            answer: { $0["code"] == "invalid_gzip" && $0["detail"]?.stringValue?.contains("gzip") == true }),
        Case(
            label: "PostHog: no distinct_id", route: "/batch/", body: Array(#"{"batch":[{"event":"A"}]}"#.utf8),
            answer: { $0["detail"] == "batch[0]: distinct_id is required" }),
        Case(
            label: "PostHog: over 20 MB", route: "/batch/",
            body: Array(#"{"batch":[{"event":"A","distinct_id":"u","properties":{"x":""#.utf8)
                + [UInt8](repeating: UInt8(ascii: "x"), count: 21 * 1024 * 1024) + Array(#""}}]}"#.utf8),
            answer: { $0["code"] == "too_large" }),
        Case(
            label: "Amplitude: a form", route: "/2/httpapi", body: Array("data=x".utf8), headers: form,
            status: .unsupportedMediaType, answer: { $0["code"] == 415 && $0["missing_field"] != nil }),
        Case(
            label: "Amplitude: broken gzip", route: "/2/httpapi", body: try! Array(gzip("{}").dropLast(6)),
            headers: gzipped, answer: { $0["code"] == 400 && $0["missing_field"] == "invalid_gzip" }),
        Case(
            label: "Amplitude: no api_key", route: "/2/httpapi", body: Array(#"{"events":[]}"#.utf8),
            answer: { $0["code"] == 400 && $0["error"] == "api_key is required" }),
        Case(
            label: "Amplitude: no user or device", route: "/2/httpapi",
            body: Array(#"{"api_key":"k","events":[{"event_type":"A"}]}"#.utf8),
            answer: {
                $0["error"]?.stringValue?.hasSuffix("user_id or device_id is required (one of them, not empty)") == true
            }),
        Case(
            label: "Amplitude: a time that is not a number", route: "/2/httpapi",
            body: Array(#"{"api_key":"k","events":[{"event_type":"A","user_id":"u","time":"noon"}]}"#.utf8),
            answer: {
                $0["code"] == 400
                    && $0["error"]?.stringValue?.contains("time must be a number of milliseconds") == true
            }),
        Case(
            label: "Amplitude: a time after year 9999 (found by FuzzIngest)", route: "/2/httpapi",
            body: Array(#"{"api_key":"k","events":[{"event_type":"A","user_id":"u","time":1e300}]}"#.utf8),
            answer: {
                $0["code"] == 400 && $0["missing_field"] == "out_of_range"
                    && $0["error"]?.stringValue?.hasSuffix(
                        "time must be a time from year 0000 to 9999 in milliseconds since 1970, not 1e+300") == true
            }),
        Case(
            label: "Amplitude: over 1 MB", route: "/2/httpapi",
            body: Array(#"{"api_key":"k","events":[{"event_type":"A","user_id":"u","event_properties":{"x":""#.utf8)
                + [UInt8](repeating: UInt8(ascii: "x"), count: 1024 * 1024) + Array(#""}}]}"#.utf8),
            answer: { $0["code"] == 400 && $0["missing_field"] == "too_large" }),
        Case(
            label: "Mixpanel: text/csv", route: "/track", body: Array("data=x".utf8),
            headers: [.contentType: "text/csv"], status: .unsupportedMediaType, answer: { $0 == 0 }),
        Case(
            label: "Mixpanel: broken base64", route: "/track?verbose=1", body: Array("data=%25%25%25".utf8),
            headers: form, answer: { $0["status"] == 0 && $0["error"]?.stringValue?.contains("base64") == true }),
        Case(
            label: "Mixpanel: broken gzip", route: "/track", body: Array("data=x".utf8),
            headers: [.contentType: "application/x-www-form-urlencoded", .contentEncoding: "gzip"],
            answer: { $0 == 0 }),
        Case(
            label: "Mixpanel: no data", route: "/engage", body: Array("verbose=1".utf8), headers: form,
            answer: { $0["error"]?.stringValue?.hasPrefix("data is required") == true }),
        Case(
            label: "Mixpanel: a time that is not a number", route: "/track?verbose=1",
            body: Array(mixpanelData(#"{"event":"A","properties":{"distinct_id":"u","time":"noon"}}"#).utf8),
            headers: form,
            answer: {
                $0["status"] == 0 && $0["error"]?.stringValue?.contains("properties.time must be a number") == true
            }),
        Case(
            label: "Mixpanel: a time before year 0000", route: "/track?verbose=1",
            body: Array(mixpanelData(#"{"event":"A","properties":{"distinct_id":"u","time":-1e20}}"#).utf8),
            headers: form,
            answer: {
                $0["status"] == 0
                    && $0["error"]?.stringValue?.contains(
                        "properties.time must be a time from year 0000 to 9999 in milliseconds since 1970") == true
            }),
        Case(
            label: "Mixpanel: a profile's $time after year 9999", route: "/engage?verbose=1",
            body: Array(mixpanelData(#"{"$distinct_id":"u","$time":9e99,"$set":{"plan":"pro"}}"#).utf8),
            headers: form,
            answer: {
                $0["status"] == 0 && $0["error"]?.stringValue?.contains("$time must be a time from year 0000") == true
            }),
        Case(
            label: "Mixpanel: a track without event", route: "/track",
            body: Array(mixpanelData(#"{"properties":{"distinct_id":"u"}}"#).utf8), headers: form,
            answer: { $0 == 0 }),
    ]

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test(arguments: cases)
    func badInputIsRefusedInTheVendorsShapeCountedAndNotStored(_ input: Case) async throws {
        try await RouterHarness.run { collector in
            let (status, answer) = try await collector.send(
                .post, input.route, body: input.body, headers: input.headers)
            #expect(status == input.status)
            #expect(input.answer(answer), "\(answer)")
            #expect(try await collector.events().isEmpty)
            let path = String(input.route.prefix { $0 != "?" })
            #expect(collector.warnings.messages.count == 1)
            #expect(
                collector.warnings.messages.first?.hasPrefix("warning: Refused POST \(path) with \(input.status.code)")
                    == true)
            let (_, state) = try await collector.send(.get, "/tally/status")
            #expect(state["refused"]?["requests"] == 1)
        }
    }
}
#endif
