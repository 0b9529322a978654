#if SpyMacro
import Foundation
@testable import Tally
import TallySpy
import Testing

/// A stand-in for analytics-swift's `Analytics`, with both its typed (`Codable`) and untyped
/// (`[String: Any]`) overloads and their default arguments, in a namespace.
enum FakeSegment {
    final class Analytics {
        private let lock = NSLock()
        private var recorded: [String] = []
        var sdkCalls: [String] { lock.withLock { recorded } }

        private func record(_ call: String) { lock.withLock { recorded.append(call) } }

        func track<P: Codable>(name: String, properties: P?) { record("typed track \(name)") }
        func track(name: String) { record("track \(name)") }
        func track(name: String, properties: [String: Any]? = nil) {
            record("track \(name) \(properties.map { $0.keys.sorted() } ?? [])")
        }

        func identify<T: Codable>(userId: String, traits: T?) { record("typed identify \(userId)") }
        func identify(userId: String) { record("identify \(userId)") }
        func identify(userId: String, traits: [String: Any]? = nil) {
            record("identify \(userId) \(traits.map { $0.keys.sorted() } ?? [])")
        }

        func screen<P: Codable>(title: String, category: String? = nil, properties: P?) { record("typed screen") }
        func screen(title: String, category: String? = nil) { record("screen \(title)") }
        func screen(title: String, category: String? = nil, properties: [String: Any]? = nil) {
            record("screen \(title) \(category ?? "nil") \(properties.map { $0.keys.sorted() } ?? [])")
        }

        func group<T: Codable>(groupId: String, traits: T?) { record("typed group") }
        func group(groupId: String) { record("group \(groupId)") }
        func group(groupId: String, traits: [String: Any]?) {
            record("group \(groupId) \(traits.map { $0.keys.sorted() } ?? [])")
        }

        func alias(newId: String) { record("alias \(newId)") }

        func reset() { record("reset") }
    }
}

// The conformance an app writes: empty.
extension FakeSegment.Analytics: SegmentAdapter {}

extension Vendors {
    @Suite struct SegmentDestinationTests {
        let spy = SegmentSpy()
        var destination: SegmentDestination { SegmentDestination(adapter: spy) }

        // MARK: Kinds

        @Test func eachKindMapsToTheSegmentCallOfTheSameName() {
            let events: [Event] = [
                Event("menu_item_ordered", ["item_name": "Pizza"]),
                .screen("Menu", ["section": "pizza"]),
                .identify(userId: "user-42", traits: ["plan": "pro"]),
                .group("acme", traits: ["seats": 10]),
                .alias("user-43"),
            ]
            for event in events {
                let delivery = deliver(event, to: destination)
                #expect(delivery.problems.isEmpty)
                #expect(delivery.thrown == nil)
            }
            spy.expectExactly([
                .track(name: "menu_item_ordered", properties: ["item_name": "Pizza"]),
                .screen(title: "Menu", category: nil, properties: ["section": "pizza"]),
                .identify(userId: "user-42", traits: ["plan": "pro"]),
                .group(groupId: "acme", traits: ["seats": 10]),
                .alias(newId: "user-43"),
            ])
        }

        @Test func emptyPropertiesAndTraitsArePassedAsNil() {
            for event in [Event("app_opened"), .screen("Menu"), .identify(userId: "user-42"), .group("acme")] {
                _ = deliver(event, to: destination)
            }
            spy.expectExactly([
                .track(name: "app_opened", properties: nil),
                .screen(title: "Menu", category: nil, properties: nil),
                .identify(userId: "user-42", traits: nil),
                .group(groupId: "acme", traits: nil),
            ])
        }

        // MARK: Size

        /// The JSON of a track event named `e` with one string property `blob`, without the string.
        static let trackOverhead = #"{"event":"e","properties":{"blob":""},"type":"track"}"#.utf8.count

        @Test(arguments: [(0, true), (1, false), (-1, true)])
        func aMessageOver32KBLessTheSDKsOverheadIsDropped(_ excess: Int, _ delivered: Bool) {
            let blob = String(repeating: "x", count: 32_768 - 2_048 - Self.trackOverhead + excess)
            let event = Event("e", ["blob": .string(blob)])
            let delivery = deliver(event, to: destination)
            #expect(delivery.problems.isEmpty)
            if delivered {
                spy.expectExactly([.track(name: "e", properties: ["blob": blob])])
                #expect(delivery.thrown == nil)
            } else {
                #expect(spy.calls.isEmpty)
                expectVendorProblem(
                    delivery.thrown, destination: "segment", event: event, path: nil, outcome: .dropped,
                    mentioning:
                        "would be 30721 bytes of JSON as Segment's SDK writes it, and the SDK adds about 2048 more; Segment rejects messages over 32768 bytes"
                )
            }
        }

        /// An event Tally measured at just under 32 KB used to be handed over, and the SDK's own fields
        /// took it past Segment's limit on the wire.
        @Test func anEventJustUnderTheOldLimitIsDroppedBeforeTheSDK() {
            let blob = String(repeating: "x", count: 32_768 - Self.trackOverhead - 1)
            let event = Event("e", ["blob": .string(blob)])
            #expect(SegmentDestination.messageSize(envelope(event)) == 32_767)
            let delivery = deliver(event, to: destination)
            #expect(spy.calls.isEmpty)
            expectVendorProblem(
                delivery.thrown, destination: "segment", event: event, path: nil, outcome: .dropped,
                mentioning: "would be 32767 bytes of JSON")
        }

        @Test func noOverheadMeasuresTallysFieldsAlone() {
            let blob = String(repeating: "x", count: 32_768 - Self.trackOverhead)
            let destination = SegmentDestination(adapter: spy, limits: SegmentLimits(sdkOverheadBytes: 0))
            let delivery = deliver(Event("e", ["blob": .string(blob)]), to: destination)
            #expect(delivery.thrown == nil)
            spy.expectExactly([.track(name: "e", properties: ["blob": blob])])
        }

        // MARK: Numbers the SDK cannot encode

        @Test func doublesTheSDKWouldSendAsNaNAreRemovedAtAnyDepth() {
            let event = Event(
                "measured",
                [
                    "ok": 1.5, "huge": 1e200, "tiny": 1e-120, "zero": 0.0, "edge": 1e146, "small": 1e-108,
                    "list": [1.0, -1e300, 2.0], "nested": ["x": -1e160, "y": 3],
                ])
            let delivery = deliver(event, to: destination)
            #expect(delivery.thrown == nil)
            spy.expectExactly([
                .track(
                    name: "measured",
                    properties: [
                        "ok": 1.5, "zero": 0.0, "edge": 1e146, "small": 1e-108, "list": [1.0, 2.0],
                        "nested": ["y": 3],
                    ])
            ])
            #expect(
                delivery.problems.map(\.path) == [
                    "/properties/huge", "/properties/list/1", "/properties/nested/x", "/properties/tiny",
                ])
            for problem in delivery.problems {
                #expect(problem.eventName == "measured")
                #expect(problem.destination == "segment")
                #expect(problem.outcome == .sanitized)
                #expect(problem.message.contains("cannot encode"))
            }
        }

        @Test func traitsAreCheckedToo() {
            let event = Event.identify(userId: "user-42", traits: ["score": 1e200, "plan": "pro"])
            let delivery = deliver(event, to: destination)
            spy.expectExactly([.identify(userId: "user-42", traits: ["plan": "pro"])])
            #expect(delivery.problems.map(\.path) == ["/traits/score"])
        }

        @Test func bigNumbersADecimalCannotHoldBecomeDoublesOrAreRemoved() {
            let fortyDigits = "1234567890123456789012345678901234567890"
            let event = Event(
                "e",
                [
                    "long": .bigNumber(BigNumber(fortyDigits)!), "far": .bigNumber(BigNumber("1e400")!),
                    "exact": .bigNumber(BigNumber("18446744073709551617")!),
                ])
            let delivery = deliver(event, to: destination)
            spy.expectExactly([
                .track(
                    name: "e",
                    properties: [
                        "long": Double(fortyDigits)!,
                        "exact": PropertyValue.bigNumber(BigNumber("18446744073709551617")!),
                    ])
            ])
            #expect(delivery.problems.map(\.path) == ["/properties/far", "/properties/long"])
        }

        /// The bounds hold where the SDK's own conversion (`NSNumber.decimalValue`) works on this platform.
        @Test(arguments: [1e146, -1e146, 1e-108, -1e-108, 1.5e-108, 9.99e145, 1, 0.1, 1e-50, 1e100])
        func everyDoubleWithinTheBoundsConvertsToADecimal(_ value: Double) {
            #expect(SegmentLimits.encodes(value))
            #expect(!NSNumber(value: value).decimalValue.isNaN)
        }

        @Test(arguments: [1e200, 1e300, -1e160, 1e-130, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude])
        func doublesOutsideTheBoundsAreTheOnesTheSDKCannotConvert(_ value: Double) {
            #expect(!SegmentLimits.encodes(value))
            #expect(NSNumber(value: value).decimalValue.isNaN)
        }

        @Test func sizeIsCountedInUTF8BytesAfterEscaping() {
            // 11,000 characters, but 22,000 bytes of "é" plus 11,000 escaped quotes of 2 bytes each.
            let text = String(repeating: "é", count: 11_000) + String(repeating: "\"", count: 11_000)
            let event = Event("e", ["blob": .string(text)])
            let delivery = deliver(event, to: destination)
            #expect(spy.calls.isEmpty)
            expectVendorProblem(
                delivery.thrown, destination: "segment", event: event, path: nil, outcome: .dropped,
                mentioning: "would be \(44_000 + Self.trackOverhead) bytes")
        }

        @Test(arguments: [
            Event.screen("Menu", ["blob": .string(String(repeating: "x", count: 40_000))]),
            Event.identify(userId: "user-42", traits: ["blob": .string(String(repeating: "x", count: 40_000))]),
            Event.group("acme", traits: ["blob": [.string(String(repeating: "x", count: 40_000))]]),
            Event.alias(String(repeating: "x", count: 40_000)),
        ])
        func everyKindIsMeasured(_ event: Event) {
            let delivery = deliver(event, to: destination)
            #expect(spy.calls.isEmpty)
            expectVendorProblem(
                delivery.thrown, destination: "segment", event: event, path: nil, outcome: .dropped,
                mentioning: "Segment rejects messages over 32768 bytes")
        }

        @Test func theLimitIsConfigurable() {
            let destination = SegmentDestination(adapter: spy, limits: SegmentLimits(maximumMessageBytes: 100))
            let delivery = deliver(Event("e", ["blob": .string(String(repeating: "x", count: 100))]), to: destination)
            #expect(spy.calls.isEmpty)
            #expect(delivery.thrown?.message.contains("over 100 bytes") == true)
        }

        // MARK: Reset

        @Test func resetCallsSegmentsReset() {
            destination.reset()
            spy.expectExactly([.reset])
        }

        @Test func throughTheClientResetComesBetweenTheEventsBeforeAndAfterIt() async {
            let analytics = AnalyticsClient(destinations: [destination])
            analytics.identify(userId: "user-42", traits: ["plan": "pro"])
            analytics.reset()
            analytics.track("browsing")
            await analytics.flush()
            spy.expectExactly([
                .identify(userId: "user-42", traits: ["plan": "pro"]),
                .reset,
                .track(name: "browsing", properties: nil),
            ])
            #expect(analytics.statistics.destinations["segment"]?.delivered == 2)
            await analytics.shutdown()
        }

        // MARK: Through the client and the SDK

        @Test func throughTheClientOversizedMessagesAreCountedAsRejected() async {
            let analytics = AnalyticsClient(destinations: [destination])
            analytics.track("big", ["blob": .string(String(repeating: "x", count: 40_000))])
            analytics.track("small", ["n": 1])
            await analytics.flush()
            spy.expectExactly([.track(name: "small", properties: ["n": 1])])
            let statistics = analytics.statistics
            #expect(statistics.destinations["segment"]?.delivered == 1)
            #expect(statistics.destinations["segment"]?.dropped == [.rejected: 1])
            #expect(statistics.recentProblems.count == 1)
            #expect(statistics.recentProblems.first?.code == .vendorLimit)
            #expect(statistics.recentProblems.first?.outcome == .dropped)
            #expect(statistics.recentProblems.first?.eventName == "big")
            #expect(statistics.recentProblems.first?.destination == "segment")
            await analytics.shutdown()
        }

        @Test func theEmptyConformanceReachesTheUntypedOverloads() async {
            let sdk = FakeSegment.Analytics()
            let analytics = AnalyticsClient(destinations: [SegmentDestination(adapter: sdk)])
            analytics.track("ordered", ["item_name": "Pizza"])
            analytics.screen("Menu")
            analytics.identify(userId: "user-42", traits: ["plan": "pro"])
            analytics.group("acme", traits: ["seats": 3])
            analytics.alias("user-43")
            await analytics.flush()
            #expect(
                sdk.sdkCalls == [
                    "track ordered [\"item_name\"]",
                    "screen Menu nil []",
                    "identify user-42 [\"plan\"]",
                    "group acme [\"seats\"]",
                    "alias user-43",
                ])
            await analytics.shutdown()
        }

        @Test func theEmptyConformanceReachesTheSDKsReset() async {
            let sdk = FakeSegment.Analytics()
            let analytics = AnalyticsClient(destinations: [SegmentDestination(adapter: sdk)])
            analytics.identify(userId: "user-42")
            analytics.reset()
            analytics.track("browsing")
            await analytics.flush()
            #expect(sdk.sdkCalls == ["identify user-42 []", "reset", "track browsing []"])
            await analytics.shutdown()
        }
    }
}
#endif
