import Foundation
import Tally
import TallyPlan
import TallyTestSupport
import Testing

/// One nesting limit, `PropertyValue.maximumDepth` (64), on every path that reads or writes a value: each is
/// tried at 10,000 levels on a thread with a 512 KiB stack (a secondary thread's on Apple platforms), and at
/// the limit itself.
struct NestingTests {
    static let depth = 10_000

    /// A value whose arrays and objects alternate `depth` levels deep, with `leaf` at the bottom.
    static func deep(_ depth: Int, leaf: PropertyValue = 1) -> PropertyValue {
        var value = leaf
        for level in 0..<depth { value = level % 2 == 0 ? .array([value]) : .object(["k": value]) }
        return value
    }

    /// JSON text of `deep(depth)`, built without building the value.
    static func deepJSON(_ depth: Int) -> String {
        var open = "", close = ""
        for level in (0..<depth).reversed() {
            open += level % 2 == 0 ? "[" : #"{"k":"#
            close += level % 2 == 0 ? "]" : "}"
        }
        return open + "1" + String(close.reversed())
    }

    /// Builds `deep(depth)` on a large stack, runs `body` with it on a 512 KiB stack, and releases the value
    /// on the large stack again (releasing a value recurses once per level).
    static func withDeepValue<Result: Sendable>(
        _ depth: Int = depth, _ body: @escaping @Sendable (PropertyValue) -> Result
    ) async -> (result: Result, stackUsed: Int) {
        await onSmallStack(largeStackBytes) {
            let value = deep(depth)
            return runOnThread(stackBytes: smallStackBytes) { body(value) }
        }.result
    }

    @Test func theHelpersBuildWhatTheyClaim() throws {
        #expect(try PropertyValue(json: Self.deepJSON(3)) == Self.deep(3))
        #expect(Self.deep(64).jsonString == Self.deepJSON(64))
    }

    // MARK: The JSON codec

    @Test func readingJSONRefusesDeepInputOnASmallStack() async {
        let text = Self.deepJSON(Self.depth)
        let (message, used) = await onSmallStack {
            do {
                _ = try PropertyValue(json: text)
                return "read"
            } catch {
                return "\(error)"
            }
        }
        #expect(message == "Nesting deeper than 64 levels (at byte 192)")
        #expect(used < smallStackBytes / 2)
    }

    @Test func readingJSONKeepsExactly64Levels() throws {
        #expect(try PropertyValue(json: Self.deepJSON(64)) == Self.deep(64))
        #expect(throws: JSONError.self) { try PropertyValue(json: Self.deepJSON(65)) }
    }

    @Test func writingJSONCutsPast64LevelsOnASmallStack() async throws {
        let (text, used) = await Self.withDeepValue { $0.jsonString }
        #expect(used < smallStackBytes / 2)
        // The container at level 65 is written as null; the text reads back.
        let expected = Self.deepJSON(64).replacingOccurrences(of: "[1]", with: "[null]")
        #expect(text.count == expected.count)
        let read = try PropertyValue(json: text)
        #expect(!read.nests(deeperThan: 64))
        #expect(read.nests(deeperThan: 63))
    }

    // MARK: Codable

    @Test func encodingRefusesDeepValuesOnASmallStack() async {
        let (message, used) = await Self.withDeepValue { value in
            do {
                _ = try JSONEncoder().encode(value)
                return "encoded"
            } catch {
                return "\(error)"
            }
        }
        #expect(
            message.contains("Arrays and objects nest deeper than 64 levels (PropertyValue.maximumDepth)"), "\(message)"
        )
        #expect(used < smallStackBytes)
    }

    @Test func decodingRefusesDeepJSONOnASmallStack() async {
        let data = Data(Self.deepJSON(Self.depth).utf8)
        let (refused, used) = await onSmallStack {
            (try? JSONDecoder().decode(PropertyValue.self, from: data)) == nil
        }
        #expect(refused)
        #expect(used < smallStackBytes)
        // Deep enough for Foundation's parser, too deep for the limit: refused by the rule, with its path.
        do {
            _ = try JSONDecoder().decode(PropertyValue.self, from: Data(Self.deepJSON(100).utf8))
            Issue.record("decoded 100 levels")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(
                context.debugDescription == "Arrays and objects nest deeper than 64 levels (PropertyValue.maximumDepth)"
            )
            #expect(context.codingPath.count == 64)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func codableKeepsExactly64LevelsInsideOtherTypes() throws {
        let event = Event("e", ["p": Self.deep(64)])
        #expect(try JSONDecoder().decode(Event.self, from: JSONEncoder().encode(event)) == event)
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(Event("e", ["p": Self.deep(65)])) }
    }

    // MARK: Foundation values

    @Test func foundationConversionsRefuseOrCutPast64Levels() async {
        // Built and released on the large stack: releasing nested Foundation arrays recurses too.
        let ((converted, cut), used) = await onSmallStack(largeStackBytes) { () -> ((Bool, Bool), Int) in
            var any: Any = 1
            for _ in 0..<Self.depth { any = [any] }
            let value = Self.deep(Self.depth)
            return runOnThread(stackBytes: smallStackBytes) { () -> (Bool, Bool) in
                Self.convert(any, value)
            }
        }.result
        #expect(!converted)
        #expect(cut)
        #expect(used < smallStackBytes)
        var any: Any = 1
        for _ in 0..<64 { any = [any] }
        #expect(PropertyValue(any: any) != nil)
    }

    /// Whether `any` converts, and whether `value`'s Foundation form is cut to `NSNull` at level 65.
    private static func convert(_ any: Any, _ value: PropertyValue) -> (Bool, Bool) {
        do {
            let converted = PropertyValue(any: any) != nil
            var level = 0
            var current: Any = value.foundationValue
            while true {
                if let array = current as? [Any], let first = array.first {
                    current = first
                } else if let object = current as? [String: Any], let first = object["k"] {
                    current = first
                } else {
                    break
                }
                level += 1
            }
            return (converted, level == 64 && current is NSNull)
        }
    }

    // MARK: Comparing and hashing

    @Test func comparingAndHashingDeepValuesStayOnASmallStack() async {
        let ((equal, differs, hashed), used) = await onSmallStack(largeStackBytes) {
            let a = Self.deep(Self.depth)
            let b = Self.deep(Self.depth)
            let c = Self.deep(Self.depth, leaf: 2)
            return runOnThread(stackBytes: smallStackBytes) { (a == b, a != c, a.hashValue == b.hashValue) }
        }.result
        #expect(equal)
        #expect(differs)
        #expect(hashed)
        #expect(used < smallStackBytes / 2)
    }

    // MARK: The client's input limits

    @Test func inputLimitsCannotExceedTheLimit() {
        #expect(InputLimits(maximumDepth: 600).maximumDepth == 64)
        var limits = InputLimits()
        limits.maximumDepth = 10_000
        #expect(limits.maximumDepth == 64)
        limits.maximumDepth = -1
        #expect(limits.maximumDepth == 0)
    }

    @Test func inputLimitsCutDeepValuesOnASmallStack() async {
        let ((kept, problems), used) = await Self.withDeepValue { value -> (PropertyValue?, [Problem]) in
            let (event, problems) = InputLimits(maximumDepth: 600).sanitize(Event("deep", ["p": value]))
            return (event?.properties["p"], problems)
        }
        #expect(used < smallStackBytes / 2)
        #expect(kept.map { !$0.nests(deeperThan: 64) && $0.nests(deeperThan: 63) } == true)
        #expect(problems.map(\.code) == [.nestingTooDeep])
        // What the client delivers, every reader reads.
        #expect(kept.flatMap { try? PropertyValue(json: $0.jsonString) } == kept)
    }

    // MARK: Recordings

    @Test func recordLinesOfDeepValuesAreRefusedOnASmallStack() async {
        let line = Array(
            (#"{"tally_record":1,"kind":"track","name":"deep","properties":{"p":"# + Self.deepJSON(Self.depth) + "}}")
                .utf8)
        let (messages, used) = await onSmallStack { () -> [String] in
            var messages: [String] = []
            do {
                _ = try Record(line: line)
                messages.append("read")
            } catch {
                messages.append((error as? RecordError)?.message ?? "\(error)")
            }
            let eventOnly: Result<Event, RecordError> = line.withUnsafeBufferPointer { buffer in
                Result { () throws(RecordError) in try Record.event(fromLine: buffer) }
            }
            switch eventOnly {
            case .success: messages.append("read")
            case .failure(let error): messages.append(error.message)
            }
            return messages
        }
        #expect(messages.allSatisfy { $0.hasPrefix("Not valid JSON: Nesting deeper than 64 levels") }, "\(messages)")
        #expect(used < smallStackBytes / 2)
    }

    @Test func aRecordingWithADeepLineReadsTheLinesAroundIt() {
        let good =
            Array(#"{"tally_record":1,"kind":"track","name":"ok","properties":{"p":"#.utf8)
            + Array(Self.deepJSON(64).utf8) + Array("}}\n".utf8)
        let deep =
            Array(#"{"tally_record":1,"kind":"track","name":"deep","properties":{"p":"#.utf8)
            + Array(Self.deepJSON(65).utf8) + Array("}}\n".utf8)
        let file = RecordingFile(bytes: good + deep + good, file: "deep.jsonl")
        #expect(file.records.map(\.event.name) == ["ok", "ok"])
        #expect(
            file.problems.map(\.description) == [
                "deep.jsonl:2: Not valid JSON: Nesting deeper than 64 levels (at byte 257)"
            ])
    }

    @Test func theRecordingWriterCutsDeepValuesOnASmallStackAndReportsThem() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("deep.jsonl")
        let destination = RecordingDestination(sink: try FileRecordingSink(url: url), source: "test")
        let ((thrown, problems), used) = await Self.withDeepValue { value -> (Bool, [Problem]) in
            let problems = Locked<[Problem]>([])
            let context = DestinationContext(destination: "recording") { problem in
                problems.withLock { $0.append(problem) }
            }
            let envelope = Envelope(
                event: Event("deep", ["p": value]), messageId: MessageID(prefix: 1, sequence: 1),
                timestamp: Date(timeIntervalSince1970: 0), anonymousId: "a")
            let thrown = (try? destination.receive(envelope, context: context)) == nil
            return (thrown, problems.withLock { $0 })
        }
        #expect(!thrown)
        #expect(used < smallStackBytes / 2)
        #expect(problems.map(\.code) == [.nestingTooDeep])
        let file = try RecordingFile(contentsOf: url)
        #expect(file.problems.isEmpty)
        #expect(file.records.first?.event.properties["p"].map { !$0.nests(deeperThan: 64) } == true)
    }
}
