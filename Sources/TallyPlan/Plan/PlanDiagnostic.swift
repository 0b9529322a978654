/// A place in a plan file: the file name, a line and a column, both counted from 1.
///
/// Columns count Unicode scalars, as the YAML reader does. A location that concerns the whole file (a
/// missing file, an empty document) has line and column 0 and prints as the file name alone.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file as it was named when loading, for example `plan.yaml` or `Plans/plan.json`.
    public var file: String
    /// The line, from 1; 0 when the location is the whole file.
    public var line: Int
    /// The column in Unicode scalars, from 1; 0 when unknown.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int = 0, column: Int = 0) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, or `file` when the line is unknown.
    public var description: String {
        guard line > 0 else { return file }
        return column > 0 ? "\(file):\(line):\(column)" : "\(file):\(line)"
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}

/// One finding about a plan file: an error that makes the plan unusable, or a warning about something
/// that is probably a mistake (an unknown keyword, a rule that cannot apply to the declared type).
///
/// It prints the way compilers do, so editors and CI annotate the right line:
///
/// ```text
/// plan.yaml:12:7: error: 'minimum' must be a number, not "zero"
/// plan.yaml:20:9: warning: unknown keyword 'minLenght' is ignored; did you mean 'minLength'?
/// ```
public struct PlanDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a finding is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// Something is probably wrong, but the plan can be used.
        case warning
        /// The plan cannot be used until this is fixed.
        case error

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs == .warning && rhs == .error
        }
    }

    /// Error or warning.
    public var severity: Severity
    /// Where the finding is.
    public var location: SourceLocation
    /// What is wrong, in one sentence.
    public var message: String

    /// Creates a finding.
    public init(_ severity: Severity, _ message: String, at location: SourceLocation) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    /// The file name, as given when loading.
    public var file: String { location.file }
    /// The line, from 1 (0 for the whole file).
    public var line: Int { location.line }
    /// The column, from 1 (0 when unknown).
    public var column: Int { location.column }

    /// `file:line:column: error: message`.
    public var description: String { "\(location): \(severity.rawValue): \(message)" }
}

/// Why a plan could not be loaded: the file is missing or unreadable, it is not a YAML or JSON document,
/// or the plan in it has errors.
///
/// ``diagnostics`` holds every error found, in file order, each with a file, line and column; the
/// ``file``, ``line``, ``column`` and ``message`` properties are those of the first. ``description``
/// prints one line per error:
///
/// ```text
/// plan.yaml:12:7: error: 'minimum' must be a number, not "zero"
/// ```
public struct PlanError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, broadly. The command line maps it to an exit code.
    public enum Kind: String, Sendable, Hashable {
        /// There is no file at the path (exit code 66).
        case fileNotFound
        /// The file exists but cannot be read, or this build reads no plans: Tally's `Plans` trait is off
        /// (exit code 66).
        case unreadable
        /// The text is not UTF-8, or not a YAML or JSON document (exit code 65).
        case syntax
        /// The document is not a valid plan: a missing field, a bad keyword value, a duplicate event (exit
        /// code 65 for `tally gen`, 1 for `tally lint`).
        case invalidPlan
    }

    /// What went wrong, broadly.
    public var kind: Kind
    /// Every error found, in file order; never empty.
    public var diagnostics: [PlanDiagnostic]

    /// Creates an error from its findings. Warnings among them are dropped.
    public init(_ kind: Kind, diagnostics: [PlanDiagnostic]) {
        precondition(!diagnostics.isEmpty, "A PlanError needs at least one diagnostic")
        self.kind = kind
        let errors = diagnostics.filter { $0.severity == .error }
        self.diagnostics = errors.isEmpty ? diagnostics : errors
    }

    /// Creates an error with one finding.
    public init(_ kind: Kind, _ message: String, at location: SourceLocation) {
        self.init(kind, diagnostics: [PlanDiagnostic(.error, message, at: location)])
    }

    /// The file of the first error.
    public var file: String { diagnostics[0].file }
    /// The line of the first error, from 1 (0 for the whole file).
    public var line: Int { diagnostics[0].line }
    /// The column of the first error, from 1 (0 when unknown).
    public var column: Int { diagnostics[0].column }
    /// The message of the first error.
    public var message: String { diagnostics[0].message }

    /// One `file:line:column: error: message` line per error.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
