import Foundation
import Tally
import Testing

/// The rules for names, ids and property keys: control characters, invisible characters and the limit in
/// bytes (see `InputLimits`, "Control and invisible characters").
struct NameRulesTests {
    let limits = InputLimits()

    static let controlCharacters: [Unicode.Scalar] = [
        "\u{0}", "\u{9}", "\u{A}", "\u{1B}", "\u{7F}", "\u{85}", "\u{2028}",
    ]
    static let invisibleCharacters: [Unicode.Scalar] = [
        "\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}", "\u{FEFF}", "\u{AD}", "\u{202E}", "\u{FE0F}", "\u{E0041}",
        "\u{3164}",
    ]

    @Test(arguments: controlCharacters)
    func namesWithAControlCharacterAreDropped(character: Unicode.Scalar) throws {
        let (event, problems) = limits.sanitize(Event("menu\(Character(character))ordered"))
        #expect(event == nil)
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(problem.code == .invalidName)
        #expect(problem.outcome == .dropped)
        #expect(problem.message.contains("a control character (U+"))
        // The problem shows the character escaped, never raw.
        #expect(problem.eventName?.unicodeScalars.contains(character) == false)
    }

    @Test(arguments: invisibleCharacters)
    func namesWithAnInvisibleCharacterAreDropped(character: Unicode.Scalar) throws {
        let (event, problems) = limits.sanitize(Event("menu_item\(Character(character))_ordered"))
        #expect(event == nil)
        #expect(problems.map(\.code) == [.invalidName])
        #expect(problems.first?.message.contains("an invisible character (U+") == true)
    }

    @Test func theRuleSaysWhichCharacter() throws {
        let (_, problems) = limits.sanitize(Event("a\u{0}b"))
        #expect(problems.first?.message == "The event name holds a control character (U+0000); names and ids may not")
        #expect(problems.first?.eventName == "a\\u{0}b")
        let (_, invisible) = limits.sanitize(Event("a\u{200B}b"))
        #expect(
            invisible.first?.message == "The event name holds an invisible character (U+200B); names and ids may not")
    }

    @Test func idsFollowTheSameRules() {
        #expect(limits.sanitize(.identify(userId: "user\u{200B}42")).event == nil)
        #expect(limits.sanitize(.alias("user\u{0}")).event == nil)
        #expect(limits.sanitize(.group("acme\u{FEFF}")).event == nil)
        #expect(limits.sanitize(.identify(userId: String(repeating: "u", count: 257))).event == nil)
        #expect(limits.sanitize(.identify(userId: "user-42")).event != nil)
    }

    @Test func visibleNonASCIINamesPass() {
        for name in ["café_visited", "注文_完了", "заказ", "menu item ordered", "a\u{0301}"] {
            #expect(limits.sanitize(Event(name)).problems.isEmpty, "\(name)")
        }
    }

    @Test func whitespaceOnlyNamesAreEmptyNotInvalid() {
        #expect(limits.sanitize(Event("\n\t ")).problems.map(\.code) == [.emptyName])
        #expect(limits.sanitize(Event("\u{3000}")).problems.map(\.code) == [.emptyName])
    }

    @Test func keysWithAControlOrInvisibleCharacterAreRemoved() throws {
        let (event, problems) = limits.sanitize(
            Event("e", ["ok": 1, "tab\tkey": 2, "zero\u{200B}width": 3, "nested": ["in\u{0}ner": 4, "fine": 5]]))
        #expect(event?.properties == ["ok": 1, "nested": ["fine": 5]])
        #expect(problems.map(\.code) == [.invalidPropertyKey, .invalidPropertyKey, .invalidPropertyKey])
        #expect(problems.allSatisfy { $0.outcome == .sanitized })
        #expect(
            Set(problems.compactMap(\.path)) == [
                "/properties/tab\\u{9}key", "/properties/zero\\u{200B}width", "/properties/nested/in\\u{0}ner",
            ])
    }

    @Test func keysOverTheByteLimitAreRemoved() throws {
        let long = String(repeating: "k", count: 257)
        let (event, problems) = limits.sanitize(Event("e", [long: 1, "short": 2]))
        #expect(event?.properties == ["short": 2])
        #expect(problems.map(\.code) == [.invalidPropertyKey])
        #expect(problems.first?.message.contains("has 257 UTF-8 bytes; at most 256 are allowed") == true)
        // Exactly at the limit passes.
        #expect(limits.sanitize(Event("e", [String(repeating: "k", count: 256): 1])).problems.isEmpty)
    }

    @Test func stringValuesMayHoldAnyCharacter() {
        let event = Event("e", ["note": "line one\nline two\u{0}\u{200B}"])
        #expect(limits.sanitize(event).event == event)
    }

    @Test func aDroppedIdentifyChangesNobodysId() async {
        let store = InMemoryIdentityStore(Identity(anonymousId: "anon"))
        let analytics = AnalyticsClient(destinations: [], configuration: .init(identityStore: store))
        analytics.identify(userId: "user\u{200B}")
        await analytics.flush()
        #expect(analytics.identity.userId == nil)
        #expect(analytics.statistics.dropped[.invalidEvent] == 1)
    }
}
