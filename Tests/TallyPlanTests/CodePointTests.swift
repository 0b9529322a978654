import Foundation
import Tally
import TallyPlan
import Testing

/// Strings compare by Unicode code points, as JSON Schema says, never by Swift's canonical equivalence.
@Suite("Code point strings", .readsPlans)
struct CodePointTests {
    static let composed = "caf\u{E9}"  // é as one code point
    static let decomposed = "cafe\u{301}"  // e and a combining acute accent

    static let bothSpellings = """
        version: 1
        events:
          - name: e
            description: Two properties that look alike.
            properties:
              \(composed): { type: string }
              \(decomposed): { type: integer }
            required: [\(composed)]
        """

    @Test func theStringsAreCanonicallyEqualInSwift() {
        #expect(Self.composed == Self.decomposed)
        #expect(PropertyName(Self.composed) != PropertyName(Self.decomposed))
        #expect(Set([PropertyName(Self.composed), PropertyName(Self.decomposed)]).count == 2)
    }

    @Test func aPlanNamingBothSpellingsLoadsAndKeepsThemApart() throws {
        let result = PlanLoader.load(text: Self.bothSpellings, file: "plan.yaml")
        let plan = try result.get()
        let properties = try #require(plan.events.first?.properties)
        #expect(properties.count == 2)
        #expect(properties[PropertyName(Self.composed)]?.types == [.string])
        #expect(properties[PropertyName(Self.decomposed)]?.types == [.integer])
        #expect(plan.events.first?.required == [PropertyName(Self.composed)])
        // Lint says an event can carry only one of them.
        #expect(result.warnings.map(\.line) == [7])
    }

    @Test func aJSONPlanWithEscapedSpellingsLoadsToo() throws {
        let json = #"""
            {"version": 1, "events": [{"name": "e", "description": "d", "properties": {
              "caf\u00e9": {"type": "string"}, "cafe\u0301": {"type": "integer"}, "x": {"pattern": "\\u00e9"}}}]}
            """#
        let plan = try TrackingPlan(text: json, file: "plan.json")
        let properties = try #require(plan.events.first?.properties)
        #expect(properties.count == 3)
        #expect(properties[PropertyName(Self.decomposed)]?.types == [.integer])
        #expect(properties["x"]?.pattern == #"\u00e9"#)
    }

    @Test func surrogateEscapesAndBothSpellingsLoadTogether() throws {
        let json = #"""
            {"version": 1, "events": [{"name": "e", "description": "d", "properties": {
              "\ud83c\udf55 caf\u00e9": {"type": "string"}, "\ud83c\udf55 cafe\u0301": {"type": "integer"}}}]}
            """#
        let plan = try TrackingPlan(text: json, file: "plan.json")
        #expect(plan.events.first?.properties[PropertyName("\u{1F355} " + Self.decomposed)]?.types == [.integer])
        #expect(plan.events.first?.properties[PropertyName("\u{1F355} " + Self.composed)]?.types == [.string])
    }

    /// A backslash outside double quotes is a backslash: when quote counting goes wrong (a lone `"` in a plain
    /// scalar), the reader notices and masks characters only.
    @Test func escapesOutsideDoubleQuotesStayAsWritten() throws {
        let yaml = """
            version: 1
            events:
              - name: e
                description: a lone " in a plain scalar
                properties:
                  \(Self.composed): { pattern: ^\\u00e9$ }
                  \(Self.decomposed): {}
            """
        let plan = try TrackingPlan(text: yaml)
        #expect(plan.events.first?.properties[PropertyName(Self.composed)]?.pattern == #"^\u00e9$"#)
        #expect(plan.events.first?.properties.count == 2)
    }

    @Test func anObjectValueCannotHoldBothSpellings() {
        let result = PlanLoader.load(
            text: Self.bothSpellings.replacingOccurrences(
                of: "\(Self.decomposed): { type: integer }",
                with: "other: { const: { \(Self.composed): 1, \(Self.decomposed): 2 } }"),
            file: "plan.yaml")
        #expect(
            result.errors.map(\.message) == [
                "'\(Self.decomposed)' and '\(Self.composed)' differ only in Unicode normalization; an object value cannot hold both"
            ])
        #expect(result.errors.map(\.line) == [7])
    }

    @Test func keysRepeatedCodePointForCodePointAreStillAnError() {
        let text = Self.bothSpellings.replacingOccurrences(of: Self.decomposed, with: Self.composed)
        let result = PlanLoader.load(text: text, file: "plan.yaml")
        #expect(result.failureKind == .syntax)
        #expect(
            result.errors.first?.message
                == "The mapping starting here repeats the key '\(Self.composed)'; keys must be unique")
    }

    @Test func propertiesMatchOnlyTheirOwnSpelling() throws {
        let validator = PlanValidator(plan: try TrackingPlan(text: Self.bothSpellings))
        #expect(validator.validate(Event("e", [Self.composed: "text"])).isEmpty)
        let decomposedOnly = validator.validate(Event("e", [Self.decomposed: 5]))
        #expect(decomposedOnly.map(\.kind) == [.missingRequired])
        let wrongSpelling = validator.validate(Event("e", [Self.decomposed: "text"]))
        #expect(wrongSpelling.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.missingRequired, .wrongType])
    }

    @Test func undeclaredSpellingsAreUnexpected() throws {
        let plan = try Fixtures.singleProperty("{ type: string }")
        let validator = PlanValidator(plan: plan)
        let event = Event("e", ["p\u{301}": "x"])  // "p" with a combining accent is not "p"
        #expect(validator.validate(event).map(\.kind) == [.unexpectedProperty])
    }

    @Test func enumAndConstCompareCodePoints() throws {
        let enumPlan = try Fixtures.singleProperty("{ enum: [\(Self.composed)] }")
        #expect(PlanValidator(plan: enumPlan).validate(Event("e", ["p": .string(Self.composed)])).isEmpty)
        #expect(
            PlanValidator(plan: enumPlan).validate(Event("e", ["p": .string(Self.decomposed)])).map(\.kind) == [
                .notInEnum
            ])
        let mixed = try Fixtures.singleProperty("{ enum: [\(Self.composed), 1] }")
        #expect(
            PlanValidator(plan: mixed).validate(Event("e", ["p": .string(Self.decomposed)])).map(\.kind) == [.notInEnum]
        )
        let constPlan = try Fixtures.singleProperty("{ const: { k: \(Self.composed) } }")
        #expect(PlanValidator(plan: constPlan).validate(Event("e", ["p": ["k": .string(Self.decomposed)]])).count == 1)
        #expect(PlanValidator(plan: constPlan).validate(Event("e", ["p": ["k": .string(Self.composed)]])).isEmpty)
        let keyPlan = try Fixtures.singleProperty("{ const: { \(Self.composed): 1 } }")
        #expect(PlanValidator(plan: keyPlan).validate(Event("e", ["p": [Self.decomposed: 1]])).count == 1)
    }

    @Test func nestedRequiredMembersCompareCodePoints() throws {
        let plan = try Fixtures.singleProperty(
            "{ type: object, properties: { \(Self.composed): {} }, required: [\(Self.composed)] }")
        let validator = PlanValidator(plan: plan)
        #expect(validator.validate(Event("e", ["p": [Self.composed: 1]])).isEmpty)
        #expect(validator.validate(Event("e", ["p": [Self.decomposed: 1]])).map(\.kind) == [.missingRequired])
    }

    @Test func eventNamesCompareCodePoints() throws {
        let plan = try TrackingPlan(
            text:
                "version: 1\nevents:\n  - name: \(Self.composed)\n    description: d\n    additionalProperties: true\n")
        let validator = PlanValidator(plan: plan)
        #expect(validator.validate(Event(Self.composed)).isEmpty)
        #expect(validator.validate(Event(Self.decomposed)).map(\.kind) == [.unknownEvent])
        #expect(plan.event(named: Self.decomposed) == nil)
    }

    @Test func twoEventsWhoseNamesDifferOnlyInNormalizationAreBothPlanned() throws {
        let plan = try TrackingPlan(
            text: """
                version: 1
                events:
                  - { name: \(Self.composed), description: composed, properties: { a: { type: string } } }
                  - { name: \(Self.decomposed), description: decomposed, properties: { b: { type: string } } }
                """)
        let validator = PlanValidator(plan: plan)
        #expect(validator.validate(Event(Self.composed, ["a": "x"])).isEmpty)
        #expect(validator.validate(Event(Self.decomposed, ["b": "x"])).isEmpty)
        #expect(validator.validate(Event(Self.decomposed, ["a": "x"])).map(\.kind) == [.unexpectedProperty])
    }

    /// Past 16 bytes a fingerprint holds the length and the first and last eight bytes; the middle is compared.
    @Test func longNamesAndValuesDifferingInTheMiddleAreDifferent() throws {
        let name = "aaaaaaaaXbbbbbbbb"
        let other = "aaaaaaaaYbbbbbbbb"
        let plan = try TrackingPlan(
            text: """
                version: 1
                events:
                  - name: \(name)
                    description: Long names.
                    properties:
                      \(name): { enum: [\(name)] }
                """)
        let validator = PlanValidator(plan: plan)
        #expect(validator.validate(Event(name, [name: .string(name)])).isEmpty)
        #expect(validator.validate(Event(name, [name: .string(other)])).map(\.kind) == [.notInEnum])
        #expect(validator.validate(Event(name, [other: .string(name)])).map(\.kind) == [.unexpectedProperty])
        #expect(validator.validate(Event(other, [name: .string(name)])).map(\.kind) == [.unknownEvent])
    }

    @Test func lengthsCountCodePoints() throws {
        let plan = try Fixtures.singleProperty("{ maxLength: 4 }")
        let validator = PlanValidator(plan: plan)
        #expect(validator.validate(Event("e", ["p": .string(Self.composed)])).isEmpty)
        #expect(validator.validate(Event("e", ["p": .string(Self.decomposed)])).map(\.rule) == ["maxLength: 4"])
    }

    @Test func uniqueItemsComparesCodePointsAndNumbersByValue() throws {
        let validator = PlanValidator(plan: try Fixtures.singleProperty("{ uniqueItems: true }"))
        #expect(validator.validate(Event("e", ["p": [.string(Self.composed), .string(Self.decomposed)]])).isEmpty)
        #expect(
            validator.validate(Event("e", ["p": [1, 1.0]])).map(\.rule) == [
                "uniqueItems: true (elements 0 and 1 are equal)"
            ])
        #expect(validator.validate(Event("e", ["p": [["a": 1, "b": [true]], ["b": [true], "a": 1.0]]])).count == 1)
        #expect(validator.validate(Event("e", ["p": [1, "1", true, nil, [1], ["1": 1]]])).isEmpty)
        let long = (0..<40).map { PropertyValue.int($0) }
        #expect(validator.validate(Event("e", ["p": .array(long)])).isEmpty)
        #expect(
            validator.validate(Event("e", ["p": .array(long + [.double(39)])])).map(\.rule) == [
                "uniqueItems: true (elements 39 and 40 are equal)"
            ])
    }

    @Test func propertyCountsAreChecked() throws {
        let validator = PlanValidator(
            plan: try Fixtures.singleProperty("{ type: object, minProperties: 1, maxProperties: 2 }"))
        #expect(validator.validate(Event("e", ["p": ["a": 1]])).isEmpty)
        #expect(
            validator.validate(Event("e", ["p": [:]])).map(\.message) == ["{} has 0 members, breaking minProperties: 1"]
        )
        #expect(validator.validate(Event("e", ["p": ["a": 1, "b": 2, "c": 3]])).map(\.rule) == ["maxProperties: 2"])
    }
}
