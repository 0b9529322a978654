import Tally
import TallyTestSupport
import TallyTesting
import Testing

/// `.event(_:)` rejects most events by a summary of their values before comparing them in full (see
/// PropertySummary); it must still agree with `==` on every pair.
struct EventMatcherEqualityTests {
    @Test func valuesEqualUnderEqualityMatchEvenWithDifferentBits() {
        // "é" as one scalar and as "e" plus a combining accent are equal strings with different bytes;
        // -0.0 equals 0.0 with a different bit pattern.
        let recorded = Event("e", ["text": "caf\u{E9}", "zero": .double(-0.0)])
        let expected = Event("e", ["text": "cafe\u{301}", "zero": .double(0.0)])
        #expect(recorded == expected)
        #expect(EventMatcher.event(expected).matches(recorded))
        // A key can be ASCII in one event and not in the other: the Kelvin sign is canonically "K".
        let kelvin = Event("e", ["\u{212A}": 1])
        #expect(kelvin == Event("e", ["K": 1]))
        #expect(EventMatcher.event(Event("e", ["K": 1])).matches(kelvin))
        #expect(EventMatcher.event(kelvin).matches(Event("e", ["K": 1])))
    }

    @Test func theSameValuesUnderOtherKeysDoNotMatch() {
        let matcher = EventMatcher.event(Event("e", ["a": 1, "b": "x"]))
        #expect(!matcher.matches(Event("e", ["a": "x", "b": 1])))
        #expect(!matcher.matches(Event("e", ["a": 1, "c": "x"])))
        #expect(matcher.matches(Event("e", ["b": "x", "a": 1])))
    }

    @Test func kindsOfValueAreNotConfused() {
        #expect(!EventMatcher.event(Event("e", ["n": .int(1)])).matches(Event("e", ["n": .double(1)])))
        #expect(!EventMatcher.event(Event("e", ["l": [1, 2]])).matches(Event("e", ["l": [2, 3]])))
        #expect(!EventMatcher.event(Event("e", ["o": ["k": 1]])).matches(Event("e", ["o": ["k": 2]])))
        #expect(!EventMatcher.event(Event("e", ["s": "a"])).matches(Event("e", ["s": "b"])))
        #expect(!EventMatcher.event(Event("e")).matches(Event.screen("e")))
    }

    @Test func agreesWithEqualityOnManyGeneratedPairs() {
        var generator = SplitMix64(seed: 2026)
        func pick<T>(_ choices: [T]) -> T { choices[Int(generator.next() % UInt64(choices.count))] }
        // Keys and strings of 0 to 17 bytes, across the summary's 8-byte words, some with a "K" or an "é"
        // that `respell` writes another way.
        let strings = [
            "", "a", "K", "caf\u{E9}", "12345678", "123456789", "Pizza Margherita", "Pizza Margheritas",
            "Pizza Marinara K", "Pizza caf\u{E9}",
        ]
        let values: [PropertyValue] =
            [.int(0), .int(1), .double(0), .double(-0.0), .double(1), .bool(true), .bool(false), .null]
            + [[1], [1, 2], ["k": 1], ["k": 2]] + strings.map { .string($0) }
        let keys = ["a", "K", "item_nam", "item_name", "category_of_item", "category_of_items", "Kind_of_caf\u{E9}"]
        func properties() -> [String: PropertyValue] {
            var result: [String: PropertyValue] = [:]
            for key in keys where generator.next() % 2 == 0 { result[key] = pick(values) }
            return result
        }
        var equalPairs = 0
        for _ in 0..<20_000 {
            let expected = properties()
            var recorded: [String: PropertyValue] = [:]
            switch generator.next() % 3 {
            case 0: recorded = properties()
            case 1:  // the same properties, some respelled
                for (key, value) in expected {
                    let other = generator.next() % 2 == 0
                    recorded[other ? respell(key) : key] = other ? respell(value) : value
                }
            default:  // respelled, then one value changed
                for (key, value) in expected { recorded[respell(key)] = respell(value) }
                if let key = recorded.keys.first { recorded[key] = pick(values) }
            }
            let equal = Event("e", expected) == Event("e", recorded)
            if equal { equalPairs += 1 }
            #expect(
                EventMatcher.event(Event("e", expected)).matches(Event("e", recorded)) == equal,
                "\(expected) vs \(recorded)")
        }
        #expect(equalPairs > 5_000)  // about a third of the pairs are equal, most of them respelled
    }
}

/// An equal string spelled differently, in new storage: the Kelvin sign for "K" and back, "e" with a
/// combining accent for "é".
func respell(_ string: String) -> String {
    var result = String.UnicodeScalarView()
    for scalar in string.unicodeScalars {
        switch scalar {
        case "K": result.append("\u{212A}")
        case "\u{212A}": result.append("K")
        case "\u{E9}": result.append(contentsOf: "e\u{301}".unicodeScalars)
        default: result.append(scalar)
        }
    }
    return String(result)
}

/// An equal value spelled differently: strings respelled, `-0.0` for `0.0` and back.
func respell(_ value: PropertyValue) -> PropertyValue {
    switch value {
    case .string(let string): .string(respell(string))
    case .double(let double) where double == 0: .double(double.sign == .minus ? 0.0 : -0.0)
    default: value
    }
}
