import Foundation

/// Colours for command-line output, on only when writing to a terminal and `NO_COLOR` is not set
/// (https://no-color.org).
package struct TerminalStyle: Sendable, Equatable {
    /// Whether escape codes are written.
    package var colors: Bool

    package init(colors: Bool) {
        self.colors = colors
    }

    /// The style for a stream: colours when it is a terminal and `NO_COLOR` is absent or empty.
    package static func detect(isTerminal: Bool, environment: [String: String]) -> TerminalStyle {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let dumb = environment["TERM"] == "dumb"
        return TerminalStyle(colors: isTerminal && !noColor && !dumb)
    }

    /// The style for standard output (file descriptor 1) or standard error (2) of this process.
    package static func forFileDescriptor(_ descriptor: Int32) -> TerminalStyle {
        detect(isTerminal: isatty(descriptor) == 1, environment: ProcessInfo.processInfo.environment)
    }

    package static let plain = TerminalStyle(colors: false)

    private func wrap(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    package func bold(_ text: String) -> String { wrap(text, "1") }
    package func red(_ text: String) -> String { wrap(text, "1;31") }
    package func yellow(_ text: String) -> String { wrap(text, "1;33") }
    package func green(_ text: String) -> String { wrap(text, "32") }

    /// A diagnostic as compilers print it, with the location in bold and the severity coloured.
    package func format(_ diagnostic: PlanDiagnostic) -> String {
        let severity =
            diagnostic.severity == .error ? red("error:") : yellow("warning:")
        return "\(bold("\(diagnostic.location):")) \(severity) \(diagnostic.message)"
    }
}
