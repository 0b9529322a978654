import Foundation
import Tally
import TallyTestSupport
import Testing

@testable import TallyPlan

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `tally validate` and `tally coverage`, in process.
@Suite(.readsPlans)
struct RecordingCommandsTests {
    static let plan = """
        version: 1
        events:
          - name: login_tapped
            description: The user tapped Log in.
            properties:
              action: { type: string, enum: [tap, swipe] }
            required: [action]
          - name: Login
            kind: screen
            description: The login screen appeared.
          - name: sign_up_tapped
            description: The user tapped Sign up.
        """

    static func recording(_ events: [Event], origin: String? = nil) -> String {
        events.map { event in
            String(
                decoding: Record(
                    envelope: Envelope(
                        event: event, messageId: MessageID(prefix: 1, sequence: 1),
                        timestamp: Date(timeIntervalSince1970: 0),
                        anonymousId: "a"),
                    origin: origin
                ).line, as: UTF8.self)
        }.joined()
    }

    /// A plan and a folder holding one recording of `events`.
    static func setUp(
        _ events: [Event], plan text: String = Self.plan, origin: String? = nil
    ) throws -> (plan: String, folder: String) {
        let folder = try Fixtures.temporaryDirectory()
        let plan = folder.appendingPathComponent("plan.yaml")
        try Data(text.utf8).write(to: plan)
        let recordings = folder.appendingPathComponent("recordings")
        try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
        try Data(recording(events, origin: origin).utf8).write(to: recordings.appendingPathComponent("app.jsonl"))
        return (plan.path, recordings.path)
    }

    static let personalPlan = """
        version: 1
        events:
          - name: signed_up
            description: The user made an account.
            properties:
              email: { type: string, personal: { kind: email, rule: redact } }
              note: { type: string }
              contact: { type: object }
        """

    /// The value scan is the tools' choice: an app's validator reads no string it does not have to.
    @Test func onlyAValidatorThatScansFindsUnmarkedPersonalData() throws {
        let plan = try TrackingPlan(text: Self.personalPlan)
        let event = Event("signed_up", ["note": "write to ada@example.com"])
        #expect(PlanValidator(plan: plan).validate(event).isEmpty)
        let found = PlanValidator(plan: plan, scansUnmarkedValues: true).validate(event)
        #expect(found.map(\.kind) == [.personalDataUnmarked])
        #expect(found.first?.isPersonalData == true)
        #expect(found.first?.actual == "write to ada@example.com")
        #expect(!(found.first?.description.contains("ada@") ?? true))
    }

    /// Issue 25: personal data in a recording, by the plan's rule and by value, with where it was tracked.
    @Test func validateReportsPersonalDataByRuleAndByValueWithWhereItWasTracked() throws {
        let contact: PropertyValue = .object(["emails": .array([.string("ada@example.org")])])
        let (plan, folder) = try Self.setUp(
            [
                Event("signed_up", ["email": "ada@example.com", "note": "call +44 20 7946 0958", "contact": contact]),
                Event("signed_up", ["email": "[redacted]", "note": "fine"]),
                Event("unplanned", ["who": "grace@example.com"]),
            ], plan: Self.personalPlan, origin: "Tests/AppTests/SignUpTests.swift:42")
        let output = PlanTool.validate(planPath: plan, recordings: [folder])
        #expect(output.exitCode == 1)
        #expect(
            output.standardOutput == """
                track "signed_up": 1 of 2 events breaks the plan
                  ×1 Tests/AppTests/SignUpTests.swift:42: track "signed_up" /properties/email: personal data sent against its rule (personal: email, rule: redact); apply the rule before sending
                  ×1 Tests/AppTests/SignUpTests.swift:42: track "signed_up" /properties/contact/emails/0: a value that looks like personal data (email, not shown) is in a property the plan does not mark personal; mark it (personal: { kind: email, rule: ... }) or stop sending it
                  ×1 Tests/AppTests/SignUpTests.swift:42: track "signed_up" /properties/note: a value that looks like personal data (phone, not shown) is in a property the plan does not mark personal; mark it (personal: { kind: phone, rule: ... }) or stop sending it
                track "unplanned": 1 of 1 event breaks the plan
                  ×1 Tests/AppTests/SignUpTests.swift:42: track "unplanned" /properties/who: a value that looks like personal data (email, not shown) is in a property the plan does not mark personal; mark it (personal: { kind: email, rule: ... }) or stop sending it
                  ×1 Tests/AppTests/SignUpTests.swift:42: track "unplanned": the event is not in the plan
                Checked 3 events from 1 recording: 5 violations in 2 events

                """)
        #expect(!output.standardOutput.contains("ada@") && !output.standardOutput.contains("7946"))
        let json = try PropertyValue(
            json: PlanTool.validate(planPath: plan, recordings: [folder], json: true).standardOutput)
        let violations = json.objectValue?["events"]?.arrayValue?.first?.objectValue?["violations"]?.arrayValue
        #expect(
            violations?.compactMap { $0.objectValue?["kind"]?.stringValue } == [
                "personalDataPresent", "personalDataUnmarked", "personalDataUnmarked",
            ])
        #expect(violations?.first?.objectValue?["origin"] == "Tests/AppTests/SignUpTests.swift:42")

        let coverage = PlanTool.coverage(planPath: plan, recordings: [folder])
        #expect(coverage.exitCode == 1)
        #expect(
            coverage.standardError.contains(
                "Tests/AppTests/SignUpTests.swift:42: error: plan violation: track \"signed_up\" /properties/note: a value that looks like personal data (phone, not shown)"
            ), "\(coverage.standardError)")
    }

    static let everything: [Event] = [
        .screen("Login"), Event("login_tapped", ["action": "tap"]), Event("sign_up_tapped"),
    ]

    @Test func validatePassesWhenEveryEventIsValid() throws {
        let (plan, folder) = try Self.setUp(Self.everything)
        let output = PlanTool.validate(planPath: plan, recordings: [folder])
        #expect(output.exitCode == 0)
        #expect(output.standardOutput == "Checked 3 events from 1 recording: every event is valid\n")
    }

    @Test func validateGroupsViolationsByEventWithCounts() throws {
        let (plan, folder) = try Self.setUp([
            Event("login_tapped", ["action": "pinch"]), Event("login_tapped", ["action": "pinch"]),
            Event("login_tapped", ["action": "tap"]), Event("unplanned"),
        ])
        let output = PlanTool.validate(planPath: plan, recordings: [folder])
        #expect(output.exitCode == 1)
        #expect(
            output.standardOutput == """
                track "login_tapped": 2 of 3 events break the plan
                  ×2 track "login_tapped" /properties/action: "pinch" is not in enum: ["tap","swipe"]
                track "unplanned": 1 of 1 event breaks the plan
                  ×1 track "unplanned": the event is not in the plan
                Checked 4 events from 1 recording: 3 violations in 3 events

                """)
    }

    @Test func validateNamesIdentifyGroupAndAliasByWhatTheyCarry() throws {
        let (plan, folder) = try Self.setUp([
            .identify(userId: "user-42"), .identify(userId: "user-42"), .group("acme"), .alias("user-43"),
        ])
        let output = PlanTool.validate(planPath: plan, recordings: [folder])
        #expect(output.exitCode == 1)
        #expect(
            output.standardOutput == """
                alias user-43: 1 of 1 event breaks the plan
                  ×1 alias user-43: the event is not in the plan
                group acme: 1 of 1 event breaks the plan
                  ×1 group acme: the event is not in the plan
                identify user-42: 2 of 2 events break the plan
                  ×2 identify user-42: the event is not in the plan
                Checked 4 events from 1 recording: 4 violations in 4 events

                """)
    }

    @Test func validateSaysWhenAnIdentifyGroupHoldsSeveralIds() throws {
        let (plan, folder) = try Self.setUp([.identify(userId: "user-42"), .identify(userId: "user-7")])
        let output = PlanTool.validate(planPath: plan, recordings: [folder])
        #expect(output.standardOutput.hasPrefix("identify user-42 and other ids: 2 of 2 events break the plan\n"))
    }

    @Test func coverageNamesUnplannedIdentifyEventsByKindAndTheirViolationsById() throws {
        let (plan, folder) = try Self.setUp(
            Self.everything + [.identify(userId: "user-42"), .identify(userId: "user-7")])
        let output = PlanTool.coverage(planPath: plan, recordings: [folder])
        #expect(
            output.standardOutput.contains("Unplanned events: identify user-42 and other ids ×2\n"),
            "\(output.standardOutput)")
        #expect(
            output.standardError.contains(
                "error: unplanned event: identify user-42: the event is not in the plan (2 events)"),
            "\(output.standardError)")
        #expect(!(output.standardOutput + output.standardError).contains(#"identify """#))
    }

    @Test func validateWritesJSONForMachines() throws {
        let (plan, folder) = try Self.setUp([Event("login_tapped", [:])])
        let output = PlanTool.validate(planPath: plan, recordings: [folder], json: true)
        #expect(output.exitCode == 1)
        let report = try PropertyValue(json: output.standardOutput)
        #expect(report.objectValue?["violations"] == 1)
        let first = report.objectValue?["events"]?.arrayValue?.first?.objectValue
        #expect(first?["name"] == "login_tapped")
        #expect(first?["violations"]?.arrayValue?.first?.objectValue?["kind"] == "missingRequired")
    }

    /// Issue 23: the JSON report used to name identify, group and alias events `"name": ""`. It names them
    /// as the text does, by the ``Event/reportName`` of the first failing event, and says when failing
    /// events carry other ids.
    @Test func validateJSONNamesIdentifyGroupAndAliasByWhatTheyCarry() throws {
        let (plan, folder) = try Self.setUp([
            .identify(userId: "user-42"), .identify(userId: "user-7"), .group("acme"), .alias("user-43"),
            Event("unplanned"),
        ])
        let output = PlanTool.validate(planPath: plan, recordings: [folder], json: true)
        #expect(output.exitCode == 1)
        let report = try PropertyValue(json: output.standardOutput)
        let groups = report.objectValue?["events"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(groups.map { $0["name"] } == ["alias user-43", "group acme", "identify user-42", "unplanned"])
        #expect(groups.map { $0["kind"] } == ["alias", "group", "identify", "track"])
        #expect(groups.map { $0["other_ids"] } == [nil, nil, true, nil])
        #expect(!output.standardOutput.contains(#""name" : """#) && !output.standardOutput.contains(#""name":"""#))
    }

    @Test func validateNamesTheBadRecordingLine() throws {
        let (plan, folder) = try Self.setUp(Self.everything)
        let bad = URL(fileURLWithPath: folder).appendingPathComponent("b.jsonl")
        try Data("{\"tally_record\":1,\"kind\":\"track\",\"name\":\"x\"}\n{oops\n".utf8).write(to: bad)
        let output = PlanTool.validate(planPath: plan, recordings: [folder])
        #expect(output.exitCode == 65)
        #expect(output.standardError.hasPrefix("\(bad.path):2: error: Not valid JSON"))
    }

    @Test func validateReportsEveryUnreadableLineAndValidatesTheRest() throws {
        let (plan, folder) = try Self.setUp([Event("login_tapped", ["action": "pinch"])])
        let bad = URL(fileURLWithPath: folder).appendingPathComponent("b.jsonl")
        var bytes = Array(Self.recording([Event("login_tapped", ["action": "tap"])]).utf8)
        bytes +=
            Array(#"{"tally_record":1,"kind":"track","name":"login_tapped","properties":{"action":"t"#.utf8) + [0xFF]
            + Array("\"}}\n".utf8)
        bytes += Array(Self.recording([Event("sign_up_tapped")]).utf8)
        bytes += Array(#"{"tally_record":1,"kind":"track","na"#.utf8)  // cut off: no newline
        try Data(bytes).write(to: bad)
        let output = PlanTool.validate(planPath: plan, recordings: [folder])
        #expect(output.exitCode == 65)
        #expect(
            output.standardError == """
                \(bad.path):2: error: Not valid JSON: Invalid UTF-8 in a string (at byte 80)
                \(bad.path):4: error: the last line is cut off: 36 bytes without a newline (a write that did not finish); it was not read

                """)
        #expect(
            output.standardOutput.hasSuffix(
                "Checked 3 events from 2 recordings: 1 violation in 1 event; 2 unreadable lines not validated\n"))
        let json = try PropertyValue(
            json: PlanTool.validate(planPath: plan, recordings: [folder], json: true).standardOutput)
        #expect(json.objectValue?["unreadable_lines"] == 2)
    }

    @Test func aBinaryFileIsNotValid() throws {
        let (plan, folder) = try Self.setUp([])
        let binary = URL(fileURLWithPath: folder).appendingPathComponent("app.jsonl")
        try Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31 | 1) }.filter { $0 != 0x0A }).write(to: binary)
        let output = PlanTool.validate(planPath: plan, recordings: [binary.path])
        #expect(output.exitCode == 65)
        #expect(output.standardError.hasPrefix("\(binary.path):1: error: the last line is cut off"))
        #expect(!output.standardOutput.contains("every event is valid"))
    }

    @Test func aPlanThatIsNotUTF8IsInvalidNotMissing() throws {
        let (_, folder) = try Self.setUp(Self.everything)
        let plan = URL(fileURLWithPath: folder).deletingLastPathComponent().appendingPathComponent("latin1.yaml")
        try Data([0x76, 0x65, 0x72, 0x73, 0x69, 0x6F, 0x6E, 0x3A, 0x20, 0x31, 0x0A, 0x23, 0x20, 0xE9, 0x0A]).write(
            to: plan)
        let output = PlanTool.validate(planPath: plan.path, recordings: [folder])
        #expect(output.exitCode == 65)
        #expect(output.standardError.contains("The file is not UTF-8 text"))
        #expect(PlanTool.coverage(planPath: plan.path, recordings: [folder]).exitCode == 65)
    }

    @Test func manyUnreadableLinesAreCountedAndTheFirst20Listed() throws {
        let (plan, folder) = try Self.setUp(Self.everything)
        try Data(String(repeating: "{oops\n", count: 100).utf8)
            .write(to: URL(fileURLWithPath: folder).appendingPathComponent("z.jsonl"))
        let output = PlanTool.validate(planPath: plan, recordings: [folder])
        #expect(output.exitCode == 65)
        let lines = output.standardError.split(separator: "\n")
        #expect(lines.count == 21)
        #expect(lines.last?.hasSuffix("z.jsonl: error: 80 more unreadable lines not listed") == true)
        #expect(output.standardOutput.hasSuffix("100 unreadable lines not validated\n"))
    }

    @Test func validateExitCodesForMissingFiles() throws {
        let (plan, folder) = try Self.setUp(Self.everything)
        #expect(PlanTool.validate(planPath: plan, recordings: [folder + "/nope.jsonl"]).exitCode == 66)
        #expect(PlanTool.validate(planPath: folder + "/nope.yaml", recordings: [folder]).exitCode == 66)
    }

    @Test func coverageReportsAndPassesTheBar() throws {
        let (plan, folder) = try Self.setUp(Self.everything)
        let output = PlanTool.coverage(planPath: plan, recordings: [folder], minimum: 100)
        #expect(output.exitCode == 0)
        #expect(output.standardOutput.contains("login_tapped"))
        #expect(output.standardError.contains("Read 3 events from 1 recording. Plan coverage: 3/3 events (100.0%)"))
    }

    @Test func coverageUnderTheBarFailsAndNamesTheUnseenEvents() throws {
        let (plan, folder) = try Self.setUp([.screen("Login")])
        let output = PlanTool.coverage(planPath: plan, recordings: [folder], minimum: 90)
        #expect(output.exitCode == 1)
        #expect(
            output.standardError.contains(
                "error: event coverage 33.3% is under the bar of 90.0%; unseen: login_tapped, sign_up_tapped"))
    }

    @Test func aRemovedEventIsARegressionAgainstTheBaseline() throws {
        let (plan, folder) = try Self.setUp(Self.everything)
        let baseline = URL(fileURLWithPath: folder).deletingLastPathComponent().appendingPathComponent("baseline.json")
            .path
        let written = PlanTool.coverage(
            planPath: plan, recordings: [folder], baselinePath: baseline, writeBaseline: true)
        #expect(written.exitCode == 0)
        #expect(written.standardError.contains("Wrote the baseline to \(baseline)."))
        #expect(PlanTool.coverage(planPath: plan, recordings: [folder], baselinePath: baseline).exitCode == 0)

        // Someone deletes the sign-up call: the next run no longer records it.
        try Data(Self.recording([.screen("Login"), Event("login_tapped", ["action": "tap"])]).utf8)
            .write(to: URL(fileURLWithPath: folder).appendingPathComponent("app.jsonl"))
        let output = PlanTool.coverage(planPath: plan, recordings: [folder], baselinePath: baseline)
        #expect(output.exitCode == 1)
        #expect(output.standardError.contains(#"regression: track "sign_up_tapped" is no longer seen"#))
        #expect(output.standardError.contains("error: 1 regression since the baseline"))
    }

    @Test func coverageWritesEveryFormat() throws {
        let (plan, folder) = try Self.setUp(Self.everything)
        for format in PlanTool.CoverageFormat.allCases {
            let report = URL(fileURLWithPath: folder).deletingLastPathComponent().appendingPathComponent(
                "report.\(format)")
            let output = PlanTool.coverage(
                planPath: plan, recordings: [folder], format: format, outputPath: report.path)
            #expect(output.exitCode == 0)
            #expect(output.standardOutput.isEmpty)
            let text = try String(contentsOf: report, encoding: .utf8)
            switch format {
            case .table: #expect(text.contains("sign_up_tapped"))
            case .json: #expect((try? PropertyValue(json: text)) != nil)
            case .markdown: #expect(text.contains("|"))
            case .junit: #expect(text.hasPrefix("<?xml"))
            }
        }
    }

    @Test func coverageCountsTheReadableLinesAndFailsOnTheOthers() throws {
        let (plan, folder) = try Self.setUp(Self.everything)
        try Data("{oops\n".utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent("b.jsonl"))
        let output = PlanTool.coverage(planPath: plan, recordings: [folder], minimum: 100)
        #expect(output.exitCode == 65)
        #expect(output.standardError.contains("b.jsonl:1: error: Not valid JSON"))
        #expect(output.standardError.contains("Read 3 events from 2 recordings. Plan coverage: 3/3 events (100.0%)"))
        #expect(output.standardError.contains("error: 1 unreadable line in the recordings was not counted"))
    }

    @Test func aMissingOrInvalidBaselineIsAClearError() throws {
        let (plan, folder) = try Self.setUp(Self.everything)
        let missing = PlanTool.coverage(planPath: plan, recordings: [folder], baselinePath: folder + "/none.json")
        #expect(missing.exitCode == 66)
        #expect(missing.standardError.contains("the baseline is missing; create it with --write-baseline"))
        let invalid = URL(fileURLWithPath: folder).appendingPathComponent("bad-baseline.json")
        try Data("[]".utf8).write(to: invalid)
        #expect(PlanTool.coverage(planPath: plan, recordings: [folder], baselinePath: invalid.path).exitCode == 65)
    }
}

// Runs the built `tally`: `Process` exists on macOS and Linux only.
#if os(macOS) || os(Linux)
@Suite(
    "validate and coverage, the built binary", .enabled(if: TallyBinary.hasCommandLine, TallyBinary.needsCommandLine))
struct RecordingCommandsBinaryTests {
    @Test(arguments: [["validate", "--help"], ["coverage", "--help"], ["--help"]])
    func helpHasExamplesAndExitCodes(_ arguments: [String]) throws {
        let result = try TallyBinary.run(arguments)
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.contains("Examples:"))
        #expect(result.standardOutput.contains("Exit codes:"))
    }

    /// Each exit code a scenario produces is one the command's --help lists.
    @Test func everyExitCodeIsDocumentedInHelp() throws {
        let (plan, folder) = try RecordingCommandsTests.setUp([Event("login_tapped", ["action": "pinch"])])
        let valid = try RecordingCommandsTests.setUp(RecordingCommandsTests.everything)
        let cut = URL(fileURLWithPath: folder).deletingLastPathComponent().appendingPathComponent("cut.jsonl").path
        try Data(#"{"tally_record":1"#.utf8).write(to: URL(fileURLWithPath: cut))
        let scenarios: [(command: String, arguments: [String], output: String?, code: Int32)] = [
            ("validate", ["validate", "--plan", valid.plan, valid.folder], nil, 0),
            ("validate", ["validate", "--plan", plan, folder], nil, 1),
            // --recordings, as coverage takes them, reads the same files as the arguments.
            ("validate", ["validate", "--plan", valid.plan, "--recordings", valid.folder], nil, 0),
            ("validate", ["validate", "--plan", plan, "--recordings", folder], nil, 1),
            ("validate", ["validate", "--plan", plan, "--recordings", valid.folder, folder], nil, 1),
            ("validate", ["validate", "--plan", plan], nil, 64),
            ("validate", ["validate", "--plan", plan, cut], nil, 65),
            ("validate", ["validate", "--plan", plan, folder + "/none.jsonl"], nil, 66),
            ("validate", ["validate", "--plan", plan, folder], "/dev/full", 73),
            ("coverage", ["coverage", "--plan", valid.plan, "--recordings", valid.folder], nil, 0),
            ("coverage", ["coverage", "--plan", plan, "--recordings", folder, "--min", "50"], nil, 1),
            ("coverage", ["coverage", "--plan", plan, "--recordings", folder, "--min", "101"], nil, 64),
            ("coverage", ["coverage", "--plan", plan, "--recordings", cut], nil, 65),
            ("coverage", ["coverage", "--plan", plan, "--recordings", folder + "/none"], nil, 66),
            ("coverage", ["coverage", "--plan", plan, "--recordings", folder], "/dev/full", 73),
            ("lint", ["lint", plan], "/dev/full", 73),
            ("gen", ["gen", "--plan", plan, "--output", cut + ".swift"], "/dev/full", 73),
        ]
        for scenario in scenarios {
            let result = try TallyBinary.run(scenario.arguments, standardOutputPath: scenario.output)
            #expect(
                result.exitCode == scenario.code,
                "\(scenario.arguments) > \(scenario.output ?? "pipe"): \(result.standardError)")
            let help = try TallyBinary.run(scenario.command.split(separator: " ").map(String.init) + ["--help"])
                .standardOutput
            let codes = help.components(separatedBy: "Exit codes:").last ?? ""
            #expect(
                codes.contains("\n  \(scenario.code) "),
                "tally \(scenario.command) --help does not list \(scenario.code)")
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func aFullStandardOutputExits73WithAMessage() throws {
        let (plan, folder) = try RecordingCommandsTests.setUp(RecordingCommandsTests.everything)
        for arguments in [["validate", "--plan", plan, folder], ["--help"], ["validate", "--help"]] {
            let result = try TallyBinary.run(arguments, standardOutputPath: "/dev/full")
            #expect(result.exitCode == 73, "\(arguments)")
            #expect(result.standardError == "tally: error: cannot write to standard output: No space left on device\n")
        }
    }

    @Test func aClosedStandardOutputExits73WithAMessage() throws {
        let (plan, folder) = try RecordingCommandsTests.setUp(RecordingCommandsTests.everything)
        let result = try TallyBinary.run(["validate", "--plan", plan, folder], closedStandardOutput: true)
        #expect(result.exitCode == 73)
        #expect(result.standardError == "tally: error: cannot write to standard output: Broken pipe\n")
    }

    @Test func aFIFOIsARecordingToo() async throws {
        let (plan, folder) = try RecordingCommandsTests.setUp([])
        let fifo = URL(fileURLWithPath: folder).appendingPathComponent("live.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let writer = BackgroundThread {
            let handle = try FileHandle(forWritingTo: fifo)
            try handle.write(contentsOf: Data(RecordingCommandsTests.recording(RecordingCommandsTests.everything).utf8))
            try handle.close()
        }
        let result = try TallyBinary.run(["validate", "--plan", plan, fifo.path])
        try await writer.value()
        #expect(result.exitCode == 0)
        #expect(result.standardOutput == "Checked 3 events from 1 recording: every event is valid\n")
    }

    /// Issue 23: `tally validate --format json` names an identify event by what it carries, as its help says.
    @Test func validateJSONNamesAnIdentifyEventByItsId() throws {
        let (plan, folder) = try RecordingCommandsTests.setUp([.identify(userId: "user-42")])
        let result = try TallyBinary.run(["validate", "--plan", plan, "--format", "json", folder])
        #expect(result.exitCode == 1)
        let report = try PropertyValue(json: result.standardOutput)
        #expect(report.objectValue?["events"]?.arrayValue?.first?.objectValue?["name"] == "identify user-42")
        // Help wraps its text to the terminal's width.
        let help = try TallyBinary.run(["validate", "--help"]).standardOutput
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains(#"(identify user-42, group acme, alias user-43), with "other_ids": true"#), "\(help)")
    }

    /// `tally validate --help` says how to validate a collector session, and how a spy's records are judged.
    @Test func validateHelpNamesCollectorSessionsAndTrackedRecords() throws {
        let help = try TallyBinary.run(["validate", "--help"]).standardOutput
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(
            help.contains(
                "curl -sf 'http://127.0.0.1:8787/tally/records?session=NAME' > session.jsonl && tally validate --plan P session.jsonl"
            ), "\(help)")
        #expect(
            help.contains(
                "A spy's records (stage tracked: what the app handed over, before any client's rules) are judged after the plan's personal-data rules"
            ), "\(help)")
    }

    @Test func validateAndCoverageExitCodes() throws {
        let (plan, folder) = try RecordingCommandsTests.setUp([Event("login_tapped", ["action": "pinch"])])
        #expect(try TallyBinary.run(["validate", "--plan", plan, folder]).exitCode == 1)
        #expect(try TallyBinary.run(["coverage", "--plan", plan, "--recordings", folder, "--min", "50"]).exitCode == 1)
        #expect(
            try TallyBinary.run(["coverage", "--plan", plan, "--recordings", folder, "--min", "101"]).exitCode == 64)
        #expect(
            try TallyBinary.run(["coverage", "--plan", plan, "--recordings", folder, "--write-baseline"]).exitCode == 64
        )
        #expect(try TallyBinary.run(["validate", "--plan", plan]).exitCode == 64)
    }
}
#endif
