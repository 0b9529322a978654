import Foundation
import Tally
import TallyPlan
import Testing

@Suite("Loading plans", .readsPlans)
struct PlanLoaderTests {
    @Test func loadsTheFixturePlanFromYAML() throws {
        let plan = try Fixtures.fixturePlan()
        #expect(plan.version == 1)
        #expect(plan.events.count == 9)
        let ordered = try #require(plan.event(named: "menu_item_ordered"))
        #expect(ordered.kind == .track)
        #expect(ordered.description.hasPrefix("The user ordered an item from the menu 🍕.\nSent once"))
        #expect(ordered.owner == "ordering")
        #expect(ordered.tags == ["checkout", "revenue"])
        #expect(ordered.required == ["customer_email", "item_name", "quantity"])
        #expect(ordered.additionalProperties == false)
        #expect(ordered.location == SourceLocation(file: Fixtures.fixturePlanURL.relativePath, line: 4, column: 5))

        let itemName = try #require(ordered.properties["item_name"])
        #expect(itemName.types == [.string])
        #expect(itemName.minLength == 1)
        #expect(itemName.maxLength == 60)
        #expect(itemName.description == "The item's name on the menu.")
        #expect(ordered.properties["price"]?.exclusiveMinimum == 0)
        #expect(ordered.properties["size"]?.enumValues == ["small", "medium", "large", "extra large", "Small"])
        #expect(ordered.properties["toppings"]?.items == PropertySchema(types: [.string], minLength: 1))
        #expect(ordered.properties["ordered_at"]?.format == .dateTime)
        #expect(ordered.properties["currency"]?.constValue == "EUR")
        let email = try #require(ordered.properties["customer_email"])
        #expect(email.types == [.string, .null])
        #expect(email.personal == PersonalMark(kind: .email, rule: .redact))
        let address = try #require(ordered.properties["address"])
        #expect(address.required == ["zip"])
        #expect(address.additionalProperties == .forbidden)
        #expect(address.properties?["zip"]?.pattern == "^[0-9]{5}$")

        #expect(plan.event(named: "Login", kind: .screen)?.properties["method"]?.enumValues?.count == 4)
        #expect(plan.event(named: "Login", kind: .track) == nil)
        // Identify, group and alias events match by kind: their names are ids.
        #expect(plan.event(named: "any-user-id", kind: .identify)?.name == "user")
        #expect(plan.event(named: "acme", kind: .group)?.name == "account")
    }

    @Test func jsonAndYAMLGiveTheSamePlan() throws {
        let yaml = try Fixtures.fixturePlan()
        let json = try TrackingPlan(contentsOf: Fixtures.fixturePlanJSONURL)
        #expect(json.withoutLocations == yaml.withoutLocations)
        // The JSON file spells the emoji as a surrogate pair escape, which libyaml alone refuses.
        #expect(json.events.first { $0.name == "menu_item_ordered" }?.description.contains("🍕") == true)
    }

    @Test func scalarsResolveByYAML12CoreSchema() throws {
        let plan = try Fixtures.singleProperty(
            #"{ enum: [yes, no, on, off, 1, -2, 1.0, 2e3, ~, null, "1", true, False, 0x1F] }"#)
        let values = try #require(plan.events[0].properties["p"]?.enumValues)
        #expect(
            values == [
                "yes", "no", "on", "off", .int(1), .int(-2), .double(1.0), .double(2000), .null, .null, "1", true,
                false,
                "0x1F",
            ])
    }

    @Test func requiredComesFromTheListAndTheShorthand() throws {
        let plan = try TrackingPlan(
            text: """
                version: 1
                events:
                  - name: e
                    description: x
                    required: [a]
                    properties:
                      a: { type: string }
                      b: { type: string, required: true }
                      c: { type: string, required: false }
                      d:
                        type: object
                        required: [x]
                        properties:
                          x: { type: integer }
                          y: { type: integer, required: true }
                """)
        #expect(plan.events[0].required == ["a", "b"])
        #expect(plan.events[0].properties["d"]?.required == ["x", "y"])
    }

    @Test func eventLevelAdditionalPropertiesDefaultsToFalse() throws {
        #expect(try Fixtures.singleProperty("{}").events[0].additionalProperties == false)
        let open = try Fixtures.singleProperty("{}", eventExtras: "\n    additionalProperties: true")
        #expect(open.events[0].additionalProperties == true)
    }

    struct ErrorCase: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String
        let line: Int
        let column: Int
        let message: String
        var severity: PlanDiagnostic.Severity = .error
        var testDescription: String { name }
    }

    static let header = "version: 1\nevents:\n  - name: a\n    description: x\n    properties:\n"

    static let errorCases: [ErrorCase] = [
        ErrorCase(
            name: "unknown type", text: header + "      p: { type: strng }\n", line: 6, column: 18,
            message:
                "Unknown type 'strng'; expected one of string, integer, number, boolean, array, object, null; did you mean 'string'?"
        ),
        ErrorCase(
            name: "minimum not a number", text: header + "      p: { minimum: zero }\n", line: 6, column: 21,
            message: "'minimum' must be a number, not \"zero\""),
        ErrorCase(
            name: "bad regular expression", text: header + "      p: { pattern: \"([a-z]\" }\n", line: 6, column: 21,
            message: "'pattern' is not a valid regular expression: ([a-z]"),
        ErrorCase(
            name: "unknown kind", text: "version: 1\nevents:\n  - name: a\n    kind: trak\n    description: x\n",
            line: 4,
            column: 11,
            message: "Unknown kind 'trak'; expected one of track, screen, identify, group, alias; did you mean 'track'?"
        ),
        ErrorCase(
            name: "duplicate event",
            text: "version: 1\nevents:\n  - name: a\n    description: x\n  - name: a\n    description: y\n", line: 5,
            column: 5, message: "Duplicate event: track 'a' is already planned at 3:5"),
        ErrorCase(
            name: "two identify events",
            text:
                "version: 1\nevents:\n  - name: user\n    kind: identify\n    description: x\n  - name: person\n    kind: identify\n    description: y\n",
            line: 6, column: 5, message: "A plan describes at most one identify event; 'user' is already planned at 3:5"
        ),
        ErrorCase(
            name: "unknown keyword", text: header + "      p: { type: string, minLenght: 3 }\n", line: 6, column: 26,
            message: "Unknown keyword 'minLenght' is not checked; did you mean 'minLength'?", severity: .warning),
        ErrorCase(
            name: "nullable", text: header + "      p: { type: string, nullable: true }\n", line: 6, column: 26,
            message:
                "Unknown keyword 'nullable' is not checked; to allow null, add \"null\" to 'type': type: [string, \"null\"]",
            severity: .warning),
        ErrorCase(
            name: "unsupported JSON Schema keyword", text: header + "      p: { oneOf: [] }\n", line: 6, column: 12,
            message: "'oneOf' is not checked: it is JSON Schema, but not in the subset Tally checks",
            severity: .warning),
        ErrorCase(
            name: "keyword for another type", text: header + "      p: { type: integer, minLength: 3 }\n", line: 6,
            column: 27, message: "'minLength' applies to strings but the type is integer; it never applies",
            severity: .warning),
        ErrorCase(
            name: "enum value of another type", text: header + "      p: { type: string, enum: [a, 1] }\n", line: 6,
            column: 36, message: "'enum' value 1 is not of type string; no value can match it", severity: .warning),
        ErrorCase(
            name: "unknown format", text: header + "      p: { type: string, format: emial }\n", line: 6, column: 34,
            message:
                "Format 'emial' is not checked; Tally checks date-time, date, time, email, hostname, ipv4, ipv6, uri, uri-reference, uuid, json-pointer; did you mean 'email'?",
            severity: .warning),
        ErrorCase(
            name: "unknown event key",
            text: "version: 1\nevents:\n  - name: a\n    descripton: x\n    description: x\n",
            line: 4, column: 5, message: "Unknown event key 'descripton' is ignored; did you mean 'description'?",
            severity: .warning),
        ErrorCase(
            name: "missing version", text: "events: []\n", line: 1, column: 1, message: "The plan needs 'version: 1'"),
        ErrorCase(
            name: "unsupported version", text: "version: 2\nevents: []\n", line: 1, column: 10,
            message: "Plan version 2 is not supported; this tally reads version 1"),
        ErrorCase(
            name: "missing events", text: "version: 1\n", line: 1, column: 1, message: "The plan needs an 'events' list"
        ),
        ErrorCase(
            name: "events not a list", text: "version: 1\nevents:\n  a: {}\n", line: 3, column: 3,
            message: "'events' must be a list of events, each starting with '- name:', not a mapping"),
        ErrorCase(
            name: "missing name", text: "version: 1\nevents:\n  - description: x\n", line: 3, column: 5,
            message: "An event needs a 'name'"),
        ErrorCase(
            name: "missing description", text: "version: 1\nevents:\n  - name: a\n", line: 3, column: 5,
            message: "Event 'a' needs a 'description'"),
        ErrorCase(
            name: "empty name", text: "version: 1\nevents:\n  - name: \"\"\n    description: x\n", line: 3, column: 11,
            message: "An event name must not be empty"),
        ErrorCase(
            name: "boolean exclusiveMinimum", text: header + "      p: { minimum: 0, exclusiveMinimum: true }\n",
            line: 6, column: 42,
            message:
                "'exclusiveMinimum' is a number in JSON Schema 2020-12, not a Boolean: write 'exclusiveMinimum: N' instead of 'minimum: N' with 'exclusiveMinimum: true'"
        ),
        ErrorCase(
            name: "negative length", text: header + "      p: { maxLength: -1 }\n", line: 6, column: 23,
            message: "'maxLength' must be a non-negative integer, not -1"),
        ErrorCase(
            name: "fractional length", text: header + "      p: { minItems: 1.5 }\n", line: 6, column: 22,
            message: "'minItems' must be a non-negative integer, not 1.5"),
        ErrorCase(
            name: "contradictory bounds", text: header + "      p: { minimum: 5, maximum: 3 }\n", line: 6, column: 10,
            message: "No number meets both the lower bound 5 and the upper bound 3"),
        ErrorCase(
            name: "contradictory lengths", text: header + "      p: { minLength: 5, maxLength: 3 }\n", line: 6,
            column: 12, message: "'minLength' 5 is greater than 'maxLength' 3"),
        ErrorCase(
            name: "required but undeclared",
            text: "version: 1\nevents:\n  - name: a\n    description: x\n    required: [b]\n", line: 5, column: 16,
            message: "Required property 'b' is not declared under 'properties'"),
        ErrorCase(
            name: "duplicate type", text: header + "      p: { type: [string, string] }\n", line: 6, column: 27,
            message: "'type' lists 'string' twice"),
        ErrorCase(
            name: "tuple items", text: header + "      p: { items: [{ type: string }] }\n", line: 6, column: 19,
            message: "'items' must be one schema for every element (JSON Schema 2020-12), not a list"),
        ErrorCase(
            name: "pii, which personal replaced", text: header + "      p: { pii: true }\n", line: 6, column: 12,
            message:
                "'pii' is now 'personal', which says what the value holds and what may happen to it: personal: { kind: email, rule: redact }"
        ),
        ErrorCase(
            name: "an unknown personal rule", text: header + "      p: { personal: { kind: email, rule: hide } }\n",
            line: 6, column: 43,
            message: "Unknown rule 'hide'; expected one of send, hash, redact, never_send"),
        ErrorCase(
            name: "personal without a kind", text: header + "      p: { personal: { rule: hash } }\n", line: 6,
            column: 22, message: "'personal' needs a 'kind', such as email, phone or free_text"),
        ErrorCase(
            name: "an expiry that is not a day",
            text: header.replacingOccurrences(of: "    properties:", with: "    expires: 2027-02-30\n    properties:")
                + "      p: { type: string }\n",
            line: 5, column: 14,
            message: "'expires' must be a day written YYYY-MM-DD, such as 2027-06-30, not \"2027-02-30\""),
        ErrorCase(
            name: "const of another type", text: header + "      p: { type: integer, const: \"1\" }\n", line: 6,
            column: 34, message: "'const' value \"1\" is not of type integer; no value can match"),
        ErrorCase(
            name: "alias with properties",
            text:
                "version: 1\nevents:\n  - name: a\n    kind: alias\n    description: x\n    properties:\n      p: {}\n",
            line: 7, column: 7, message: "Alias events carry no properties; remove 'properties' from 'a'"),
        ErrorCase(
            name: "schema not a mapping", text: header + "      p: string\n", line: 6, column: 10,
            message: "The schema of /properties/p must be a mapping of keys to values, not \"string\""),
        ErrorCase(
            name: "infinite bound", text: header + "      p: { maximum: .inf }\n", line: 6, column: 21,
            message: "'maximum' must be a number, not .inf"),
        ErrorCase(
            name: "comma in a plain description inside { }",
            text: header + "      p: { type: string, description: Size, in inches }\n", line: 6, column: 45,
            message:
                "'in inches' is the rest of 'description: Size', cut at a comma: inside { } a comma ends a value; quote it: description: \"Size, in inches\""
        ),
        ErrorCase(
            name: "comma in a plain event description inside { }",
            text: "version: 1\nevents:\n  - { name: b, description: Paid, then shipped }\n", line: 3, column: 35,
            message:
                "'then shipped' is the rest of 'description: Paid', cut at a comma: inside { } a comma ends a value; quote it: description: \"Paid, then shipped\""
        ),
    ]

    @Test func aQuotedCommaOrABlockMappingKeepsTheWholeDescription() throws {
        for property in [
            "      p: { type: string, description: \"Size, in inches\" }\n",
            "      p:\n        type: string\n        description: Size, in inches\n",
        ] {
            let plan = try TrackingPlan(text: Self.header + property)
            let schema = try #require(plan.events.first?.properties["p"])
            #expect(schema.description == "Size, in inches")
        }
    }

    @Test func aKeyWithNoValueAfterAKeywordThatIsNotProseStaysAnUncheckedKeyword() throws {
        let result = PlanLoader.load(text: Self.header + "      p: { type: string, uniqueItem }\n", file: "plan.yaml")
        #expect(result.errors.isEmpty)
        #expect(result.plan?.uncheckedKeywords.map(\.keyword) == ["uniqueItem"])
    }

    @Test(arguments: errorCases)
    func reportsProblemsWithTheirLocation(_ errorCase: ErrorCase) throws {
        let result = PlanLoader.load(text: errorCase.text, file: "plan.yaml")
        let expected = PlanDiagnostic(
            errorCase.severity, errorCase.message,
            at: SourceLocation(file: "plan.yaml", line: errorCase.line, column: errorCase.column))
        #expect(result.diagnostics == [expected])
        if errorCase.severity == .error {
            #expect(result.plan == nil)
            #expect(result.failureKind == .invalidPlan)
            let error = try #require(throws: PlanError.self) { try result.get() }
            #expect(error.file == "plan.yaml")
            #expect(error.line == errorCase.line)
            #expect(error.column == errorCase.column)
            #expect(error.message == errorCase.message)
            #expect(error.description == "plan.yaml:\(errorCase.line):\(errorCase.column): error: \(errorCase.message)")
        } else {
            #expect(result.plan != nil)
            #expect(result.failureKind == nil)
        }
    }

    @Test func collectsEveryErrorInFileOrder() throws {
        let text = Self.header + "      p: { type: strng }\n      q: { minimum: zero }\n"
        let error = try #require(throws: PlanError.self) { try TrackingPlan(text: text) }
        #expect(error.kind == .invalidPlan)
        #expect(error.diagnostics.map { [$0.line, $0.column] } == [[6, 18], [7, 21]])
        #expect(error.description.split(separator: "\n").count == 2)
    }

    @Test func jsonErrorsPointAtTheirLineAndColumn() throws {
        let line4 =
            #"    {"name": "a", "description": "x \ud83d\ude00", "properties": {"p": {"type": "integer", "minimum": "0"}}}"#
        let text = "{\n  \"version\": 1,\n  \"events\": [\n\(line4)\n  ]\n}\n"
        let column = line4.distance(from: line4.startIndex, to: line4.range(of: #""0""#)!.lowerBound) + 1
        let result = PlanLoader.load(text: text, file: "plan.json")
        #expect(
            result.diagnostics == [
                PlanDiagnostic(
                    .error, "'minimum' must be a number, not \"0\"",
                    at: SourceLocation(file: "plan.json", line: 4, column: column))
            ])
    }

    @Test func syntaxErrorsAreLocated() throws {
        let result = PlanLoader.load(text: "version: 1\nevents: [\n", file: "plan.yaml")
        #expect(result.failureKind == .syntax)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.file == "plan.yaml")
        #expect(diagnostic.line == 3)
        #expect(diagnostic.message.hasPrefix("Did not find expected node content"))
    }

    @Test func repeatedKeysAreSyntaxErrors() throws {
        let result = PlanLoader.load(text: "version: 1\nversion: 1\nevents: []\n", file: "plan.yaml")
        #expect(result.failureKind == .syntax)
        #expect(
            result.diagnostics == [
                PlanDiagnostic(
                    .error, "The mapping starting here repeats the key 'version'; keys must be unique",
                    at: SourceLocation(file: "plan.yaml", line: 1, column: 1))
            ])
    }

    @Test func emptyFilesAreSyntaxErrors() throws {
        let error = try #require(throws: PlanError.self) { try TrackingPlan(text: "# nothing\n", file: "empty.yaml") }
        #expect(error.kind == .syntax)
        #expect(error.description == "empty.yaml: error: The file is empty; a plan needs 'version' and 'events'")
    }

    @Test func aByteOrderMarkIsIgnored() throws {
        let plan = try TrackingPlan(text: "\u{FEFF}version: 1\nevents: []\n")
        #expect(plan.events.isEmpty)
    }

    @Test func missingFilesAreReportedAsSuch() throws {
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("absent.yaml")
        let result = PlanLoader.load(contentsOf: url, displayName: "absent.yaml")
        #expect(result.failureKind == .fileNotFound)
        #expect(result.diagnostics.map(\.description) == ["absent.yaml: error: No such file"])
    }

    @Test func directoriesAreUnreadableAndNonUTF8FilesInvalid() throws {
        let directory = try Fixtures.temporaryDirectory()
        #expect(PlanLoader.load(contentsOf: directory).failureKind == .unreadable)
        let latin1 = directory.appendingPathComponent("latin1.yaml")
        try Data([0x76, 0x65, 0x72, 0x3A, 0x20, 0xE9, 0x0A]).write(to: latin1)
        let result = PlanLoader.load(contentsOf: latin1, displayName: "latin1.yaml")
        #expect(result.failureKind == .syntax)
        #expect(result.diagnostics.map(\.message) == ["The file is not UTF-8 text"])
    }

    @Test func surrogateRewritingKeepsColumnsAfterSeveralEscapes() throws {
        let line =
            #"{"version": 1, "events": [{"name": "\ud83d\ude00\ud83c\udf55", "description": "x", "kind": "trak"}]}"#
        let column = line.distance(from: line.startIndex, to: line.range(of: #""trak""#)!.lowerBound) + 1
        let result = PlanLoader.load(text: line, file: "plan.json")
        #expect(result.diagnostics.map { [$0.line, $0.column] } == [[1, column]])
    }
}

/// Found by fuzzing (Fuzz/FuzzPlan, issue 34): libyaml ends a text that has no final newline with one of its
/// own, so a syntax error at the end of such a plan was reported on a line after the last.
@Suite("Loading plans: locations at the end of the text", .readsPlans)
struct PlanLoaderEndOfTextTests {
    @Test func anUnclosedFlowMappingAtTheEndOfATextWithoutAFinalNewlineIsReportedOnItsLastLine() throws {
        let text = "version: 1\nevents:\n  - name: a\n    properties: { b: { type: string }"
        let error = try #require(PlanLoader.load(text: text, file: "plan.yaml").errors.first)
        #expect(error.message.hasPrefix("Did not find expected ',' or '}'"))
        #expect(error.line == 4)
        #expect(error.column == 38)  // just past "}", the end of the text
    }

    /// Found by the long run: the same end of the text, reached through the located node (an empty document).
    @Test func aDocumentMarkerAloneWithoutANewlineIsReportedOnItsLine() throws {
        let error = try #require(PlanLoader.load(text: "---", file: "plan.yaml").errors.first)
        #expect(error.message.hasPrefix("The plan must be a mapping of keys to values"))
        #expect(error.line == 1)
        #expect(error.column == 4)
    }

    @Test func withAFinalNewlineTheSameErrorIsOnTheEmptyLineAfterIt() throws {
        let text = "version: 1\nevents:\n  - name: a\n    properties: { b: { type: string }\n"
        let error = try #require(PlanLoader.load(text: text, file: "plan.yaml").errors.first)
        #expect(error.line == 5)
        #expect(error.column == 1)
    }
}
