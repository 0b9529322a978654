#if CLI
import ArgumentParser
import Foundation
import TallyPlan

/// `tally validate --plan PLAN --recordings RECORDING...` (or the recordings as arguments): validates recorded
/// events against a plan.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate recorded events against a tracking plan and print the violations grouped by event.",
        discussion: """
            Reads Tally recordings (JSON Lines written by RecordingDestination, or by spies when \
            TALLY_RECORD_DIR is set): files, FIFOs, or folders whose .jsonl files are all read. Recordings \
            are read streaming, in bounded memory, and validated on every core. Every event is validated \
            against the plan; violations are grouped by event, each with how often it occurred, one \
            example and, when the recording says, where the first event that broke it was tracked \
            (Tests/AppTests/SignUpTests.swift:42). A string that looks like an e-mail address or an \
            international phone number in a property the plan does not mark personal is a violation \
            (personalDataUnmarked); the value is never printed. When the plan lists purposes under \
            consent.required, a record whose "consent" says the event of such a purpose went out without \
            the user's grant (denied, not_asked, or not_required: a client that does not gate it) is a \
            violation (sentWithoutConsent), counted apart for each answer; a record with no "consent" is not. \
            An event recorded with a purpose other than its plan entry's is a violation (purposeMismatch), \
            and so is a value of a property whose key the plan marks personal: { kind: advertising_id } in an \
            event recorded with a purpose other than advertising (advertisingIdentifierOutsideAdvertising).

            A line that is not a readable record (not JSON, invalid UTF-8, nested deeper than 64 levels, \
            not a Tally record, a "consent" other than granted, denied, not_asked or not_required, a "stage" \
            other than tracked or delivered) and a \
            last line cut off without its newline are errors printed to standard \
            error with their file and line; the other lines are still validated, and the summary says how \
            many lines were not.

            Name recordings with --recordings, as tally coverage does, or as arguments: both forms \
            read the same files.

            A spy's records (stage tracked: what the app handed over, before any client's rules) are \
            judged after the plan's personal-data rules, as a client following the plan would deliver \
            them: a value the plan says to hash counts as hashed, one to redact as redacted, one never to \
            send as absent. A destination's records (stage delivered) are judged as they are.

            A collector session (tally collect) is a recording too: save it with GET /tally/records and \
            validate the file, as the last example does. Start the collector with the same --plan, so \
            that events in a vendor's format, which name no purpose, have their planned event's.

            With --format json, each entry of "events" names its event as the text does: "name" is \
            the event name of a track or screen event (login_tapped); identify, group and alias events, \
            grouped by kind, are named by what the first failing one carries (identify user-42, group \
            acme, alias user-43), with "other_ids": true when other failing events carry other ids.

            Examples:
              tally validate --plan tracking-plan.yaml --recordings .build/recordings
              tally validate --plan tracking-plan.yaml .build/recordings/app.jsonl
              tally validate --plan tracking-plan.yaml --format json .build/recordings > violations.json
              curl -sf 'http://127.0.0.1:8787/tally/records?session=NAME' > session.jsonl && tally validate --plan P session.jsonl

            Exit codes:
              0   every event is valid
              1   at least one violation
              64  bad usage
              65  the plan is invalid or has keywords tally does not check and --allow-unchecked-keywords
                  was not given, or a recording has an unreadable or cut-off line (the file and line are
                  printed)
              66  the plan or a recording is missing or cannot be read
              73  the report cannot be written (standard output is full or closed)
            """
    )

    @Option(help: "The plan file, YAML or JSON.")
    var plan: String

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Flag(
        help: """
            Validate even though the plan has keywords tally does not check ($ref, anyOf, unknown keywords or \
            formats); the summary lists them.
            """)
    var allowUncheckedKeywords = false

    @Option(
        name: .customLong("recordings"),
        help: "A folder of recordings (or one recording file), as tally coverage takes them. Repeat to read several.")
    var recordingOptions: [String] = []

    @Argument(
        help: ArgumentHelp(
            "Recording files or folders of recordings (the same as --recordings).", valueName: "recording"))
    var recordingArguments: [String] = []

    /// Both forms, options first.
    var recordings: [String] { recordingOptions + recordingArguments }

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    func validate() throws {
        if recordings.isEmpty { throw ValidationError("Name at least one recording file or folder.") }
    }

    func run() throws {
        let output = PlanTool.validate(
            planPath: plan, recordings: recordings, json: format == .json,
            allowUncheckedKeywords: allowUncheckedKeywords, style: .forFileDescriptor(STDOUT_FILENO))
        try output.finish()
    }
}
#endif
