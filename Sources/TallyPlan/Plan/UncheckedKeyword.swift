/// A keyword in a plan file that Tally does not check.
///
/// Validation would pass an event that breaks such a keyword, so a plan that has any is refused by
/// ``TrackingPlan/init(contentsOf:allowingUncheckedKeywords:)`` and by `tally validate`, each naming every
/// keyword with its file, line and column, unless the caller accepts them explicitly (then `tally validate`
/// lists them in its summary).
///
/// ```swift
/// let result = PlanLoader.load(contentsOf: url)
/// for keyword in result.plan?.uncheckedKeywords ?? [] {
///     print(keyword)  // plan.yaml:14:9: 'minLenght' is not a keyword Tally knows; did you mean 'minLength'?
/// }
/// ```
public struct UncheckedKeyword: Sendable, Hashable, CustomStringConvertible {
    /// Why Tally does not check a keyword.
    public enum Reason: Sendable, Hashable {
        /// A JSON Schema keyword outside the subset Tally checks, such as `$ref` or `anyOf`.
        case unsupported
        /// Not a keyword Tally knows: often a typo, with the closest known keyword when one is near.
        case unknown(suggestion: String?)
        /// A `format` Tally has no checker for, such as `idn-email`, with the closest known format when one is
        /// near.
        case unknownFormat(suggestion: String?)
    }

    /// The keyword as written (`minLenght`), or `format: NAME` for an unknown format.
    public var keyword: String
    /// Why it is not checked.
    public var reason: Reason
    /// Where it is written: the keyword's key (or the format's value).
    public var location: SourceLocation

    /// Creates an entry.
    public init(_ keyword: String, reason: Reason, at location: SourceLocation) {
        self.keyword = keyword
        self.reason = reason
        self.location = location
    }

    /// What is not checked and why, in one sentence: `Unknown keyword 'minLenght' is not checked; did you mean
    /// 'minLength'?`.
    public var explanation: String {
        switch reason {
        case .unsupported: return "'\(keyword)' is not checked: it is JSON Schema, but not in the subset Tally checks"
        case .unknown(let suggestion):
            return "Unknown keyword '\(keyword)' is not checked" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .unknownFormat(let suggestion):
            let name = keyword.hasPrefix("format: ") ? String(keyword.dropFirst("format: ".count)) : keyword
            let known = StringFormat.allCases.map(\.rawValue).joined(separator: ", ")
            return "Format '\(name)' is not checked; Tally checks \(known)"
                + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        }
    }

    /// `plan.yaml:14:9: Unknown keyword 'minLenght' is not checked; did you mean 'minLength'?`.
    public var description: String { "\(location): \(explanation)" }

    /// The error a plan gets for this keyword where unchecked keywords are refused.
    public var refusal: PlanDiagnostic {
        PlanDiagnostic(
            .error,
            explanation + (explanation.hasSuffix("?") ? " " : ". ")
                + "Validation would pass events that break it: remove it, or accept unchecked keywords (tally validate --allow-unchecked-keywords)",
            at: location)
    }
}
