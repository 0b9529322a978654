#if Collector
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Tally

/// PostHog's, Amplitude's and Mixpanel's ingestion APIs: the paths their SDKs post to, and the answers
/// those SDKs read.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
extension CollectorRoutes {
    /// PostHog's cap on a request body: 20 MB.
    static let maximumPostHogBytes = 20 * 1024 * 1024
    /// Amplitude's cap on a request body: 1 MB.
    static let maximumAmplitudeBytes = 1024 * 1024
    /// Mixpanel's cap on a request body (its `/import` endpoint's): 10 MB.
    static let maximumMixpanelBytes = 10 * 1024 * 1024

    /// Adds the vendors' routes. The router takes a path with or without its trailing slash (`/batch/`, as
    /// posthog-python posts, and `/batch`, as posthog-ios does) as the same route.
    func addVendorRoutes(to router: Router<BasicRequestContext>) {
        // `/batch` is PostHog's batch endpoint and Amplitude's batch API both: the body tells them apart.
        router.post("/batch") { request, _ in try await self.ingestBatch(request) }
        for path in ["/capture", "/e", "/i/v0/e"] {
            router.post(RouterPath(path)) { request, _ in try await self.ingestPostHog(request) }
        }
        router.post("/2/httpapi") { request, _ in try await self.ingestAmplitude(request) }
        for endpoint in MixpanelMessage.Endpoint.allCases {
            router.post(RouterPath("/\(endpoint.rawValue)")) { request, _ in
                try await self.ingestMixpanel(request, endpoint: endpoint)
            }
        }
    }

    /// `POST /capture/`, `/e/`, `/i/v0/e/`: PostHog's capture endpoints.
    func ingestPostHog(_ request: Request) async throws -> Response {
        try await speaking(.posthog) {
            let body = try await jsonBody(of: request, limit: Self.maximumPostHogBytes)
            return try await keepPostHog(body, request)
        }
    }

    /// `POST /2/httpapi`: Amplitude's HTTP API.
    func ingestAmplitude(_ request: Request) async throws -> Response {
        try await speaking(.amplitude) {
            let body = try await jsonBody(of: request, limit: Self.maximumAmplitudeBytes)
            return try await keepAmplitude(body, request)
        }
    }

    /// `POST /batch`: PostHog's when the body has a `batch`, Amplitude's batch API when it has `events`.
    func ingestBatch(_ request: Request) async throws -> Response {
        var dialect = APIError.Dialect.posthog
        return try await speaking({ dialect }) {
            let body = try await jsonBody(of: request, limit: Self.maximumPostHogBytes)
            let isAmplitude = body.withValue { value in
                guard let object = value.object else { return false }
                return object.contains("events") && !object.contains("batch")
            }
            if isAmplitude {
                dialect = .amplitude
                return try await keepAmplitude(body, request)
            }
            return try await keepPostHog(body, request)
        }
    }

    private func keepPostHog(_ body: VendorBody, _ request: Request) async throws -> Response {
        let ingest = context(of: request)
        let events = try body.withValue { value throws(APIError) in
            try PostHogMessage.events(value, context: ingest, wantsEvents: validator != nil)
        }
        try await keep(events)
        return .json(Array(#"{"status":1}"#.utf8))
    }

    private func keepAmplitude(_ body: VendorBody, _ request: Request) async throws -> Response {
        let ingest = context(of: request)
        let events = try body.withValue { value throws(APIError) in
            try AmplitudeEvent.events(value, context: ingest, wantsEvents: validator != nil)
        }
        try await keep(events)
        let now = ingest.receivedAt / 1000
        return .json(Array(#"{"code":200,"events_ingested":\#(events.count),"server_upload_time":\#(now)}"#.utf8))
    }

    /// `POST /track`, `/engage`, `/groups`, `/import`: Mixpanel's ingestion API.
    func ingestMixpanel(_ request: Request, endpoint: MixpanelMessage.Endpoint) async throws -> Response {
        var verbose = request.uri.queryParameters["verbose"] == "1"
        return try await speaking({ .mixpanel(verbose: verbose) }) {
            let contentType = Self.mediaType(request)
            let isJSON = contentType == "application/json"
            guard isJSON || ["", "application/x-www-form-urlencoded", "text/plain"].contains(contentType) else {
                throw APIError.unsupportedMediaType(
                    contentType, expected: "application/x-www-form-urlencoded or application/json")
            }
            let bytes = try await body(of: request, limit: Self.maximumMixpanelBytes)
            let form = MixpanelMessage.form(bytes, isJSON: isJSON, verboseQuery: verbose)
            verbose = form.verbose
            let events = try MixpanelMessage.events(
                try form.json(), endpoint: endpoint, context: context(of: request), wantsEvents: validator != nil)
            try await keep(events)
            if endpoint == .import {
                return .json(Array(#"{"code":200,"num_records_imported":\#(events.count),"status":1}"#.utf8))
            }
            return .json(Array((verbose ? #"{"status":1,"error":null}"# : "1").utf8))
        }
    }

    /// The body as JSON, refused with 415 when its Content-Type says it is something else (a form).
    private func jsonBody(of request: Request, limit: Int) async throws -> VendorBody {
        let contentType = Self.mediaType(request)
        // posthog-js posts text/plain to skip a browser's preflight; no SDK sends a form here.
        guard ["", "application/json", "text/plain"].contains(contentType) else {
            throw APIError.unsupportedMediaType(contentType, expected: "application/json")
        }
        return try VendorJSON.read(try await body(of: request, limit: limit))
    }

    /// The request's media type, lowercased, without parameters (`charset=…`); empty when absent.
    static func mediaType(_ request: Request) -> String {
        guard let value = request.headers[.contentType] else { return "" }
        return mediaType(value)
    }

    /// The media type of a Content-Type value: its first part between `;`s that is not empty, without spaces
    /// and tabs around it, lowercased. An ASCII value (every SDK's) is read on its bytes; any other through
    /// Foundation, which also trims Unicode's other spaces.
    static func mediaType(_ value: String) -> String {
        guard value.utf8.first != UInt8(ascii: ";"), value.utf8.allSatisfy({ $0 < 0x80 }) else {
            return value.split(separator: ";", maxSplits: 1).first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        }
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var bytes = value.utf8[...]
        if let semicolon = bytes.firstIndex(of: UInt8(ascii: ";")) { bytes = bytes[..<semicolon] }
        while let first = bytes.first, isSpace(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, isSpace(last) { bytes = bytes.dropLast() }
        let lowercase = bytes.map { byte in
            byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte
        }
        return String(decoding: lowercase, as: UTF8.self)
    }

    /// Runs `work`, answering its ``APIError`` in `dialect`.
    private func speaking(
        _ dialect: APIError.Dialect, _ work: () async throws -> Response
    ) async throws -> Response {
        try await speaking({ dialect }, work)
    }

    private func speaking(
        _ dialect: () -> APIError.Dialect, _ work: () async throws -> Response
    ) async throws -> Response {
        do {
            return try await work()
        } catch var error as APIError {
            error.dialect = dialect()
            throw error
        }
    }
}
#endif
