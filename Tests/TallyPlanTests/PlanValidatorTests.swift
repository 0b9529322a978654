import Foundation
import Tally
import TallyPlan
import Testing

@Suite("Validating events", .readsPlans)
struct PlanValidatorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let schema: String
        let value: PropertyValue
        let expected: [PlanViolation.Kind]
        var rule: String?
        var testDescription: String { "\(schema) with \(value.jsonString) -> \(expected.map(\.rawValue))" }

        init(_ schema: String, _ value: PropertyValue, _ expected: [PlanViolation.Kind], rule: String? = nil) {
            self.schema = schema
            self.value = value
            self.expected = expected
            self.rule = rule
        }
    }

    static let typeCases: [Case] = [
        Case("{ type: integer }", 1, []),
        Case("{ type: integer }", 1.0, []),  // 1.0 is an integer in JSON Schema
        Case("{ type: integer }", -0.0, []),
        Case("{ type: integer }", 1.5, [.wrongType], rule: "type: integer"),
        Case("{ type: integer }", "1", [.wrongType]),
        Case("{ type: number }", 1, []),
        Case("{ type: number }", 2.5, []),
        Case("{ type: number }", true, [.wrongType]),
        Case("{ type: string }", "x", []),
        Case("{ type: string }", 1, [.wrongType]),
        Case("{ type: string }", .null, [.wrongType]),
        Case("{ type: boolean }", false, []),
        Case("{ type: boolean }", "true", [.wrongType]),
        Case("{ type: array }", [], []),
        Case("{ type: array }", [:], [.wrongType]),
        Case("{ type: object }", [:], []),
        Case("{ type: object }", [], [.wrongType]),
        Case("{ type: \"null\" }", .null, []),
        Case("{ type: \"null\" }", 0, [.wrongType]),
        Case("{ type: [string, \"null\"] }", .null, []),
        Case("{ type: [string, \"null\"] }", "x", []),
        Case("{ type: [string, \"null\"] }", 1, [.wrongType], rule: "type: [string, null]"),
        Case("{ type: [integer, boolean] }", 3.0, []),
        Case("{}", ["any": [1, "thing"]], []),
        // Other rules are not checked when the type is wrong.
        Case("{ type: string, minimum: 3 }", 1, [.wrongType]),
    ]

    static let enumAndConstCases: [Case] = [
        Case("{ enum: [a, b] }", "a", []),
        Case("{ enum: [a, b] }", "c", [.notInEnum], rule: #"enum: ["a","b"]"#),
        Case("{ enum: [a, b] }", 1, [.notInEnum]),
        Case("{ enum: [1, 2] }", 1.0, []),  // JSON equality: 1 == 1.0
        Case("{ enum: [1.0, 2] }", 1, []),
        Case("{ enum: [1, 2] }", 3, [.notInEnum]),
        Case("{ enum: [\"null\", x] }", .null, [.notInEnum]),  // the string "null" is not null
        Case("{ enum: [null, x] }", .null, []),
        Case("{ enum: [[1, 2]] }", [1.0, 2], []),
        Case("{ enum: [{ a: 1 }] }", ["a": 1.0], []),
        Case("{ enum: [{ a: 1 }] }", ["a": 1, "b": 2], [.notInEnum]),
        Case("{ const: 1 }", 1.0, []),
        Case("{ const: 1 }", 2, [.notConst], rule: "const: 1"),
        Case("{ const: EUR }", "EUR", []),
        Case("{ const: EUR }", "eur", [.notConst], rule: #"const: "EUR""#),
        Case("{ const: null }", .null, []),
        Case("{ const: null }", "x", [.notConst]),
        Case("{ const: { a: [1] } }", ["a": [1.0]], []),
        Case("{ const: a, enum: [b] }", "c", [.notInEnum, .notConst]),
    ]

    static let stringCases: [Case] = [
        Case("{ pattern: b }", "abc", []),  // unanchored, as ECMA-262 search
        Case("{ pattern: \"^b\" }", "abc", [.patternMismatch], rule: "pattern: ^b"),
        Case("{ pattern: \"^[0-9]{5}$\" }", "12345", []),
        Case("{ pattern: \"^[0-9]{5}$\" }", "1234", [.patternMismatch]),
        Case("{ pattern: \"^[0-9]{5}$\" }", 12345, []),  // pattern applies to strings only
        Case("{ minLength: 2 }", "a", [.length], rule: "minLength: 2"),
        Case("{ minLength: 2 }", "ab", []),
        Case("{ minLength: 2 }", "𝄞", [.length]),  // one code point, though two UTF-16 units
        Case("{ maxLength: 3 }", "abcd", [.length], rule: "maxLength: 3"),
        Case("{ maxLength: 3 }", "é𝄞x", []),  // three code points, seven UTF-8 bytes
        Case("{ maxLength: 1 }", "e\u{301}", [.length]),  // e + combining accent: two code points
        Case("{ maxLength: 1 }", "👍🏽", [.length]),  // one character, two code points
        Case("{ maxLength: 0 }", "", []),
        Case("{ minLength: 1 }", 5, []),
        Case("{ format: email }", "ana@example.com", []),
        Case("{ format: email }", "ana.example.com", [.formatMismatch], rule: "format: email"),
        Case("{ format: uuid }", "8F14E45F-CEEA-467A-9A36-A1B2C3D4E5F6", []),
        Case("{ format: uuid }", "8f14e45f-ceea-467a-9a36", [.formatMismatch]),
        Case("{ format: date-time }", "2026-11-22T03:17:53.120Z", []),
        Case("{ format: date-time }", "2026-11-22", [.formatMismatch]),
        Case("{ format: uri }", "https://example.com/a?b=c#d", []),
        Case("{ format: uri }", "/relative/path", [.formatMismatch]),
        Case("{ format: email }", 5, []),  // format applies to strings only
        Case("{ type: string, maxLength: 2, pattern: \"^a\" }", "bcd", [.length, .patternMismatch]),
    ]

    static let numberCases: [Case] = [
        Case("{ minimum: 0 }", 0, []),
        Case("{ minimum: 0 }", -1, [.outOfRange], rule: "minimum: 0"),
        Case("{ minimum: 0 }", -0.5, [.outOfRange]),
        Case("{ minimum: 0.5 }", 0.25, [.outOfRange], rule: "minimum: 0.5"),
        Case("{ maximum: 10 }", 10, []),
        Case("{ maximum: 10 }", 10.5, [.outOfRange], rule: "maximum: 10"),
        Case("{ exclusiveMinimum: 0 }", 0, [.outOfRange], rule: "exclusiveMinimum: 0"),
        Case("{ exclusiveMinimum: 0 }", 0.1, []),
        Case("{ exclusiveMaximum: 10 }", 10.0, [.outOfRange], rule: "exclusiveMaximum: 10"),
        Case("{ exclusiveMaximum: 10 }", 9, []),
        Case("{ minimum: 1, maximum: 99 }", 100, [.outOfRange]),
        Case("{ minimum: 3 }", "a", []),  // bounds apply to numbers only
        Case("{ type: integer, minimum: 1 }", 0.0, [.outOfRange]),
    ]

    static let arrayAndObjectCases: [Case] = [
        Case("{ type: array, items: { type: integer } }", [1, 2.0], []),
        Case("{ type: array, items: { type: integer } }", [1, "x"], [.wrongType]),
        Case("{ type: array, items: { type: array, items: { enum: [a] } } }", [["a"], ["b"]], [.notInEnum]),
        Case("{ minItems: 1 }", [], [.length], rule: "minItems: 1"),
        Case("{ maxItems: 1 }", [1, 2], [.length], rule: "maxItems: 1"),
        Case("{ maxItems: 1 }", "ab", []),
        Case("{ type: object, properties: { zip: { type: string } }, required: [zip] }", [:], [.missingRequired]),
        Case("{ type: object, properties: { zip: { type: string } } }", ["zip": 1], [.wrongType]),
        // Nested objects follow JSON Schema: extra members are fine unless additionalProperties says no.
        Case("{ type: object, properties: { zip: { type: string } } }", ["zip": "1", "extra": 1], []),
        Case(
            "{ type: object, properties: { zip: { type: string } }, additionalProperties: false }",
            ["zip": "1", "extra": 1], [.unexpectedProperty], rule: "additionalProperties: false"),
        Case(
            "{ type: object, properties: { zip: { type: string } }, additionalProperties: { type: integer } }",
            ["zip": "1", "n": "x"], [.wrongType]),
        Case(
            "{ type: object, properties: { a: { type: object, properties: { b: { const: 1 } } } } }", ["a": ["b": 2]],
            [.notConst]),
        Case("{ required: [a], properties: { a: {} } }", "not an object", []),  // object rules apply to objects only
    ]

    static let personalCases: [Case] = [
        Case("{ type: string, personal: email }", "ana@example.com", [.personalDataPresent], rule: "personal: email"),
        Case(
            "{ type: string, personal: { kind: email, rule: redact } }", "ana@example.com", [.personalDataPresent],
            rule: "personal: email, rule: redact"),
        Case("{ type: string, personal: { kind: email, rule: hash } }", "ana@example.com", [.personalDataPresent]),
        Case("{ type: string, personal: { kind: email, rule: hash } }", "9f86d081884c7d65", []),
        Case("{ type: string, personal: { kind: email, rule: never_send } }", "[redacted]", [.personalDataPresent]),
        Case("{ type: string, personal: { kind: email, rule: never_send } }", .null, []),
        Case("{ type: string, personal: { kind: email, rule: send } }", "ana@example.com", []),
        Case("{ type: string, personal: email }", "[redacted]", []),
        Case("{ type: string, personal: email }", .null, []),
        // A redacted value is not checked further.
        Case("{ type: string, format: email, personal: email }", "[redacted]", []),
        Case(
            "{ type: string, format: email, personal: email }", "not an email", [.personalDataPresent, .formatMismatch]),
        Case("{ type: object, personal: email }", ["street": "Main St"], [.personalDataPresent]),
        Case(
            "{ type: object, properties: { email: { personal: email } } }", ["email": "a@b.co"], [.personalDataPresent]),
    ]

    static func check(_ testCase: Case) throws {
        let plan = try Fixtures.singleProperty(testCase.schema)
        let violations = PlanValidator(plan: plan).validate(Event("e", ["p": testCase.value]))
        #expect(violations.map(\.kind) == testCase.expected)
        if let rule = testCase.rule { #expect(violations.first?.rule == rule) }
        for violation in violations where violation.kind != .missingRequired {
            #expect(violation.path.hasPrefix("/properties/p"))
            #expect(violation.eventName == "e")
        }
    }

    @Test(arguments: typeCases) func type(_ testCase: Case) throws { try Self.check(testCase) }
    @Test(arguments: enumAndConstCases) func enumAndConst(_ testCase: Case) throws { try Self.check(testCase) }
    @Test(arguments: stringCases) func strings(_ testCase: Case) throws { try Self.check(testCase) }
    @Test(arguments: numberCases) func numbers(_ testCase: Case) throws { try Self.check(testCase) }
    @Test(arguments: arrayAndObjectCases) func arraysAndObjects(_ testCase: Case) throws { try Self.check(testCase) }
    @Test(arguments: personalCases) func personal(_ testCase: Case) throws { try Self.check(testCase) }

    // MARK: Events

    @Test func aConformingEventHasNoViolations() throws {
        let validator = PlanValidator(plan: try Fixtures.fixturePlan())
        let event = Event(
            "menu_item_ordered",
            [
                "item_name": "Margherita", "quantity": 2, "price": 9.5, "size": "extra large", "toppings": ["basil"],
                "ordered_at": "2026-11-22T03:17:53.120Z", "currency": "EUR", "customer_email": .null,
                "address": ["zip": "12345", "city": "Rome"],
            ])
        #expect(validator.validate(event) == [])
        #expect(validator.isValid(event))
    }

    @Test func unknownEventsAreViolations() throws {
        let validator = PlanValidator(plan: try Fixtures.fixturePlan())
        let violations = validator.validate(Event("menu_item_orderd"))
        #expect(
            violations == [
                PlanViolation(.unknownEvent, eventName: "menu_item_orderd", path: "", rule: "plan", actual: nil)
            ])
        #expect(violations[0].description == #"track "menu_item_orderd": the event is not in the plan"#)
    }

    @Test func kindsMatter() throws {
        let validator = PlanValidator(plan: try Fixtures.fixturePlan())
        let violations = validator.validate(Event("Login", ["method": "email"]))
        #expect(violations.map(\.kind) == [.unknownEvent])
        #expect(violations.first?.rule == "the plan has it as a screen event")
        #expect(validator.validate(.screen("Login", ["method": "email"])) == [])
    }

    @Test func identifyGroupAndAliasMatchByKindWhateverTheId() throws {
        let validator = PlanValidator(plan: try Fixtures.fixturePlan())
        #expect(validator.validate(.identify(userId: "u-1", traits: ["signed_up_at": "2026-01-01T00:00:00Z"])) == [])
        #expect(validator.validate(.identify(userId: "u-2", traits: [:])).map(\.kind) == [.missingRequired])
        #expect(validator.validate(.group("acme", traits: ["seats": 3])) == [])
        #expect(validator.validate(.alias("new-id")) == [])
        let noIdentify = TrackingPlan(events: [PlannedEvent(name: "e", description: "x")])
        #expect(PlanValidator(plan: noIdentify).validate(.identify(userId: "u")).map(\.kind) == [.unknownEvent])
    }

    @Test func violationsNameIdentifyGroupAndAliasEventsByTheirIds() throws {
        let validator = PlanValidator(plan: try Fixtures.fixturePlan())
        let missing = try #require(validator.validate(.identify(userId: "u-2", traits: [:])).first)
        #expect(missing.eventName == "identify u-2")
        #expect(missing.description.hasPrefix("identify u-2 /properties/"))
        let noGroup = TrackingPlan(events: [PlannedEvent(name: "e", description: "x")])
        let unknown = try #require(PlanValidator(plan: noGroup).validate(.group("acme")).first)
        #expect(unknown.description == "group acme: the event is not in the plan")
        let tracked = try #require(PlanValidator(plan: noGroup).validate(Event("x")).first)
        #expect(tracked.description == #"track "x": the event is not in the plan"#)
    }

    @Test func unexpectedPropertiesAreViolationsAtEventLevelByDefault() throws {
        let strict = try Fixtures.singleProperty("{}")
        let violations = PlanValidator(plan: strict).validate(Event("e", ["p": 1, "debug": true]))
        #expect(
            violations == [
                PlanViolation(
                    .unexpectedProperty, eventName: "e", path: "/properties/debug", rule: "additionalProperties: false",
                    actual: true)
            ])
        let open = try Fixtures.singleProperty("{}", eventExtras: "\n    additionalProperties: true")
        #expect(PlanValidator(plan: open).validate(Event("e", ["p": 1, "debug": true])) == [])
    }

    @Test func pathsAreJSONPointersIntoTheEvent() throws {
        let plan = try Fixtures.singleProperty(
            "{ type: object, properties: { \"a/b~c\": { type: array, items: { type: object, properties: { zip: { type: string } } } } } }"
        )
        let violations = PlanValidator(plan: plan).validate(Event("e", ["p": ["a/b~c": [["zip": "1"], ["zip": 2]]]]))
        #expect(violations.map(\.path) == ["/properties/p/a~1b~0c/1/zip"])
        #expect(violations.first?.actual == 2)
    }

    @Test func missingRequiredPropertiesAreNamed() throws {
        let validator = PlanValidator(plan: try Fixtures.fixturePlan())
        let violations = validator.validate(Event("menu_item_ordered", ["currency": "EUR"]))
        #expect(violations.map(\.kind) == [.missingRequired, .missingRequired, .missingRequired])
        #expect(
            violations.map(\.path) == ["/properties/customer_email", "/properties/item_name", "/properties/quantity"])
        #expect(violations.allSatisfy { $0.actual == nil && $0.rule == "required" })
    }

    @Test func violationsAreSortedByPath() throws {
        let validator = PlanValidator(plan: try Fixtures.fixturePlan())
        let event = Event(
            "menu_item_ordered",
            ["item_name": "", "quantity": 0, "price": 0, "size": "huge", "customer_email": .null, "zzz": 1, "aaa": 2])
        let paths = validator.validate(event).map(\.path)
        #expect(paths == paths.sorted())
        #expect(paths.count == 6)
    }

    @Test func descriptionsReadAsOneLineAndHidePersonalData() throws {
        let plan = try Fixtures.singleProperty("{ type: string, format: email, personal: email }")
        let violations = PlanValidator(plan: plan).validate(Event("e", ["p": "ana@"]))
        #expect(violations.map(\.kind) == [.personalDataPresent, .formatMismatch])
        #expect(violations.allSatisfy { !$0.description.contains("ana@") })
        #expect(violations.allSatisfy { $0.isPersonalData })
        #expect(violations[0].actual == "ana@")
        #expect(
            violations[1].description
                == #"track "e" /properties/p: a string value (personal data, not shown) is not valid for format: email"#
        )

        let typed = try Fixtures.singleProperty("{ type: [integer, boolean] }")
        #expect(
            PlanValidator(plan: typed).validate(Event("e", ["p": .null])).map(\.description) == [
                #"track "e" /properties/p: null is null, expected type: [integer, boolean]"#
            ])
        #expect(
            PlanValidator(plan: typed).validate(Event("e", ["p": "x"])).map(\.description) == [
                #"track "e" /properties/p: "x" is a string, expected type: [integer, boolean]"#
            ])

        let range = try Fixtures.singleProperty("{ minimum: 1 }")
        #expect(
            PlanValidator(plan: range).validate(Event("e", ["p": 0])).map(\.description) == [
                #"track "e" /properties/p: 0 breaks minimum: 1"#
            ])
    }

    @Test func theRedactionMarkerIsConfigurable() throws {
        let plan = try Fixtures.singleProperty("{ type: string, personal: email }")
        let validator = PlanValidator(plan: plan, redactionMarker: "***")
        #expect(validator.validate(Event("e", ["p": "***"])) == [])
        #expect(validator.validate(Event("e", ["p": "[redacted]"])).map(\.kind) == [.personalDataPresent])
    }

    @Test func listsOfEventsCarryTheirIndex() throws {
        let plan = try Fixtures.fixturePlan()
        let events: [Event] = [.aBS(), Event("unplanned"), .aBS2(class: true), Event("a=b's", ["class": "yes"])]
        let violations = plan.violations(in: events)
        #expect(violations.map(\.eventIndex) == [1, 3])
        #expect(violations.map(\.kind) == [.unknownEvent, .wrongType])
        #expect(PlanValidator(plan: plan).validate(events) == violations)
        #expect(plan.validate(Event("unplanned")).first?.eventIndex == nil)
    }

    @Test func aPlanMadeInCodeValidatesToo() {
        let plan = TrackingPlan(events: [
            PlannedEvent(
                name: "signed_up", description: "A new account.",
                properties: ["plan": PropertySchema(types: [.string], enumValues: ["free", "pro"])], required: ["plan"])
        ])
        #expect(plan.validate(Event("signed_up", ["plan": "pro"])) == [])
        #expect(plan.validate(Event("signed_up", ["plan": "gold"])).map(\.kind) == [.notInEnum])
    }

    @Test func anInvalidPatternInACodeMadePlanMatchesNothing() {
        let plan = TrackingPlan(events: [
            PlannedEvent(name: "e", properties: ["p": PropertySchema(pattern: "([")])
        ])
        #expect(plan.validate(Event("e", ["p": "anything"])).map(\.kind) == [.patternMismatch])
    }
}
