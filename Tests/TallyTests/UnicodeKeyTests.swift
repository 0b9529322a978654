import Tally
import Testing

/// JSON keys are compared by code points; Swift's `String` equates canonically equivalent ones. An object whose
/// keys differ only in normalization cannot be held by a dictionary, so reading it fails instead of merging.
struct UnicodeKeyTests {
    @Test func keysThatDifferOnlyInNormalizationAreRefused() throws {
        let text = "{\"caf\u{E9}\": 1, \"cafe\u{301}\": 2}"
        #expect(
            throws: JSONError(
                #"The object has keys "caf\u{E9}" and "cafe\u{301}", which differ only in Unicode normalization; an event cannot hold both"#,
                offset: 13)
        ) {
            try PropertyValue(json: text)
        }
        #expect(throws: JSONError.self) { try PropertyValue(json: "[{\"a\": {\"\u{C5}\": 1, \"A\u{30A}\": 2}}]") }
    }

    @Test func aRepeatedKeyKeepsItsLastValue() throws {
        #expect(try PropertyValue(json: #"{"a": 1, "a": 2}"#) == ["a": 2])
        #expect(try PropertyValue(json: "{\"caf\u{E9}\": 1, \"caf\u{E9}\": 2}") == ["caf\u{E9}": 2])
    }

    @Test func eitherSpellingAloneIsKeptAsWritten() throws {
        let decomposed = try PropertyValue(json: "{\"cafe\u{301}\": 1}")
        let key = try #require(decomposed.objectValue?.keys.first)
        #expect(Array(key.unicodeScalars) == Array("cafe\u{301}".unicodeScalars))
        #expect(decomposed.jsonString == "{\"cafe\u{301}\":1}")
    }
}

/// Found by fuzzing (Fuzz/FuzzJSON, issue 34): keys were sorted with `String`'s `<`, under which neither of
/// "caf\u{E9}8" and "cafe\u{301}" is below the other, so the same object could be written in two orders and
/// text written, read and written again changed.
struct UnicodeKeyOrderTests {
    @Test func keysOfBothNormalizationFormsAreWrittenInOneOrderWhateverTheirSpellingInTheInput() throws {
        // The first key by an escape (precomposed U+00E9), the second decomposed (e and U+0301).
        let value = try PropertyValue(json: #"{"caf\u00e98": 1, "cafe\u0301": 2}"#)
        let written = value.jsonString
        // Compared byte for byte: `String`'s == equates the two spellings of é.
        #expect(Array(written.utf8) == Array("{\"cafe\u{301}\":2,\"caf\u{E9}8\":1}".utf8))
        #expect(Array(try PropertyValue(json: written).jsonString.utf8) == Array(written.utf8))
        let reversed = try PropertyValue(json: "{\"cafe\u{301}\": 2, \"caf\u{E9}8\": 1}")
        #expect(Array(reversed.jsonString.utf8) == Array(written.utf8))
    }
}
