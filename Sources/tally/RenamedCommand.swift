#if CLI
import ArgumentParser

/// A command `tally` no longer has, and what replaced it (CHANGELOG, "Renamed"). No release had the old
/// names, so none is an alias: each fails with a usage error (exit code 64) naming the new command, followed
/// by the user's other arguments, instead of ArgumentParser's "unexpected arguments". Checked before parsing,
/// so `tally --help` never lists them.
struct RenamedCommand {
    /// The old words after `tally`: `["plan", "lint"]`.
    var old: [String]
    /// What to run instead, before the user's other arguments.
    var replacement: [String]
    /// What the old command is now, for the message; the replacement itself when nil.
    var now: String?

    /// Longer old names first, so `tally plan lint` is matched before `tally plan`.
    static let all: [RenamedCommand] = [
        RenamedCommand(old: ["plan", "lint"], replacement: ["tally", "lint"]),
        // `lint` was the only command under `plan`.
        RenamedCommand(old: ["plan"], replacement: ["tally", "lint"]),
        RenamedCommand(old: ["check"], replacement: ["tally", "validate"]),
        RenamedCommand(
            old: ["demo"], replacement: ["swift", "run", "--package-path", "Examples", "demo"],
            now: "the examples' demo, run in Tally's repository"),
    ]

    /// The message for `arguments` (without the executable's path) when they start with an old command.
    static func message(for arguments: [String]) -> String? {
        guard let renamed = all.first(where: { arguments.starts(with: $0.old) }) else { return nil }
        let replacement = renamed.replacement.joined(separator: " ")
        let corrected = (renamed.replacement + arguments.dropFirst(renamed.old.count).map(shellQuoted))
            .joined(separator: " ")
        let old = "'" + (["tally"] + renamed.old).joined(separator: " ") + "'"
        let now = renamed.now ?? "'\(replacement)'"
        return corrected == replacement && renamed.now == nil
            ? "\(old) is now \(now)." : "\(old) is now \(now): \(corrected)"
    }

    /// Throws a `ValidationError` naming the new command when `arguments` start with an old one.
    static func reject(_ arguments: [String]) throws {
        if let message = message(for: arguments) { throw ValidationError(message) }
    }

    /// `argument` as a shell reads it back: as it is when it holds only safe characters, else single-quoted.
    static func shellQuoted(_ argument: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-")
        if !argument.isEmpty && argument.allSatisfy(safe.contains) { return argument }
        return "'" + argument.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
#endif
