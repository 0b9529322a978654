import Foundation
import Tally
import TallyTesting
import Testing

/// The worker's shortcuts for what it has just checked (issue 39): the last name the input limits accepted,
/// the last purpose's consent answer, and the word-at-a-time scan of names and keys. Each must give exactly
/// the answer of the full check.
@Suite struct WorkerShortcutTests {
    let limits = InputLimits()

    // MARK: The last accepted name

    @Test func aNameAcceptedBeforeSkipsTheRulesAndABadOneAfterItIsStillDropped() {
        var validName: String?
        var problems: [Problem] = []
        var first = Event("menu_item_ordered")
        #expect(limits.apply(to: &first, validName: &validName) { problems.append($0) })
        #expect(validName == "menu_item_ordered")

        // The same name built at run time (other storage, same text) passes too.
        var again = Event(String(["menu", "item", "ordered"].joined(separator: "_")))
        #expect(limits.apply(to: &again, validName: &validName) { problems.append($0) })

        var bad = Event("menu\u{200B}ordered")
        #expect(!limits.apply(to: &bad, validName: &validName) { problems.append($0) })
        #expect(problems.map(\.code) == [.invalidName])
        #expect(validName == "menu_item_ordered")

        // An identify event's id is checked whatever the last name was, and does not replace it.
        var identify = Event.identify(userId: "menu_item_ordered\u{0}")
        #expect(!limits.apply(to: &identify, validName: &validName) { problems.append($0) })
        #expect(validName == "menu_item_ordered")
    }

    /// Swift's `==` holds a composed and a decomposed "é" equal; the rules count bytes, so a name one byte
    /// over the limit must not pass for the accepted name it equals.
    @Test func aCanonicallyEqualNameWithMoreBytesIsCheckedAgain() {
        let composed = "caf\u{E9}"  // 5 bytes
        let decomposed = "cafe\u{301}"  // 6 bytes
        #expect(composed == decomposed)
        let limits = InputLimits(maximumNameBytes: 5)
        var validName: String?
        var problems: [Problem] = []
        var first = Event(composed)
        #expect(limits.apply(to: &first, validName: &validName) { problems.append($0) })
        var second = Event(decomposed)
        #expect(!limits.apply(to: &second, validName: &validName) { problems.append($0) })
        #expect(problems.map(\.code) == [.nameTooLong])
    }

    /// The shortcut compares the bytes at once (`memcmp`): a name of the accepted name's length that differs
    /// in any one byte, small (inline) or not, is checked in full; one with the same bytes in other storage
    /// skips the check.
    @Test func aNameOfTheSameLengthDifferingInAnyByteIsCheckedAgain() {
        for accepted in ["menu_item_ordered", "open", "a_name_of_more_than_thirty_two_bytes_in_all"] {
            let bytes = Array(accepted.utf8)
            for position in bytes.indices {
                var validName: String?
                var problems: [Problem] = []
                var first = Event(accepted)
                #expect(limits.apply(to: &first, validName: &validName) { problems.append($0) })
                var changed = bytes
                changed[position] = 0x07  // a control character: the name rules drop it
                var bad = Event(String(decoding: changed, as: UTF8.self))
                #expect(!limits.apply(to: &bad, validName: &validName) { problems.append($0) })
                #expect(problems.map(\.code) == [.invalidName], "\(accepted) at \(position)")
                var same = Event(String(decoding: bytes, as: UTF8.self))
                #expect(limits.apply(to: &same, validName: &validName) { problems.append($0) })
                #expect(validName == accepted)
            }
        }
    }

    @Test func theClientDropsABadNameBetweenTwoGoodOnes() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory])
        analytics.track("opened")
        analytics.track("opened\u{7F}")
        analytics.track("opened")
        analytics.track("   ")
        analytics.track("opened")
        await analytics.flush()
        #expect(memory.events.map(\.name) == ["opened", "opened", "opened"])
        #expect(analytics.statistics.dropped == [.invalidEvent: 2])
        #expect(analytics.statistics.recentProblems.map(\.code) == [.invalidName, .emptyName])
    }

    // MARK: The last purpose's answer

    @Test func eachAnswerAppliesToTheEventsAfterItWhateverTheLastPurposeWas() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(
            destinations: [memory], configuration: .init(consentRequired: [.analytics]))
        analytics.setConsent(.granted, for: .analytics)
        analytics.track("first")
        analytics.track(Event("ad_shown").needing(.advertising))
        analytics.track("second")
        analytics.setConsent(.denied, for: .analytics)
        analytics.track("third")
        analytics.track(Event("ad_clicked").needing(.advertising))
        analytics.setConsent(.granted, for: .analytics)
        analytics.setConsent(.denied, for: .advertising)
        analytics.track("fourth")
        analytics.track(Event("ad_closed").needing(.advertising))
        await analytics.flush()
        #expect(memory.events.map(\.name) == ["first", "ad_shown", "second", "ad_clicked", "fourth"])
        #expect(memory.envelopes.map(\.consent) == [.granted, .notRequired, .granted, .notRequired, .granted])
        #expect(analytics.statistics.dropped == [.consentDenied: 2])
    }

    // MARK: The scan of names and keys

    /// Every length from 1 to 40 bytes, with each kind of bad byte at every position: the scan reads words
    /// that overlap, and a bad byte anywhere must still be found.
    @Test(arguments: ["\u{0}", "\u{1F}", "\u{7F}", "é", "\u{200B}"])
    func aBadCharacterAtAnyPositionOfAKeyOfAnyLengthIsFound(bad: String) {
        for length in 1...40 {
            let good = String(repeating: "k", count: length)
            #expect(limits.sanitize(Event("e", [good: 1])).event?.properties.count == 1)
            for position in 0..<length {
                var key = Array(good)
                key[position] = Character(bad)
                let text = String(key)
                let (event, _) = limits.sanitize(Event("e", [text: 1]))
                // "é" is a fine character in a key; the others are not.
                let expected = bad == "é" ? 1 : 0
                #expect(event?.properties.count == expected, "key of \(length) characters, bad at \(position)")
            }
        }
    }

    /// A name of spaces is blank at every length, and one visible character anywhere makes it a name.
    @Test func aNameOfSpacesIsBlankAtEveryLengthAndOneLetterAnywhereMakesItAName() {
        for length in 1...40 {
            let spaces = String(repeating: " ", count: length)
            #expect(limits.sanitize(Event(spaces)).problems.map(\.code) == [.emptyName], "\(length) spaces")
            for position in 0..<length {
                var name = Array(spaces)
                name[position] = "a"
                #expect(limits.sanitize(Event(String(name))).event != nil, "\(length) bytes, a at \(position)")
            }
        }
    }
}
