#if Collector
import Foundation
import Tally
@testable import TallyCollector
import Testing

/// A collector on a real loopback port: starting and stopping, the live page and its stream.
@Suite("Collector over loopback", .timeLimit(.minutes(1)))
struct LiveCollectorTests {
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func startsOnAFreePortAndStops() async throws {
        let collector = try await Collector.start()
        #expect(collector.port > 0)
        #expect(collector.url.absoluteString == "http://127.0.0.1:\(collector.port)")
        let answer = try await HTTP.post(
            collector.url.appendingPathComponent("v1/track"), #"{"event":"A","userId":"u"}"#)
        #expect(answer.status == 200)
        #expect(answer.json == ["success": true])
        await collector.stop()
        await #expect(throws: (any Error).self) {
            _ = try await HTTP.send("GET", collector.url.appendingPathComponent("tally/status"))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aPortInUseIsAClearError() async throws {
        try await withLiveCollector { first in
            await #expect {
                _ = try await Collector.start(Collector.Configuration(port: first.port))
            } throws: { error in
                (error as? CollectorError)?.kind == .cannotListen
                    && "\(error)".contains("Cannot listen on 127.0.0.1:\(first.port)")
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func anUnopenableDatabaseIsAClearError() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        await #expect {
            _ = try await Collector.start(Collector.Configuration(database: .file(folder.path)))
        } throws: { error in
            (error as? CollectorError)?.kind == .cannotOpenDatabase
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func theLivePageIsServed() async throws {
        try await withLiveCollector { collector in
            let answer = try await HTTP.send("GET", collector.url)
            #expect(answer.status == 200)
            let html = String(decoding: answer.body, as: UTF8.self)
            #expect(html.contains("<title>Tally collector</title>"))
            #expect(html.contains(#"new EventSource("/tally/stream?backlog=500")"#))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func theStreamSendsTheBacklogThenEachEventAsItIsCommitted() async throws {
        try await withLiveCollector { collector in
            let events = collector.url.appendingPathComponent("v1/batch")
            _ = try await HTTP.post(events, batchJSON([trackJSON("Old 1"), trackJSON("Old 2"), trackJSON("Old 3")]))
            let stream = try LineStream(
                port: collector.port, request: "GET /tally/stream?backlog=2 HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(await stream.readLine(where: { $0.hasPrefix(": connected") }) != nil)
            #expect(await stream.readLine(where: { $0.hasPrefix("id: ") }) == "id: 2")
            #expect(await stream.readLine(where: { $0.hasPrefix("id: ") }) == "id: 3")
            _ = try await HTTP.post(events, batchJSON([trackJSON("New")]))
            #expect(await stream.readLine(where: { $0.hasPrefix("id: ") }) == "id: 4")
            let data = try #require(await stream.readLine(where: { $0.hasPrefix("data: ") }))
            let event = try PropertyValue(json: String(data.dropFirst(6)))
            #expect(event["name"] == "New")
            _ = try await HTTP.send("DELETE", collector.url.appendingPathComponent("tally/events"))
            #expect(await stream.readLine(where: { $0.hasPrefix("event: ") }) == "event: deleted")
            #expect(await stream.readLine(where: { $0.hasPrefix("data: ") }) == #"data: {"session":null}"#)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aHeartbeatKeepsTheStreamAlive() async throws {
        try await withLiveCollector(Collector.Configuration(heartbeat: .milliseconds(20))) { collector in
            let stream = try LineStream(
                port: collector.port, request: "GET /tally/stream HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(await stream.readLine(where: { $0 == ": heartbeat" }) != nil)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func stoppingEndsOpenStreamsAndWaits() async throws {
        let collector = try await Collector.start()
        let stream = try LineStream(
            port: collector.port, request: "GET /tally/stream HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(await stream.readLine(where: { $0.hasPrefix(": connected") }) != nil)
        let waiting = Task {
            try await HTTP.send("GET", URL(string: "\(collector.url.absoluteString)/tally/events/wait?timeout=600000")!)
        }
        await collector.routes.waits.waitForWaiters(1)
        await collector.stop()
        #expect(try await waiting.value.status == 503)
        #expect(await stream.readLine(where: { _ in false }) == nil)  // the stream ended
    }
}
#endif
