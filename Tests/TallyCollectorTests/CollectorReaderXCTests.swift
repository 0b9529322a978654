#if Collector
import Foundation
import Tally
@testable import TallyCollector
import TallyTesting
import TallyTestSupport
import XCTest

/// `CollectorReader` in XCTest: its failures reach XCTest once each, at the expectation's line, with the
/// message.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
final class CollectorReaderXCTests: FailureCapturingTestCase {
    func testPassingExpectationsOnACollectorSessionRecordNothing() async throws {
        let collector = try await Collector.start()
        let reader = CollectorReader(url: collector.url)
        let answer = try await HTTP.post(
            collector.url.appendingPathComponent("v1/track"),
            #"{"event":"login_tapped","userId":"u1","properties":{"action":"tap"}}"#,
            headers: reader.headers)
        XCTAssertEqual(answer.status, 200)
        capturing = true
        let event = await reader.waitForEvent(.named("login_tapped"))
        reader.expectTracked(Event("login_tapped", ["action": "tap"]))
        reader.expectNothingElse()
        capturing = false
        XCTAssertEqual(event, Event("login_tapped", ["action": "tap"]))
        XCTAssertTrue(captured.isEmpty, "\(captured)")
        await collector.stop()
    }

    func testAWaitThatTimesOutFailsOnceAtItsLine() async throws {
        let collector = try await Collector.start()
        let reader = CollectorReader(url: collector.url)
        _ = try await HTTP.post(
            collector.url.appendingPathComponent("v1/track"), #"{"event":"something_else","userId":"u1"}"#,
            headers: reader.headers)
        let clock = ManualClock()
        let timer = Task {
            try await clock.waitForSleepers(count: 1)
            clock.advance(by: .seconds(3))
        }
        capturing = true
        let line = #line + 1
        let event = await reader.waitForEvent(.named("payment_succeeded"), timeout: .seconds(3), clock: clock)
        capturing = false
        try await timer.value
        XCTAssertNil(event)
        XCTAssertEqual(captured.count, 1)
        XCTAssertEqual(captured.first?.line, line)
        let message = captured.first?.message ?? ""
        XCTAssertTrue(message.contains(#"Timed out after 3.0 seconds waiting for "payment_succeeded"."#), message)
        XCTAssertTrue(message.contains("[0] track something_else"), message)
        await collector.stop()
    }

    func testAnUnreachableCollectorIsNamed() async throws {
        let collector = try await Collector.start()
        let url = collector.url
        await collector.stop()
        let reader = CollectorReader(url: url)
        do {
            try await reader.refresh()
            XCTFail("A stopped collector answered")
        } catch {}
        capturing = true
        reader.expectNoEvents()
        capturing = false
        XCTAssertEqual(captured.count, 1)
        XCTAssertTrue(
            captured.first?.message.contains(
                "Could not read the recording: Cannot reach the collector at \(url.absoluteString)") == true,
            "\(captured)")
    }
}
#endif
