#if Collector
import HTTPTypes
import NIOCore
import Tally

/// Turns a request body into events: gzip, Segment's size limits, then the messages.
enum IngestBody {
    /// Segment's limit for one message: 32 KB.
    static let maximumMessageBytes = 32 * 1024
    /// Segment's limit for a batch request: 500 KB.
    static let maximumBatchBytes = 500 * 1024

    /// The body's bytes, gunzipped when `contentEncoding` says gzip.
    ///
    /// - Throws: ``APIError`` 400 for gzip that does not decompress (truncated, corrupt), 413 when the
    ///   decompressed body passes `limit`, 415 for an encoding other than gzip.
    static func decode(_ body: ByteBuffer, contentEncoding: String?, limit: Int) throws(APIError) -> [UInt8] {
        switch contentEncoding?.lowercased() {
        case nil, "", "identity":
            return Array(body.readableBytesView)
        case "gzip", "x-gzip":
            return try gunzip(body, limit: limit)
        default:
            throw .unsupportedEncoding
        }
    }

    private static func gunzip(_ body: ByteBuffer, limit: Int) throws(APIError) -> [UInt8] {
        do {
            return try Gunzip.decompress(Array(body.readableBytesView), limit: limit)
        } catch {
            switch error {
            case .tooLarge: throw tooLargeBody(limit: limit, gzipped: true)
            case .invalid(let reason): throw .badGzip(reason)
            }
        }
    }

    static func tooLargeBody(limit: Int, gzipped: Bool = false) -> APIError {
        .tooLarge(
            "The body is over the limit of \(limit / 1024) KB (\(limit) bytes)"
                + (gzipped ? " once decompressed" : "") + "; send fewer events per batch")
    }

    /// The messages of a Segment request: the `batch` array of `/v1/batch`, or the one message of a single
    /// call.
    ///
    /// - Parameters:
    ///   - bytes: the decoded body.
    ///   - type: the type a single-call route implies; nil for a batch.
    ///   - context: what the request's messages share.
    /// - Throws: ``APIError``: 400 for invalid JSON or an invalid message (naming it), 413 for a message over
    ///   32 KB or a body over the route's limit.
    static func segmentEvents(
        _ bytes: [UInt8], type: MessageType?, context: IngestContext
    ) throws(APIError) -> [(stored: StoredEvent, event: Event)] {
        let value: PropertyValue
        do {
            value = try bytes.withUnsafeBufferPointer { buffer throws(JSONError) in try JSONReader.read(buffer) }
        } catch {
            throw .invalidJSON(error)
        }
        guard let type else { return try batchEvents(value, bytes: bytes, context: context) }
        if bytes.count > maximumMessageBytes {
            throw .tooLarge(
                "The message is \(bytes.count) bytes; the limit for one event is 32 KB (\(maximumMessageBytes) bytes)")
        }
        var context = context
        if case .object(let fields) = value, case .string(let key)? = fields["writeKey"] { context.writeKey = key }
        return [try SegmentMessage.read(value, type: type, index: nil, context: context)]
    }

    private static func batchEvents(
        _ value: PropertyValue, bytes: [UInt8], context: IngestContext
    ) throws(APIError) -> [(stored: StoredEvent, event: Event)] {
        guard case .object(let fields) = value else {
            throw APIError(
                .badRequest, "wrong_type", "The body must be a JSON object with a batch array, not \(value.typeName)")
        }
        guard let batchValue = fields["batch"] else {
            throw .missingField("batch", index: nil, " (an array of messages)")
        }
        guard case .array(let messages) = batchValue else {
            throw .wrongType("batch", index: nil, expected: "an array", actual: batchValue)
        }
        if bytes.count > maximumMessageBytes {
            let lengths = bytes.withUnsafeBufferPointer { BatchSpans.elementLengths(ofArray: "batch", in: $0) }
            if let index = lengths.firstIndex(where: { $0 > maximumMessageBytes }) {
                throw .tooLarge(
                    "batch[\(index)] is \(lengths[index]) bytes; the limit for one event is 32 KB (\(maximumMessageBytes) bytes)"
                )
            }
        }
        var context = context
        switch fields["writeKey"] {
        case .string(let key)?: context.writeKey = key
        case nil, .null?: break
        case let other?: throw .wrongType("writeKey", index: nil, expected: "a string", actual: other)
        }
        switch fields["context"] {
        case .object(let shared)?: context.batchContext = shared
        case nil, .null?: break
        case let other?: throw .wrongType("context", index: nil, expected: "an object", actual: other)
        }
        var events: [(stored: StoredEvent, event: Event)] = []
        events.reserveCapacity(messages.count)
        for (index, message) in messages.enumerated() {
            events.append(try SegmentMessage.read(message, type: nil, index: index, context: context))
        }
        return events
    }
}
#endif
