import Foundation
import Testing

@testable import Tally

/// Encodes a message the way Segment's SDK (analytics-swift 1.x) does: every value the app hands over
/// becomes its `JSON` enum (`NSNumber` through `decimalValue`, so a number is a `Decimal`), which a
/// `JSONEncoder` with its default options writes (slashes escaped, a `Decimal` with all its digits).
enum SDKStyleEncoding {
    enum JSON: Encodable {
        case null, bool(Bool), number(Decimal), string(String), array([JSON]), object([String: JSON])

        init(_ value: Any) {
            switch value {
            case let bool as Bool where type(of: value) == Bool.self: self = .bool(bool)
            case let string as String: self = .string(string)
            case let array as [Any]: self = .array(array.map(JSON.init))
            case let object as [String: Any]: self = .object(object.mapValues(JSON.init))
            case let decimal as Decimal: self = .number(decimal)
            case let number as NSNumber: self = .number(number.decimalValue)
            default: self = .null
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let bool): try container.encode(bool)
            case .number(let number): try container.encode(number)
            case .string(let string): try container.encode(string)
            case .array(let array): try container.encode(array)
            case .object(let object): try container.encode(object)
            }
        }
    }

    /// The bytes of a track message with these properties, as the SDK writes it, without its own fields.
    static func trackSize(name: String, properties: [String: Any]) throws -> Int {
        let message: [String: Any] = ["type": "track", "event": name, "properties": properties]
        return try JSONEncoder().encode(JSON(message)).count
    }
}

/// Records the calls a `SegmentDestination` makes, with the Foundation values the SDK would get.
final class SegmentCalls: SegmentAdapter, @unchecked Sendable {
    private let lock = NSLock()
    private var tracked: [(name: String, properties: [String: Any]?)] = []

    var tracks: [(name: String, properties: [String: Any]?)] { lock.withLock { tracked } }

    func track(name: String, properties: [String: Any]?) { lock.withLock { tracked.append((name, properties)) } }
    func screen(title: String, category: String?, properties: [String: Any]?) {}
    func identify(userId: String, traits: [String: Any]?) {}
    func group(groupId: String, traits: [String: Any]?) {}
    func alias(newId: String) {}
    func reset() {}
}

/// A stand-in for analytics-swift's `AnalyticsError` (Sources/Segment/Errors.swift, 1.x): the cases the
/// reporter reads, with the SDK's names and payloads.
indirect enum StandInAnalyticsError: Error {
    case networkServerRejected(URL?, Int)
    case networkServerLimited(URL?, Int)
    case networkUnknown(URL?, any Error)
    case batchUploadFail(StandInAnalyticsError)
    case settingsFail(StandInAnalyticsError)
}

extension Vendors {
    @Suite struct SegmentSDKEdgeTests {
        // MARK: The size, as the SDK writes it

        /// Values whose JSON the SDK writes longer (or shorter) than Tally's compact JSON.
        static let tricky: [String: PropertyValue] = [
            "url": "https://example.com/a/b/c?d=e/f",
            "a/key": "x",
            "huge": 1e100,
            "tiny": 1e-100,
            "pi": 3.14159,
            "odd": 123_456_789.123,
            "two": 2.0,
            "int": 42,
            "negative": -9_007_199_254_740_991,
            "bool": true,
            "null": .null,
            "text": "quote \" backslash \\ newline \n tab \t é 🎉",
            "list": [1.5, "a/b", ["deep": 1e20]],
            "exact": .bigNumber(BigNumber("18446744073709551617")!),
        ]

        @Test func theMeasureIsTheSizeOfTheSDKsOwnEncoding() throws {
            for (key, value) in Self.tricky {
                let event = Event("e/v", [key: value])
                let calls = SegmentCalls()
                let delivery = deliver(event, to: SegmentDestination(adapter: calls))
                #expect(delivery.thrown == nil)
                let handed = try #require(calls.tracks.first?.properties)
                let sdk = try SDKStyleEncoding.trackSize(name: "e/v", properties: handed)
                #expect(SegmentDestination.messageSize(envelope(event)) == sdk, "\(key)")
            }
            let all = Event("e", Self.tricky)
            let calls = SegmentCalls()
            _ = deliver(all, to: SegmentDestination(adapter: calls))
            let handed = try #require(calls.tracks.first?.properties)
            #expect(
                SegmentDestination.messageSize(envelope(all))
                    == (try SDKStyleEncoding.trackSize(name: "e", properties: handed)))
        }

        /// The issue's two events: 30,000 bytes by the compact measure, more than 32 KB on the wire.
        @Test(arguments: ["slashes", "doubles"])
        func anEventTheSDKWouldWriteOverTheLimitIsDroppedBeforeTheSDK(_ kind: String) throws {
            let properties: [String: PropertyValue]
            switch kind {
            case "slashes":
                // URLs: one slash in ten characters.
                properties = ["blob": .string(String(repeating: "https://a/", count: 2_997))]
            default:
                // 330 doubles the SDK writes in 101 digits each, and Tally as `1e+100`.
                properties = ["list": .array(Array(repeating: 1e100, count: 330) + ["x"])]
            }
            let event = Event("e", properties)
            var writer = JSONWriter()
            writer.writeObject(["type": "track", "event": "e", "properties": .object(properties)])
            let compact = writer.bytes.count
            let calls = SegmentCalls()
            let measured = SegmentDestination.messageSize(envelope(event))
            let delivery = deliver(event, to: SegmentDestination(adapter: calls))
            let wire = try SDKStyleEncoding.trackSize(name: "e", properties: properties.foundationValue)
            #expect(compact <= 32_768 - 2_048)
            #expect(wire > 32_768 - 2_048)
            #expect(measured == wire)
            #expect(calls.tracks.isEmpty)
            #expect(delivery.thrown?.outcome == .dropped)
            #expect(
                delivery.thrown?.message.contains("would be \(wire) bytes of JSON as Segment's SDK writes it") == true)
        }

        // MARK: Integers beyond 2^53

        @Test func anIntegerTheSDKWouldChangeIsSentAsTheSDKSendsItAndReported() throws {
            let values: [String: PropertyValue] = [
                "above": .int(9_007_199_254_740_993), "max": .int(Int.max), "exact": .int(9_007_199_254_740_992),
                "small": .int(12),
            ]
            let calls = SegmentCalls()
            let delivery = deliver(Event("ids", values), to: SegmentDestination(adapter: calls))
            let raw = try #require(calls.tracks.first?.properties)
            let handed = typedProperties(raw)
            // What Tally hands over is what the SDK sends: its own conversion changes nothing more.
            for (key, value) in raw {
                guard case .number(let sent) = SDKStyleEncoding.JSON(value) else {
                    Issue.record("\(key) is not a number to the SDK")
                    continue
                }
                #expect(sent.description == handed[key]?.jsonString, "\(key)")
            }
            let changed = values.keys.filter { handed[$0] != values[$0] }.sorted()
            #expect(delivery.problems.map(\.path) == changed.map { "/properties/" + $0 })
            for problem in delivery.problems {
                #expect(problem.code == .vendorLimit)
                #expect(problem.outcome == .sanitized)
                #expect(problem.message.contains("send identifiers this large as strings"))
            }
            #expect(handed["small"] == 12)
            #expect(handed["exact"] == .int(9_007_199_254_740_992))
            #if os(Linux)
            // swift-corelibs-foundation's `NSNumber.decimalValue` goes through a double.
            #expect(handed["above"] == .int(9_007_199_254_740_992))
            #expect(handed["max"] == .bigNumber(BigNumber("9223372036854775808")!))
            #expect(changed == ["above", "max"])
            #expect(
                delivery.problems.first?.message
                    == "Segment: its SDK sends 9007199254740993 as 9007199254740992 (a double holds integers exactly only up to 2^53); it was converted to 9007199254740992, so that what Tally reports is what Segment receives: send identifiers this large as strings"
            )
            #endif
        }

        // MARK: Trait paths

        @Test func problemsAboutTraitsNameTraitPaths() {
            let identify = deliver(
                .identify(userId: "user-42", traits: ["score": 1e200]), to: SegmentDestination(adapter: SegmentCalls()))
            #expect(identify.problems.map(\.path) == ["/traits/score"])
            let group = deliver(
                .group("acme", traits: ["sizes": [1.0, 1e300]]), to: SegmentDestination(adapter: SegmentCalls()))
            #expect(group.problems.map(\.path) == ["/traits/sizes/1"])
            let track = deliver(Event("e", ["score": 1e200]), to: SegmentDestination(adapter: SegmentCalls()))
            #expect(track.problems.map(\.path) == ["/properties/score"])
        }

        // MARK: The SDK's errorHandler

        @Test func aRefusedBatchIsReportedWithTheEventsHandedOverSinceThePreviousOne() async {
            let errors = SegmentErrorReporter()
            let analytics = AnalyticsClient(destinations: [SegmentDestination(adapter: SegmentCalls(), errors: errors)])
            analytics.track("first")
            analytics.track("second")
            analytics.identify(userId: "user-42")
            await analytics.flush()
            errors.report(StandInAnalyticsError.networkServerRejected(URL(string: "https://api.segment.io/v1/b"), 400))
            analytics.track("third")
            await analytics.flush()
            errors.report(
                StandInAnalyticsError.batchUploadFail(StandInAnalyticsError.networkServerRejected(nil, 0)))
            errors.report(StandInAnalyticsError.networkServerLimited(nil, 429))
            let problems = analytics.statistics.recentProblems
            #expect(
                problems.map(\.message) == [
                    "Segment's API refused a batch with HTTP 400, and Segment's SDK deleted it; it held some of the 3 events handed to the SDK since the previous one: first, second, identify user-42",
                    "Segment's API refused a batch after retrying it too long, and Segment's SDK deleted it; it held some of the 1 event handed to the SDK since the previous one: third",
                    "Segment's SDK reported an error: networkServerLimited(nil, 429)",
                ])
            #expect(problems.map(\.outcome) == [.dropped, .dropped, .reported])
            #expect(problems.allSatisfy { $0.code == .destinationFailed && $0.destination == "segment" })
            await analytics.shutdown()
        }

        @Test func anErrorBeforeTheFirstEventIsReportedWithIt() async {
            let errors = SegmentErrorReporter()
            errors.report(StandInAnalyticsError.settingsFail(StandInAnalyticsError.networkServerLimited(nil, 503)))
            for _ in 0..<SegmentErrorReporter.maximumWaiting + 2 {
                errors.report(StandInAnalyticsError.networkServerLimited(nil, 503))
            }
            let analytics = AnalyticsClient(destinations: [SegmentDestination(adapter: SegmentCalls(), errors: errors)])
            analytics.track("first")
            await analytics.flush()
            let problems = analytics.statistics.recentProblems
            #expect(problems.count == SegmentErrorReporter.maximumWaiting + 1)
            #expect(problems.first?.message.hasPrefix("Segment's SDK reported an error: settingsFail(") == true)
            #expect(
                problems.last?.message
                    == "Segment's SDK reported 3 more errors before the first event; they were not kept")
            await analytics.shutdown()
        }

        @Test func theStatusIsFoundInsideWrappingCases() {
            #expect(
                SegmentErrorReporter.rejectedStatus(in: StandInAnalyticsError.networkServerRejected(nil, 413)) == 413)
            #expect(
                SegmentErrorReporter.rejectedStatus(
                    in: StandInAnalyticsError.batchUploadFail(.networkServerRejected(nil, 400))) == 400)
            #expect(
                SegmentErrorReporter.rejectedStatus(in: StandInAnalyticsError.networkServerLimited(nil, 429)) == nil)
            #expect(SegmentErrorReporter.rejectedStatus(in: CocoaError(.fileNoSuchFile)) == nil)
        }
    }
}
