#if Collector
import HTTPTypes
import Hummingbird
import NIOCore
import Tally

/// A request the collector refuses, and the JSON it answers with.
///
/// Every client mistake is a 4xx with a body that says what was wrong, in the shape Segment's own
/// libraries log: `{"success": false, "code": "invalid_json", "message": "..."}`. Clients retry 5xx for
/// hours, so only the collector's own trouble (storage failing, shutting down) is ever a 5xx.
struct APIError: Error, Sendable, Equatable {
    /// The HTTP status.
    var status: HTTPResponse.Status
    /// A stable, machine-readable code, such as `invalid_json`.
    var code: String
    /// What was wrong, for a person.
    var message: String
    /// Whose API the request was sent to: the body is shaped as that vendor's SDKs read it.
    var dialect: Dialect = .segment

    /// The error bodies of the APIs the collector speaks, each shaped so that the vendor's SDK drops what it
    /// sent rather than retrying it.
    enum Dialect: Sendable, Equatable {
        /// `{"success": false, "code", "message"}`.
        case segment
        /// `{"type": "validation_error", "code", "detail"}`: posthog-python logs `detail`.
        case posthog
        /// `{"code": 400, "error", "missing_field"}`: Amplitude's SDKs read the numeric `code` (a string one
        /// is retried), and drop the whole batch when `missing_field` is set.
        case amplitude
        /// `{"status": 0, "error"}` when the request asked for `verbose=1`, else `0`.
        case mixpanel(verbose: Bool)
    }

    init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// The JSON body, in the request's ``dialect``.
    var body: [UInt8] {
        var writer = JSONWriter()
        switch dialect {
        case .segment:
            writer.writeRaw(#"{"success":false,"code":"#)
            writer.writeString(code)
            writer.writeRaw(#","message":"#)
            writer.writeString(message)
        case .posthog:
            writer.writeRaw(#"{"type":"validation_error","code":"#)
            writer.writeString(code)
            writer.writeRaw(#","detail":"#)
            writer.writeString(message)
        case .amplitude:
            writer.writeRaw(#"{"code":\#(status.code),"error":"#)
            writer.writeString(message)
            writer.writeRaw(#","missing_field":"#)
            writer.writeString(code)
        case .mixpanel(verbose: false):
            writer.writeRaw("0")
            return writer.bytes
        case .mixpanel(verbose: true):
            writer.writeRaw(#"{"status":0,"error":"#)
            writer.writeString(message)
        }
        writer.writeRaw("}")
        return writer.bytes
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    var response: Response { .json(body, status: status) }
}

extension APIError {
    static func invalidJSON(_ error: JSONError, in what: String = "The body") -> APIError {
        APIError(.badRequest, "invalid_json", "\(what) is not valid JSON: \(error.message) at byte \(error.offset)")
    }

    static func badGzip(_ detail: String) -> APIError {
        APIError(
            .badRequest, "invalid_gzip", "The body is marked Content-Encoding: gzip but is not valid gzip: \(detail)")
    }

    static func missingField(_ field: String, index: Int?, _ detail: String = "") -> APIError {
        APIError(.badRequest, "missing_field", "\(position(index))\(field) is required\(detail)")
    }

    static func wrongType(_ field: String, index: Int?, expected: String, actual: PropertyValue) -> APIError {
        APIError(.badRequest, "wrong_type", "\(position(index))\(field) must be \(expected), not \(actual.typeName)")
    }

    /// A number of the right type but outside the values the field can hold, such as a time after year 9999.
    static func outOfRange(_ field: String, index: Int?, expected: String, actual: Double) -> APIError {
        APIError(.badRequest, "out_of_range", "\(position(index))\(field) must be \(expected), not \(actual)")
    }

    /// A message over 32 KB or a body over its route's limit: 400, as Segment's API answers, so that
    /// analytics-swift drops the batch (it retries a 413 for ever).
    static func tooLarge(_ message: String) -> APIError {
        APIError(.badRequest, "too_large", message)
    }

    static func badParameter(_ name: String, _ detail: String) -> APIError {
        APIError(.badRequest, "bad_parameter", "Query parameter \(name): \(detail)")
    }

    static let unsupportedEncoding = APIError(
        .unsupportedMediaType, "unsupported_encoding", "Content-Encoding must be gzip or absent")

    static func unsupportedMediaType(_ contentType: String, expected: String) -> APIError {
        APIError(
            .unsupportedMediaType, "unsupported_media_type", "Content-Type must be \(expected), not \(contentType)")
    }

    static let stopping = APIError(.serviceUnavailable, "stopping", "The collector is stopping")

    static func storage(_ error: any Error) -> APIError {
        APIError(.serviceUnavailable, "storage_failed", "The collector could not store the events: \(error)")
    }

    /// `batch[3]: ` for a message of a batch, nothing for a single call.
    private static func position(_ index: Int?) -> String {
        index.map { "batch[\($0)]: " } ?? ""
    }
}

@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
extension Response {
    /// A JSON response from encoded bytes.
    static func json(_ bytes: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
#endif
