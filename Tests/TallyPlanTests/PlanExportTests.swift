import Foundation
import Tally
import Testing

@testable import TallyPlan

/// `tally export`: one plan as the schemas Iglu, Segment Protocols and warehouse checks enforce, Tally's
/// facts kept as `x-tally-*` keywords, what a format cannot say reported, Iglu versions by SchemaVer.
@Suite("Plan export", .readsPlans)
struct PlanExportTests {
    static let checkout = """
        version: 1
        destinations:
          ads: { purposes: [advertising], domains: [track.ads.example] }
        consent: { required: [analytics] }
        events:
          - name: checkout_started
            description: The user opened the checkout.
            owner: payments
            tags: [checkout]
            expires: 2030-01-01
            properties:
              cart_id: { type: string, format: uuid, required: true }
              total: { type: number, exclusiveMinimum: 0, maximum: 10000 }
              currency: { const: EUR }
              email: { type: [string, "null"], format: email, personal: { kind: email, rule: hash } }
          - name: user
            kind: identify
            description: The signed-in user.
            properties:
              plan: { enum: [free, pro] }
          - name: Checkout
            kind: screen
            description: The checkout screen.
        """

    func export(_ text: String, _ format: PlanExport.Format) throws -> PlanExport {
        try PlanExport(TrackingPlan(text: text), format: format, planFile: "plan.yaml")
    }

    func export(_ format: PlanExport.Format) throws -> PlanExport { try export(Self.checkout, format) }

    func file(_ export: PlanExport, _ path: String) throws -> String {
        try #require(export.files.first { $0.path == path }, "no \(path) in \(export.files.map(\.path))").contents
    }

    @Test func jsonSchemaWritesOneFileEachWithTallysFactsAsKeywords() throws {
        let export = try export(.jsonSchema)
        #expect(
            export.files.map(\.path) == [
                "identify.user.schema.json", "screen.Checkout.schema.json", "tally-plan.json",
                "track.checkout_started.schema.json",
            ])
        #expect(
            try file(export, "track.checkout_started.schema.json") == """
                {
                  "$schema": "https://json-schema.org/draft/2020-12/schema",
                  "additionalProperties": false,
                  "description": "The user opened the checkout.",
                  "properties": {
                    "cart_id": {
                      "format": "uuid",
                      "type": "string"
                    },
                    "currency": {
                      "const": "EUR"
                    },
                    "email": {
                      "x-tally-personal": {
                        "kind": "email",
                        "rule": "hash",
                        "value": {
                          "format": "email",
                          "type": [
                            "string",
                            "null"
                          ]
                        }
                      }
                    },
                    "total": {
                      "exclusiveMinimum": 0,
                      "maximum": 10000,
                      "type": "number"
                    }
                  },
                  "required": [
                    "cart_id"
                  ],
                  "title": "checkout_started",
                  "type": "object",
                  "x-tally-expires": "2030-01-01",
                  "x-tally-kind": "track",
                  "x-tally-name": "checkout_started",
                  "x-tally-owner": "payments",
                  "x-tally-purpose": "analytics",
                  "x-tally-tags": [
                    "checkout"
                  ]
                }

                """)
        #expect(
            try file(export, "tally-plan.json") == """
                {
                  "x-tally-consent": {
                    "required": [
                      "analytics"
                    ]
                  },
                  "x-tally-destinations": {
                    "ads": {
                      "domains": [
                        "track.ads.example"
                      ],
                      "purposes": [
                        "advertising"
                      ]
                    }
                  }
                }

                """)
        #expect(
            export.diagnostics.map(\.description) == [
                "plan.yaml:15:7: warning: track \"checkout_started\": hashed before it leaves the app (personal: email, rule: hash): exported as any value, and only Tally checks that it no longer looks like email data"
            ])
    }

    @Test func igluWritesSelfDescribingDraft4SchemasInARegistryLayout() throws {
        let export = try export(.iglu(vendor: "com.example"))
        #expect(
            export.files.map(\.path) == [
                "schemas/com.example/checkout_started/jsonschema/1-0-0",
                "schemas/com.example/identify_user/jsonschema/1-0-0",
                "schemas/com.example/screen_Checkout/jsonschema/1-0-0", "tally-plan.json",
            ])
        let text = try file(export, "schemas/com.example/checkout_started/jsonschema/1-0-0")
        let schema = try PropertyValue(json: text)
        #expect(
            schema["$schema"]
                == "http://iglucentral.com/schemas/com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0#")
        #expect(
            schema["self"]
                == ["vendor": "com.example", "name": "checkout_started", "format": "jsonschema", "version": "1-0-0"])
        // Draft 4: no const, exclusive bounds as Booleans.
        #expect(schema["properties"]?["currency"] == ["enum": ["EUR"]])
        #expect(
            schema["properties"]?["total"] == [
                "type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 10000,
            ])
        // uuid is no draft 4 format: kept, and reported at its line.
        #expect(schema["properties"]?["cart_id"]?["format"] == "uuid")
        #expect(
            export.diagnostics.map(\.description) == [
                "plan.yaml:12:7: warning: track \"checkout_started\": format 'uuid' is not defined in JSON Schema draft 4: its validators need not check it",
                "plan.yaml:15:7: warning: track \"checkout_started\": hashed before it leaves the app (personal: email, rule: hash): exported as any value, and only Tally checks that it no longer looks like email data",
            ])
    }

    @Test func draft4KeepsTheStricterOfAnInclusiveAndAnExclusiveBound() throws {
        func total(_ bounds: String) throws -> PropertyValue? {
            let plan =
                "version: 1\nevents:\n  - name: e\n    description: d\n    properties:\n      n: { type: number, \(bounds) }\n"
            let export = try export(plan, .iglu(vendor: "v"))
            return try PropertyValue(json: file(export, "schemas/v/e/jsonschema/1-0-0"))["properties"]?["n"]
        }
        #expect(try total("minimum: 5, exclusiveMinimum: 3") == ["type": "number", "minimum": 5])
        #expect(
            try total("minimum: 3, exclusiveMinimum: 3") == ["type": "number", "minimum": 3, "exclusiveMinimum": true])
        #expect(try total("maximum: 3, exclusiveMaximum: 5") == ["type": "number", "maximum": 3])
        #expect(
            try total("maximum: 9, exclusiveMaximum: 5") == ["type": "number", "maximum": 5, "exclusiveMaximum": true])
    }

    @Test func segmentWrapsThePayloadAndReportsWhatItHasNoRuleFor() throws {
        let export = try export(.segment)
        #expect(export.files.map(\.path) == ["rules.json", "tally-plan.json"])
        let rules = try #require(PropertyValue(json: file(export, "rules.json"))["rules"]?.arrayValue)
        #expect(rules.map { $0["key"] } == ["checkout_started", .null])
        #expect(rules.map { $0["type"] } == ["TRACK", "IDENTIFY"])
        #expect(rules.allSatisfy { $0["version"] == 1 })
        let track = try #require(rules.first?["jsonSchema"])
        #expect(track["$schema"] == "http://json-schema.org/draft-07/schema#")
        #expect(track["required"] == ["properties"])
        #expect(track["x-tally-purpose"] == "analytics")
        #expect(track["description"] == "The user opened the checkout.")
        #expect(track["properties"]?["context"] == [:])
        #expect(track["properties"]?["properties"]?["required"] == ["cart_id"])
        #expect(track["properties"]?["properties"]?["properties"]?["currency"] == ["const": "EUR"])
        let identify = try #require(rules.last?["jsonSchema"])
        #expect(identify["properties"]?["traits"]?["properties"]?["plan"] == ["enum": ["free", "pro"]])
        #expect(identify["required"] == nil)
        #expect(
            export.diagnostics.map(\.description) == [
                "plan.yaml:12:7: warning: track \"checkout_started\": format 'uuid' is not defined in JSON Schema draft-07: its validators need not check it",
                "plan.yaml:15:7: warning: track \"checkout_started\": hashed before it leaves the app (personal: email, rule: hash): exported as any value, and only Tally checks that it no longer looks like email data",
                "plan.yaml:21:5: warning: screen \"Checkout\": not exported: Segment Protocols has no rule type for screen events",
            ])
    }

    @Test func segmentReportsANegativeLookaheadItCannotRun() throws {
        let plan = try Fixtures.singleProperty("{ type: string, pattern: '^(?!test).*$' }")
        let export = try PlanExport(plan, format: .segment)
        #expect(export.diagnostics.map(\.message).first?.contains("uses a negative lookahead") == true)
    }

    /// A personal property is exported as its values reach the pipeline, its rules in the app kept in the mark.
    @Test(arguments: [
        (
            "redact",
            #"{"enum":[null,"[redacted]"],"x-tally-personal":{"kind":"phone","rule":"redact","value":{"type":"string"}}}"#
        ),
        (
            "never_send",
            #"{"type":"null","x-tally-personal":{"kind":"phone","rule":"never_send","value":{"type":"string"}}}"#
        ),
        ("hash", #"{"x-tally-personal":{"kind":"phone","rule":"hash","value":{"type":"string"}}}"#),
        ("send", #"{"type":"string","x-tally-personal":{"kind":"phone","rule":"send"}}"#),
    ])
    func personalPropertiesAreExportedAsTheyArrive(_ rule: String, _ expected: String) throws {
        let plan = try Fixtures.singleProperty("{ type: string, personal: { kind: phone, rule: \(rule) } }")
        let export = try PlanExport(plan, format: .jsonSchema)
        let schema = try PropertyValue(json: file(export, "track.e.schema.json"))
        #expect(schema["properties"]?["p"]?.jsonString == expected)
    }

    @Test func aFractionalMultipleOfIsReportedInEveryFormat() throws {
        let plan = try Fixtures.singleProperty("{ type: number, multipleOf: 0.01 }")
        for format in [PlanExport.Format.jsonSchema, .segment, .iglu(vendor: "v")] {
            let messages = try PlanExport(plan, format: format).diagnostics.map(\.message)
            #expect(messages.count == 1 && messages[0].contains("multipleOf 0.01 has a fraction"), "\(format)")
        }
        let whole = try Fixtures.singleProperty("{ type: integer, multipleOf: 5 }")
        #expect(try PlanExport(whole, format: .segment).diagnostics.isEmpty)
    }

    // MARK: Iglu versions

    static let base = """
        version: 1
        events:
          - name: e
            description: d
            properties:
              n: { type: integer, minimum: 0, maximum: 10 }
              s: { type: string }
              x: { type: number }
            required: [n]
        """

    /// Exports `base` into a registry, then `changed` on top of it: the second version's SchemaVer.
    func secondVersion(_ changed: String) throws -> (SchemaVer, PlanExport.Change) {
        let first = try export(Self.base, .iglu(vendor: "v"))
        let registry = try ["v/e": [SchemaVer.first: PropertyValue(json: file(first, "schemas/v/e/jsonschema/1-0-0"))]]
        let second = try PlanExport(TrackingPlan(text: changed), format: .iglu(vendor: "v"), registry: registry)
        let release = try #require(second.versions["v/e"])
        #expect(second.files.contains { $0.path == "schemas/v/e/jsonschema/\(release.version)" })
        return (release.version, release.change)
    }

    func changing(_ old: String, to new: String) -> String {
        #expect(Self.base.contains(old), "the base plan has no '\(old)'")
        return Self.base.replacingOccurrences(of: old, with: new)
    }

    @Test func anUnchangedSchemaKeepsItsVersion() throws {
        #expect(try secondVersion(Self.base) == (SchemaVer.first, .unchanged))
        #expect(
            try secondVersion(changing("description: d", to: "description: changed")) == (
                SchemaVer("1-0-1")!, .addition
            ))
    }

    @Test(arguments: [
        ("s: { type: string }", "s: { type: string }\n      t: { type: string }", "an optional property"),
        ("maximum: 10", "maximum: 20", "a looser maximum"),
        ("minimum: 0", "minimum: -5", "a looser minimum"),
        ("type: integer", "type: number", "integer widened to number"),
        ("s: { type: string }", "s: { type: [string, \"null\"] }", "null allowed"),
        ("s: { type: string }", "s: {}", "a schema dropped"),
        ("required: [n]", "required: []", "a property no longer required"),
    ])
    func aChangeEveryEarlierEventMeetsBumpsAddition(_ old: String, _ new: String, _ label: String) throws {
        #expect(try secondVersion(changing(old, to: new)) == (SchemaVer("1-0-1")!, .addition), "\(label)")
    }

    @Test(arguments: [
        ("required: [n]", "required: [n, s]", "a property now required"),
        ("maximum: 10", "maximum: 5", "a tighter maximum"),
        ("maximum: 10", "exclusiveMaximum: 10", "the maximum made exclusive"),
        ("s: { type: string }", "s: { type: string, minLength: 1 }", "a new minLength"),
        ("x: { type: number }", "x: { type: integer }", "number narrowed to integer"),
        ("s: { type: string }", "s: { type: string, format: email }", "a new format"),
        ("\n      s: { type: string }", "", "a property removed"),
        ("type: integer", "type: string", "another type"),
        ("s: { type: string }", "s: { type: string, enum: [a] }", "a new enum"),
    ])
    func aChangeSomeEarlierEventMayBreakBumpsModel(_ old: String, _ new: String, _ label: String) throws {
        #expect(try secondVersion(changing(old, to: new)) == (SchemaVer("2-0-0")!, .breaking), "\(label)")
    }

    // MARK: Bad input

    @Test func anIgluVendorIgluRefusesAndEventsSharingAFileAreErrors() throws {
        #expect(throws: PlanExportError.self) { try export(.iglu(vendor: "com example")) }
        let clash = """
            version: 1
            events:
              - { name: "a b", description: d }
              - { name: "a_b", description: d }
            """
        let error = try #require(throws: PlanExportError.self) { try export(clash, .iglu(vendor: "v")) }
        #expect(error.message == "track \"a_b\" and track \"a b\" both become the Iglu schema v/a_b")
        #expect(throws: PlanExportError.self) { try export(clash, .jsonSchema) }
    }

    @Test func aNameIgluCannotHoldIsRenamedAndReported() throws {
        let plan = "version: 1\nevents:\n  - name: Order Completed\n    description: d\n"
        let export = try export(plan, .iglu(vendor: "v"))
        #expect(export.files.map(\.path) == ["schemas/v/Order_Completed/jsonschema/1-0-0"])
        #expect(
            export.diagnostics.map(\.description) == [
                "plan.yaml:3:5: warning: track \"Order Completed\": its Iglu name is 'Order_Completed': Iglu names hold only letters, digits, '-' and '_' (x-tally-name keeps the plan's name)"
            ])
    }

    // MARK: The command

    @Test func theCommandWritesChecksAndVersionsARegistry() throws {
        let folder = try Fixtures.temporaryDirectory()
        let plan = try Fixtures.write(Self.base)
        let registry = folder.appendingPathComponent("iglu").path
        var result = PlanTool.export(planPath: plan.path, format: "iglu", outputPath: registry, vendor: "v")
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(
            result.standardOutput
                == "v/e 1-0-0: new\nWrote 1 file to \(registry) (0 unchanged) from 1 event, 0 warnings\n")
        result = PlanTool.export(planPath: plan.path, format: "iglu", outputPath: registry, vendor: "v", check: true)
        #expect(result.exitCode == 0)
        #expect(result.standardOutput == "\(registry) is up to date with \(plan.path) (1 file)\n")

        try Data(changing("required: [n]", to: "required: [n, s]").utf8).write(to: plan)
        result = PlanTool.export(planPath: plan.path, format: "iglu", outputPath: registry, vendor: "v", check: true)
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("error: would write schemas/v/e/jsonschema/2-0-0"))
        result = PlanTool.export(planPath: plan.path, format: "iglu", outputPath: registry, vendor: "v")
        #expect(result.standardOutput.hasPrefix("v/e 2-0-0: breaking\nWrote 1 file"))
        let versions = try FileManager.default.contentsOfDirectory(atPath: registry + "/schemas/v/e/jsonschema")
        #expect(versions.sorted() == ["1-0-0", "2-0-0"])
    }

    @Test func theCommandRefusesBadUsageAndBadRegistries() throws {
        let plan = try Fixtures.write(Self.base)
        let folder = try Fixtures.temporaryDirectory()
        var result = PlanTool.export(planPath: plan.path, format: "avro", outputPath: folder.path)
        #expect(result.exitCode == 64)
        #expect(result.standardError == "error: unknown format 'avro': use json-schema, iglu or segment\n")
        result = PlanTool.export(planPath: plan.path, format: "iglu", outputPath: folder.path)
        #expect(
            result.standardError
                == "error: --format iglu needs a vendor: --vendor com.example, or iglu: { vendor: com.example } in the plan\n"
        )
        result = PlanTool.export(planPath: plan.path, format: "segment", outputPath: folder.path, vendor: "v")
        #expect(result.exitCode == 64)
        result = PlanTool.export(planPath: folder.path + "/missing.yaml", format: "segment", outputPath: folder.path)
        #expect(result.exitCode == 66)

        let broken = folder.appendingPathComponent("schemas/v/e/jsonschema")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: broken.appendingPathComponent("1-0-0"))
        result = PlanTool.export(planPath: plan.path, format: "iglu", outputPath: folder.path, vendor: "v")
        #expect(result.exitCode == 65)
        #expect(result.standardError.contains("1-0-0 is not a JSON schema: fix or remove it, then export again"))
        try FileManager.default.removeItem(at: broken.appendingPathComponent("1-0-0"))
        try Data("junk".utf8).write(to: broken.appendingPathComponent(".DS_Store"))
        result = PlanTool.export(planPath: plan.path, format: "iglu", outputPath: folder.path, vendor: "v")
        #expect(result.exitCode == 0, "a hidden file is no version: \(result.standardError)")
        try Data("{}".utf8).write(to: broken.appendingPathComponent("latest"))
        result = PlanTool.export(planPath: plan.path, format: "iglu", outputPath: folder.path, vendor: "v")
        #expect(result.standardError.contains("latest is not named by a SchemaVer version such as 1-0-0"))
    }

    @Test func aSchemaFileOfAnEventNoLongerPlannedFailsUntilRemoved() throws {
        let folder = try Fixtures.temporaryDirectory()
        let plan = try Fixtures.write(Self.base + "\n  - { name: gone, description: d }\n")
        #expect(PlanTool.export(planPath: plan.path, format: "json-schema", outputPath: folder.path).exitCode == 0)
        try Data(Self.base.utf8).write(to: plan)
        var result = PlanTool.export(planPath: plan.path, format: "json-schema", outputPath: folder.path)
        #expect(result.exitCode == 1)
        #expect(
            result.standardError
                == "error: track.gone.schema.json is no longer in the plan: remove it, or it goes on validating events\n"
        )
        result = PlanTool.export(planPath: plan.path, format: "json-schema", outputPath: folder.path, check: true)
        #expect(result.exitCode == 1)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("track.gone.schema.json"))
        result = PlanTool.export(planPath: plan.path, format: "json-schema", outputPath: folder.path, check: true)
        #expect(result.exitCode == 0, "\(result.standardError)")
    }

    @Test func theIgluVendorMayComeFromThePlan() throws {
        let folder = try Fixtures.temporaryDirectory()
        let plan = try Fixtures.write("iglu: { vendor: com.acme }\n" + Self.base)
        var result = PlanTool.export(planPath: plan.path, format: "iglu", outputPath: folder.path)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/schemas/com.acme/e/jsonschema/1-0-0"))
        result = PlanTool.export(planPath: plan.path, format: "iglu", outputPath: folder.path, vendor: "org.other")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/schemas/org.other/e/jsonschema/1-0-0"))

        let bad = try Fixtures.write("iglu: { vendor: com acme, vendr: x }\n" + Self.base)
        let lint = PlanTool.lint(path: bad.path)
        #expect(lint.exitCode == 1)
        #expect(lint.standardOutput.contains("1:17: error: 'iglu.vendor' must be in reversed domain notation"))
        #expect(lint.standardOutput.contains("1:27: warning: Unknown key of 'iglu' 'vendr'"))
    }

    @Test func schemaVerReadsOnlyItsForm() {
        #expect(SchemaVer("1-0-0") == .first)
        #expect(SchemaVer("2-1-10")?.description == "2-1-10")
        for text in ["0-0-0", "1-0", "1-0-0-0", "a-b-c", "1--0", "-1-0-0", "1-0-0 ", "99999999999-0-0"] {
            #expect(SchemaVer(text) == nil, "\(text)")
        }
        #expect(SchemaVer("1-0-1")! < SchemaVer("1-1-0")!)
        #expect(SchemaVer("1-9-9")! < SchemaVer("2-0-0")!)
    }
}

extension PropertyValue {
    /// An object's member, for reading exported JSON in expectations.
    fileprivate subscript(_ key: String) -> PropertyValue? { objectValue?[key] }
}
