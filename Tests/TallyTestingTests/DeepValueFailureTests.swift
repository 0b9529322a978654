import Foundation
import Tally
import TallyTestSupport
import Testing

@testable import TallyTesting

/// A failing expectation on values nested far past the limit: the diff is built within a small stack, and
/// the message shows the deep value as one line of JSON.
struct DeepValueFailureTests {
    /// A value whose arrays and objects alternate `depth` levels deep, with `leaf` at the bottom.
    static func deep(_ depth: Int, leaf: PropertyValue = 1) -> PropertyValue {
        var value = leaf
        for level in 0..<depth { value = level % 2 == 0 ? .array([value]) : .object(["k": value]) }
        return value
    }

    /// The message of a failed `expectTracked` of `expected` when `recorded` was tracked, built (matching,
    /// diff and all) on a 512 KiB stack; the values live and die on a large one.
    @Test func aFailureDiffOfValues10000DeepStaysOnASmallStack() async {
        let (message, used) = await onSmallStack(largeStackBytes) { () -> (String, Int) in
            let expected = Event("deep", ["p": Self.deep(10_000), "q": 1])
            let recorded = Event("deep", ["p": Self.deep(10_000, leaf: 2), "q": 2])
            return runOnThread(stackBytes: smallStackBytes) { () -> String in
                let matcher = EventMatcher.event(expected)
                precondition(!matcher.matches(recorded))
                return FailureReport.message(
                    "Expected deep to have been tracked.", matcher: matcher, recorded: [(0, recorded)])
            }
        }.result
        #expect(used < smallStackBytes)
        #expect(message.contains("Closest recorded event [0]: (-expected +recorded)"), "\(message)")
        // The value past the diff depth shows as one line of JSON, cut to null past 64 levels.
        let cut = Self.deep(64, leaf: nil).jsonString
        #expect(message.contains(#"      "p": "# + cut + ","), "\(message.prefix(3000))")
        #expect(message.contains(#"-     "q": 1"#))
        #expect(message.contains(#"+     "q": 2"#))
        #expect(message.contains(#"  [0] track deep {"p":"# + cut + #","q":2}"#))
    }

    @Test func shallowValuesStillDiffAsATree() {
        let spy = AnalyticsSpy()
        spy.track("nested", ["p": Self.deep(8, leaf: 2)])
        expectOneIssue(containing: [#""p": ["#, #""k": ["#, "[0]: 1", "[0]: 2"], atLine: #line + 1) {
            spy.expectTracked(Event("nested", ["p": Self.deep(8, leaf: 1)]))
        }
    }

    @Test func aFailingExpectationOnValues1000DeepReportsOnce() {
        let spy = AnalyticsSpy()
        spy.track("deep", ["p": Self.deep(1000, leaf: 2), "q": 2])
        expectOneIssue(
            containing: [
                #"Expected track deep {"p":{"k":[{"k":"#, "(-expected +recorded)", #""p": {"k":[{"k":"#,
                #"-     "q": 1"#,
                #"+     "q": 2"#,
            ],
            atLine: #line + 2
        ) {
            spy.expectTracked(Event("deep", ["p": Self.deep(1000), "q": 1]))
        }
    }
}
