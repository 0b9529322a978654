#if CLI
import ArgumentParser
import Foundation
import TallyPlan

/// `tally privacy-manifest --plan PLAN [--output FILE [--check]]`: the privacy-manifest entries a plan implies.
struct PrivacyManifestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "privacy-manifest",
        abstract:
            "Write or check the privacy-manifest entries (NSPrivacyCollectedDataTypes, NSPrivacyTrackingDomains) a tracking plan implies.",
        discussion: """
            Every track or screen event collects product interaction and an identify event the user id; a \
            property marked personal whose rule lets it leave the app (send or hash) collects its kind (email -> \
            EmailAddress, free_text -> OtherUserContent, ...). The event's purpose gives the reason (analytics \
            -> Analytics, advertising -> ThirdPartyAdvertising and tracking, necessary -> AppFunctionality); data \
            is linked to the user when the plan has an identify event. A destination that may receive \
            advertising is tracking: the data of every event it may receive is tracking (--check names the \
            destination when the file says it is not), the hosts it names (domains:) go in \
            NSPrivacyTrackingDomains, and no other destination's host may be there, since iOS blocks every \
            listed host until the user allows tracking.

            Without --output, prints a PrivacyInfo.xcprivacy holding only those keys. With --output, adds what \
            the file lacks (creating it when missing) and lists what was added: nothing is removed, and keys \
            such as NSPrivacyAccessedAPITypes stay as they are; it fails on what only removing fixes (a host of \
            a destination without advertising listed in NSPrivacyTrackingDomains). With --check, writes nothing and fails when the file lacks \
            an entry, a purpose, linkage, tracking or a tracking domain, or lists such a host: run it in CI.

            Examples:
              tally privacy-manifest --plan tracking-plan.yaml
              tally privacy-manifest --plan tracking-plan.yaml --output App/PrivacyInfo.xcprivacy
              tally privacy-manifest --plan tracking-plan.yaml --output App/PrivacyInfo.xcprivacy --check

            Exit codes:
              0   printed, written, or (with --check) the file declares every entry
              1   with --check: the file lacks entries or lists a host iOS would block (one error each);
                  without --check: the file still lists such a host (written; nothing is removed)
              64  bad usage
              65  the plan is invalid, or the file is not a property list holding a dictionary (or its
                  NSPrivacyTrackingDomains is not a list of strings)
              66  the plan (or, with --check, the file) is missing or unreadable
              73  the file cannot be written, or standard output is full or closed
            """
    )

    @Option(help: "The plan file, YAML or JSON.")
    var plan: String

    @Option(help: "The app's PrivacyInfo.xcprivacy to add the entries to (or, with --check, to check).")
    var output: String?

    @Flag(help: "Write nothing; exit with 1 if the file lacks what the plan implies or lists a host iOS would block.")
    var check = false

    func validate() throws {
        if check && output == nil { throw ValidationError("--check needs --output, the manifest to check") }
    }

    func run() throws {
        let result = PlanTool.privacyManifest(
            planPath: plan, outputPath: output, check: check, style: .forFileDescriptor(STDERR_FILENO))
        try result.finish()
    }
}
#endif
