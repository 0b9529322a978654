#if Collector
import Foundation
import Hummingbird
import NIOCore
import Tally
@testable import TallyCollector
import Testing

/// Every kind of bad input gets a 4xx with a JSON error that says what was wrong, nothing of it is
/// stored, and the collector keeps serving.
@Suite("Ingest: bad input")
struct BadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var route = "/v1/batch"
        var body: [UInt8]
        var gzipped = false
        var encoding: String?
        var status: HTTPResponse.Status
        var code: String
        var message: String

        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(
            label: "not JSON", body: Array("hello".utf8), status: .badRequest, code: "invalid_json",
            message: "The body is not valid JSON: Unexpected character 'h' at byte 0"),
        Case(
            label: "truncated JSON", body: Array(batchJSON([trackJSON("A")]).utf8.dropLast(3)), status: .badRequest,
            code: "invalid_json", message: "The body is not valid JSON: Unexpected end of input"),
        Case(
            label: "empty body", body: [], status: .badRequest, code: "invalid_json", message: "Unexpected end of input"
        ),
        Case(
            label: "not gzip", body: Array("{\"batch\":[]}".utf8), gzipped: true, status: .badRequest,
            code: "invalid_gzip", message: "marked Content-Encoding: gzip but is not valid gzip"),
        Case(
            label: "truncated gzip", body: Array(try! gzip(batchJSON([trackJSON("A"), trackJSON("B")])).dropLast(12)),
            gzipped: true, status: .badRequest, code: "invalid_gzip", message: "not valid gzip"),
        Case(
            label: "a gzip bomb", body: try! gzip(String(repeating: " ", count: 4_000_000)), gzipped: true,
            status: .contentTooLarge, code: "too_large",
            message: "over the limit of 500 KB (512000 bytes) once decompressed"),
        Case(
            label: "brotli", body: Array("{}".utf8), encoding: "br", status: .unsupportedMediaType,
            code: "unsupported_encoding", message: "Content-Encoding must be gzip or absent"),
        Case(
            label: "a batch that is not an array", body: Array(#"{"batch":{}}"#.utf8), status: .badRequest,
            code: "wrong_type", message: "batch must be an array, not object"),
        Case(
            label: "no batch", body: Array(#"{"messages":[]}"#.utf8), status: .badRequest, code: "missing_field",
            message: "batch is required"),
        Case(
            label: "a body that is an array", body: Array("[]".utf8), status: .badRequest, code: "wrong_type",
            message: "The body must be a JSON object with a batch array, not array"),
        Case(
            label: "no user or anonymous id", body: Array(batchJSON([#"{"type":"track","event":"A"}"#]).utf8),
            status: .badRequest, code: "missing_field", message: "batch[0]: userId or anonymousId is required"),
        Case(
            label: "a track without event",
            body: Array(batchJSON([trackJSON("A"), #"{"type":"track","userId":"u"}"#]).utf8),
            status: .badRequest, code: "missing_field", message: "batch[1]: event is required"),
        Case(
            label: "a group without groupId", route: "/v1/group", body: Array(#"{"userId":"u"}"#.utf8),
            status: .badRequest, code: "missing_field", message: "groupId is required"),
        Case(
            label: "an alias without previousId", route: "/v1/alias", body: Array(#"{"userId":"u"}"#.utf8),
            status: .badRequest, code: "missing_field", message: "previousId is required"),
        Case(
            label: "an unknown type", body: Array(batchJSON([#"{"type":"click","userId":"u"}"#]).utf8),
            status: .badRequest, code: "bad_type",
            message: #"batch[0]: type must be one of track, screen, page, identify, group, alias, not "click""#),
        Case(
            label: "a numeric event name", body: Array(batchJSON([#"{"type":"track","event":5,"userId":"u"}"#]).utf8),
            status: .badRequest, code: "wrong_type", message: "batch[0]: event must be a string, not integer"),
        Case(
            label: "properties that are a string", route: "/v1/track",
            body: Array(#"{"event":"A","userId":"u","properties":"x"}"#.utf8), status: .badRequest, code: "wrong_type",
            message: "properties must be an object, not string"),
        Case(
            label: "a numeric user id", route: "/v1/track", body: Array(#"{"event":"A","userId":42}"#.utf8),
            status: .badRequest, code: "wrong_type", message: "userId must be a string, not integer"),
        Case(
            label: "a message that is not an object", body: Array(#"{"batch":[1]}"#.utf8), status: .badRequest,
            code: "wrong_type", message: "batch[0] must be a JSON object, not integer"),
        Case(
            label: "a session that is not a string", route: "/v1/track",
            body: Array(#"{"event":"A","userId":"u","context":{"tally_session":7}}"#.utf8), status: .badRequest,
            code: "wrong_type", message: "context.tally_session must be a string"),
        Case(
            label: "deep nesting", route: "/v1/track",
            body: Array(
                (#"{"event":"A","userId":"u","properties":{"x":"# + String(repeating: "[", count: 10_000)).utf8),
            status: .badRequest, code: "invalid_json", message: "Nesting deeper than 64 levels"),
        Case(
            label: "10,000 properties",
            body: Array(
                batchJSON([
                    trackJSON("A", properties: "{" + (0..<10_000).map { #""p\#($0)":1"# }.joined(separator: ",") + "}")
                ]).utf8),
            status: .contentTooLarge, code: "too_large",
            message: "batch[0] is 98947 bytes; the limit for one event is 32 KB (32768 bytes)"),
        Case(
            label: "one event over 32 KB in a batch",
            body: Array(
                batchJSON([
                    trackJSON("A"),
                    trackJSON("B", properties: #"{"blob":"\#(String(repeating: "x", count: 33_000))"}"#),
                ]).utf8),
            status: .contentTooLarge, code: "too_large", message: "batch[1] is 33067 bytes"),
        Case(
            label: "a single call over 32 KB", route: "/v1/track",
            body: Array(trackJSON("B", properties: #"{"blob":"\#(String(repeating: "x", count: 33_000))"}"#).utf8),
            status: .contentTooLarge, code: "too_large", message: "over the limit of 32 KB (32768 bytes)"),
        Case(
            label: "a batch over 500 KB",
            body: Array(
                batchJSON(
                    (0..<20).map {
                        trackJSON("E\($0)", properties: #"{"blob":"\#(String(repeating: "x", count: 30_000))"}"#)
                    }
                ).utf8),
            status: .contentTooLarge, code: "too_large", message: "over the limit of 500 KB (512000 bytes)"),
        Case(
            label: "an invalid escape in properties", route: "/v1/track",
            body: Array(#"{"event":"A","userId":"u","properties":{"path":"C:\q"}}"#.utf8), status: .badRequest,
            code: "invalid_json", message: #"The body is not valid JSON: Invalid escape '\q' at byte"#),
        Case(
            label: "a record line that is not a record", route: "/tally/records",
            body: Array(#"{"tally_record":1,"kind":"track","name":"ok"}\#n{"kind":"track"}\#n"#.utf8),
            status: .badRequest,
            code: "invalid_record", message: #"Line 2 is not a Tally record: Missing "tally_record" version"#),
        Case(
            label: "a record of another version", route: "/tally/records",
            body: Array(#"{"tally_record":9,"kind":"track","name":"x"}"#.utf8), status: .badRequest,
            code: "invalid_record", message: "Record version 9 is not supported"),
        Case(
            label: "an unknown route", route: "/v2/batch", body: Array("{}".utf8), status: .notFound, code: "not_found",
            message: "No route for POST /v2/batch"),
    ]

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test(arguments: cases)
    func isRefusedWithAClearJSONErrorAndNothingIsStored(_ input: Case) async throws {
        try await RouterHarness.run { collector in
            var headers = HTTPFields()
            if input.gzipped { headers[.contentEncoding] = "gzip" }
            if let encoding = input.encoding { headers[.contentEncoding] = encoding }
            let (status, json) = try await collector.send(.post, input.route, body: input.body, headers: headers)
            #expect(status == input.status)
            #expect(json["success"] == false)
            #expect(json["code"] == .string(input.code))
            let message = json["message"]?.stringValue ?? ""
            #expect(message.contains(input.message), "\(message)")
            #expect(try await collector.events().isEmpty)
            // The collector keeps serving.
            #expect(try await collector.post("/v1/batch", batchJSON([trackJSON("after")])).status == .ok)
            #expect(try await collector.events().map { $0["name"] } == ["after"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test(arguments: [
        ("kind=click", "Query parameter kind: must be one of track, screen, identify, group, alias"),
        ("type=click", "Query parameter type: must be one of track, screen, page, identify, group, alias"),
        ("since=yesterday", "Query parameter since: must be an ISO 8601 date-time"),
        ("after=-1", "Query parameter after: must be an event id"),
        ("limit=0", #"Query parameter limit: must be a whole number from 1 to 10000, not "0""#),
        ("limit=many", #"Query parameter limit: must be a whole number from 1 to 10000, not "many""#),
    ])
    func aBadReadParameterIsA400(_ query: String, _ message: String) async throws {
        try await RouterHarness.run { collector in
            let (status, json) = try await collector.send(.get, "/tally/events?\(query)")
            #expect(status == .badRequest)
            #expect(json["code"] == "bad_parameter")
            #expect(json["message"]?.stringValue?.hasPrefix(message) == true, "\(json)")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test(arguments: ["count=0", "count=10001", "timeout=-5", "timeout=600001", "timeout=soon"])
    func aBadWaitParameterIsA400(_ query: String) async throws {
        try await RouterHarness.run { collector in
            let (status, json) = try await collector.send(.get, "/tally/events/wait?\(query)")
            #expect(status == .badRequest)
            #expect(json["code"] == "bad_parameter")
        }
    }
}
#endif
