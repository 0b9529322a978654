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
    /// - Throws: ``APIError`` 400 for gzip that does not decompress (truncated, corrupt), 400 `too_large` when the
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
    /// The body is read once to check it is valid JSON (nothing is built), then each message is read where
    /// it lies (see ``SegmentMessage``).
    ///
    /// - Parameters:
    ///   - bytes: the decoded body.
    ///   - type: the type a single-call route implies; nil for a batch.
    ///   - context: what the request's messages share.
    ///   - wantsEvents: whether to build each Tally event, to validate it against a plan.
    /// - Throws: ``APIError``: 400 for invalid JSON or an invalid message (naming it), 400 `too_large` for a message over
    ///   32 KB or a body over the route's limit.
    static func segmentEvents(
        _ bytes: [UInt8], type: MessageType?, context: IngestContext, wantsEvents: Bool
    ) throws(APIError) -> [(stored: StoredEvent, event: Event?)] {
        do {
            try bytes.withUnsafeBufferPointer { buffer throws(JSONError) in
                try JSONReader.readMembers(buffer) { _, reader throws(JSONError) in try reader.skipValue() }
            }
        } catch  where error.message == "Expected a JSON object" {
            let actual = (try? PropertyValue(jsonBytes: bytes))?.typeName ?? "nothing"
            throw APIError(
                .badRequest, "wrong_type",
                type == nil
                    ? "The body must be a JSON object with a batch array, not \(actual)"
                    : "The body must be a JSON object, not \(actual)")
        } catch {
            throw .invalidJSON(error)
        }
        return try bytes.withUnsafeBufferPointer { buffer throws(APIError) in
            let body = JSONSpans.trimmed(buffer)
            guard let type else { return try batchEvents(buffer, body, context: context, wantsEvents: wantsEvents) }
            if bytes.count > maximumMessageBytes {
                throw .tooLarge(
                    "The message is \(bytes.count) bytes; the limit for one event is 32 KB (\(maximumMessageBytes) bytes)"
                )
            }
            return [
                try SegmentMessage.read(buffer, body, type: type, index: nil, context: context, wantsEvent: wantsEvents)
            ]
        }
    }

    private static func batchEvents(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: Range<Int>, context: IngestContext, wantsEvents: Bool
    ) throws(APIError) -> [(stored: StoredEvent, event: Event?)] {
        let members = JSONSpans.members(bytes, body)
        func member(_ key: String) -> Range<Int>? {
            members.last { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0.key]), as: UTF8.self) == key }?.value
        }
        func value(_ span: Range<Int>) -> PropertyValue {
            (try? JSONReader.read(UnsafeBufferPointer(rebasing: bytes[span]))) ?? .null
        }
        guard let batch = member("batch") else { throw .missingField("batch", index: nil, " (an array of messages)") }
        guard bytes[batch.lowerBound] == UInt8(ascii: "[") else {
            throw .wrongType("batch", index: nil, expected: "an array", actual: value(batch))
        }
        let messages = JSONSpans.elements(bytes, batch)
        if let index = messages.firstIndex(where: { $0.count > maximumMessageBytes }) {
            throw .tooLarge(
                "batch[\(index)] is \(messages[index].count) bytes; the limit for one event is 32 KB (\(maximumMessageBytes) bytes)"
            )
        }
        var context = context
        if let span = member("writeKey") {
            switch value(span) {
            case .string(let key): context.writeKey = key
            case .null: break
            case let other: throw .wrongType("writeKey", index: nil, expected: "a string", actual: other)
            }
        }
        if let span = member("context") {
            switch value(span) {
            case .object(let shared): context.batchContext = shared
            case .null: break
            case let other: throw .wrongType("context", index: nil, expected: "an object", actual: other)
            }
        }
        var events: [(stored: StoredEvent, event: Event?)] = []
        events.reserveCapacity(messages.count)
        for (index, message) in messages.enumerated() {
            events.append(
                try SegmentMessage.read(
                    bytes, message, type: nil, index: index, context: context, wantsEvent: wantsEvents))
        }
        return events
    }
}
#endif
