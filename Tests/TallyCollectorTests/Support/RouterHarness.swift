#if Collector
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Tally
@testable import TallyCollector
import TallyPlan
import Testing

/// The collector's routes, driven without sockets (HummingbirdTesting's router framework).
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
struct RouterHarness {
    let routes: CollectorRoutes
    let client: any TestClientProtocol

    /// Runs `body` against a fresh in-memory collector's routes.
    static func run(
        plan: TrackingPlan? = nil, _ body: @escaping @Sendable (RouterHarness) async throws -> Void
    ) async throws {
        let routes = try CollectorRoutes(configuration: Collector.Configuration(plan: plan))
        let application = Application(router: routes.router())
        try await application.test(.router) { client in
            try await body(RouterHarness(routes: routes, client: client))
        }
    }

    /// Sends a request and returns the status and the body as JSON (`.null` when the body is empty or
    /// not JSON).
    @discardableResult
    func send(
        _ method: HTTPRequest.Method, _ uri: String, body: [UInt8]? = nil, headers: HTTPFields = [:]
    ) async throws -> (status: HTTPResponse.Status, json: PropertyValue) {
        try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) }) {
            response in
            let bytes = Array(response.body.readableBytesView)
            return (response.status, (try? PropertyValue(jsonBytes: bytes)) ?? .null)
        }
    }

    /// Posts JSON text.
    @discardableResult
    func post(_ uri: String, _ json: String, headers: HTTPFields = [:]) async throws -> (
        status: HTTPResponse.Status, json: PropertyValue
    ) {
        try await send(.post, uri, body: Array(json.utf8), headers: headers)
    }

    /// The stored events a read selects.
    func events(_ query: String = "") async throws -> [[String: PropertyValue]] {
        let (status, json) = try await send(.get, "/tally/events" + (query.isEmpty ? "" : "?" + query))
        #expect(status == .ok)
        return json.objectValue?["events"]?.arrayValue?.compactMap(\.objectValue) ?? []
    }
}

extension PropertyValue {
    /// A member of an object, for short expectations: `json["code"]`.
    subscript(key: String) -> PropertyValue? { objectValue?[key] }
}

/// A Segment track message as JSON text.
func trackJSON(
    _ event: String, properties: String = "{}", userId: String = "u1", messageId: String? = nil, extra: String = ""
) -> String {
    #"{"type":"track","event":"\#(event)","userId":"\#(userId)","properties":\#(properties)"#
        + (messageId.map { #","messageId":"\#($0)""# } ?? "") + extra + "}"
}

/// A batch body of the given messages.
func batchJSON(_ messages: [String], extra: String = "") -> String {
    #"{"batch":[\#(messages.joined(separator: ","))]\#(extra)}"#
}
#endif
