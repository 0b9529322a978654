import Foundation
import Tally
import TallyCollector
import TallyTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// "Proving delivery through a vendor's SDK": the recording compared with what a PostHog client posted.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
@Test func theRecordingIsComparedWithWhatThePostHogSDKDelivered() async throws {
    let collector = try await Collector.start()
    defer { Task { await collector.stop() } }
    let events = CollectorReader(url: collector.url)
    let recordings = FileManager.default.temporaryDirectory.appendingPathComponent("tally-doc-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: recordings) }
    let envelope = Envelope(
        event: Event("Order Completed", ["total": 12.5]), messageId: MessageID(prefix: 7, sequence: 1),
        timestamp: Date(), userId: "u1", anonymousId: "a1")
    // What the app's recording destination writes under TALLY_RECORD_DIR.
    try Data(Record(envelope: envelope).line + [UInt8(ascii: "\n")]).write(
        to: recordings.appendingPathComponent("app.jsonl"))
    var request = URLRequest(url: collector.url.appendingPathComponent("batch"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(
        #"{"api_key":"k","batch":[{"event":"Order Completed","distinct_id":"u1","uuid":"\#(envelope.messageId)","properties":{"total":12.5,"tally_session":"\#(events.session)"}}]}"#
            .utf8)
    _ = try await URLSession.shared.data(for: request)

    let tracked = try RecordingFile(folder: recordings).records.map(\.envelope)
    try await expectDelivered(tracked, to: events, source: "posthog")
}
