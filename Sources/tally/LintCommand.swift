#if CLI
import ArgumentParser
import Foundation
import TallyPlan

/// `tally lint PLAN`: checks a plan file and prints every finding with its location.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check a tracking plan file and print every error and warning with its file, line and column.",
        discussion: """
            Findings print as compilers print them, so editors and CI link to the line:
              plan.yaml:12:7: error: 'minimum' must be a number, not "zero"
              plan.yaml:20:9: warning: Unknown keyword 'minLenght' is ignored

            Errors make the plan unusable (a bad keyword value, an unknown type or kind, a duplicate event, an \
            invalid regular expression, a purpose in consent.required that no event needs). Warnings flag what \
            is probably a mistake (an unknown keyword, a rule that cannot apply to the declared type).

            Where the plan contradicts itself about privacy is an error too, at its line, though the plan still \
            loads for the other commands: an event past its expires day; a personal property with no rule; a \
            property with format: email and no personal mark (tally validate reports its values as \
            personalDataUnmarked); a property marked personal: { kind: advertising_id } on an event whose \
            purpose is not advertising; an event whose purpose no destination may receive; and an event that \
            a destination which may receive advertising may receive although it flows without the user's \
            answer (its purpose is not in consent.required, or it is necessary). A plan without a consent: \
            block requires consent for nothing, so there every event such a destination may receive is an \
            error; a plan without destinations: says nothing about where events go.

            Colour is used only when standard output is a terminal and NO_COLOR is not set.

            Examples:
              tally lint tracking-plan.yaml
              tally lint --warnings-as-errors tracking-plan.json

            Exit codes:
              0   no errors (warnings allowed unless --warnings-as-errors)
              1   the plan has errors (or warnings, with --warnings-as-errors)
              64  bad usage
              65  the file is not UTF-8, or not a YAML or JSON document
              66  the file is missing or unreadable
              73  the findings cannot be written (standard output is full or closed)
            """
    )

    @Argument(help: "The plan file, YAML or JSON.")
    var plan: String

    @Flag(help: "Exit with 1 when there are warnings, too.")
    var warningsAsErrors = false

    func run() throws {
        let output = PlanTool.lint(
            path: plan, warningsAsErrors: warningsAsErrors, style: .forFileDescriptor(STDOUT_FILENO))
        try output.finish()
    }
}
#endif
