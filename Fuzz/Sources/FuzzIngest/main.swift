// Fuzzes the collector's ingest decoders, each as its route calls it (CollectorRoutes, CollectorRoutes+Vendors):
// Segment's tracking API (IngestBody.segmentEvents, SegmentMessage, JSONSpans), PostHog's and Amplitude's
// (`/batch`: VendorJSON, PostHogMessage, AmplitudeEvent), Mixpanel's form, base64 and JSON
// (MixpanelMessage), Tally records (RecordLines), and the gzip layer (Gunzip).
//
// The first byte picks the decoder (and, for some, a second byte the message type or endpoint); the rest is
// the request body.
//
// Properties:
// 1. No input crashes.
// 2. Every input is decoded or refused with a clear error: an APIError with a 4xx status, a code and a
//    message.
// 3. The gzip layer: a valid body gzipped (TallyDelivery's Gzip) decompresses to itself and decodes to the
//    same events as the plain body; any other body given as gzip is refused with a 4xx, never a crash.
import Foundation
import FuzzDriver
import NIOCore
@testable import Tally
@testable import TallyCollector
@testable import TallyDelivery

/// Every message of a request shares this; fixed, so that two decodings compare equal.
let context = IngestContext(receivedAt: 1_700_000_000_000_000, session: "fuzz", writeKey: "key")

typealias Events = [(stored: StoredEvent, event: Event?)]

/// Decodes `body` with decoder `selector`, as the route does; `detail` picks a message type or endpoint.
func decode(_ selector: UInt8, _ detail: UInt8, _ body: [UInt8]) throws(APIError) -> Events {
    switch selector % 7 {
    case 0:  // POST /v1/batch
        guard body.count <= IngestBody.maximumBatchBytes else { throw IngestBody.tooLargeBody(limit: 0) }
        return try IngestBody.segmentEvents(body, type: nil, context: context, wantsEvents: true)
    case 1:  // POST /v1/track, /v1/identify, ...
        guard body.count <= IngestBody.maximumMessageBytes else { throw IngestBody.tooLargeBody(limit: 0) }
        let types = MessageType.allCases
        let type = types[Int(detail) % types.count]
        return try IngestBody.segmentEvents(body, type: type, context: context, wantsEvents: detail & 0x80 == 0)
    case 2:  // POST /batch: Amplitude's batch API when the body has `events`, else PostHog's
        let vendorBody = try VendorJSON.read(body)
        let isAmplitude = vendorBody.withValue { value in
            guard let object = value.object else { return false }
            return object.contains("events") && !object.contains("batch")
        }
        return try vendorBody.withValue { value throws(APIError) in
            isAmplitude
                ? try AmplitudeEvent.events(value, context: context, wantsEvents: true)
                : try PostHogMessage.events(value, context: context, wantsEvents: true)
        }
    case 3:  // POST /2/httpapi (Amplitude)
        return try VendorJSON.read(body).withValue { value throws(APIError) in
            try AmplitudeEvent.events(value, context: context, wantsEvents: true)
        }
    case 4, 5:  // Mixpanel: a form (data=<base64 or JSON>) or a JSON body
        let endpoints = MixpanelMessage.Endpoint.allCases
        let endpoint = endpoints[Int(detail) % endpoints.count]
        let form = MixpanelMessage.form(body, isJSON: selector % 7 == 5, verboseQuery: false)
        return try MixpanelMessage.events(try form.json(), endpoint: endpoint, context: context, wantsEvents: true)
    default:  // POST /tally/records
        return try RecordLines.events(body, context: context)
    }
}

func checkClear(_ error: APIError) {
    precondition((400..<500).contains(error.status.code), "status \(error.status) for \(error)")
    precondition(!error.code.isEmpty && !error.message.isEmpty, "an unclear error: \(error)")
}

func same(_ left: Events, _ right: Events) -> Bool {
    left.count == right.count && zip(left, right).allSatisfy { $0.stored == $1.stored && $0.event == $1.event }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let selector = data[0]
    let detail = data[1]
    let body = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))

    if selector >= 0xF0 {
        // The gzip layer on its own: the body as a gzip stream.
        do {
            _ = try Gunzip.decompress(body, limit: 1 << 20)
        } catch {
            if case .invalid(let reason) = error { precondition(!reason.isEmpty) }
        }
        do {
            _ = try IngestBody.decode(ByteBuffer(bytes: body), contentEncoding: "gzip", limit: 1 << 20)
        } catch {
            checkClear(error)
        }
        return 0
    }

    let plain: Events
    do {
        plain = try decode(selector, detail, body)
    } catch {
        checkClear(error)
        return 0
    }
    // Decoding is deterministic, and a gzipped body decodes to the same events.
    guard selector & 0x08 != 0 else { return 0 }
    guard let gzipped = Gzip.compress(body) else { fatalError("zlib could not compress") }
    let inflated: [UInt8]
    do {
        inflated = try IngestBody.decode(
            ByteBuffer(bytes: gzipped), contentEncoding: "gzip", limit: IngestBody.maximumBatchBytes * 2)
    } catch {
        fatalError("a gzipped body does not decompress: \(error)")
    }
    precondition(inflated == body, "gzip then gunzip changed the body")
    do {
        let again = try decode(selector, detail, inflated)
        precondition(same(again, plain), "the gzipped body decodes otherwise")
    } catch {
        fatalError("the gzipped body is refused: \(error)")
    }
    return 0
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzz))
