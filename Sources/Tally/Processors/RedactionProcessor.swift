import Foundation

/// Removes personal data before it leaves the app: values under given keys, or text matching a pattern,
/// become ``RedactionProcessor/replacement``.
///
/// Keys match case-insensitively at any depth of the event's properties and the envelope's context.
/// Patterns apply to every string value at any depth.
///
/// ```swift
/// let processors: [any Processor] = try [
///     .redact(keys: ["email", "phone"]),
///     .redact(pattern: #"[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}"#),   // e-mail addresses anywhere
/// ]
/// ```
public struct RedactionProcessor: Processor {
    /// What redacted values and matches become. Default `[redacted]`.
    public var replacement: String
    private let keys: Set<String>
    private let pattern: Pattern?

    /// Redacts the values of these keys.
    public init(keys: Set<String>, replacement: String = "[redacted]") {
        self.keys = Set(keys.map { $0.lowercased() })
        self.pattern = nil
        self.replacement = replacement
    }

    /// Redacts the parts of string values that match a regular expression (case-insensitive).
    ///
    /// - Throws: the regular expression's error when `pattern` is not valid.
    public init(pattern: String, replacement: String = "[redacted]") throws {
        self.keys = []
        self.pattern = Pattern(try NSRegularExpression(pattern: pattern, options: [.caseInsensitive]))
        self.replacement = replacement
    }

    public var name: String { "redact" }

    public func process(_ envelope: inout Envelope, context: ProcessingContext) -> ProcessingDecision {
        redact(&envelope.event.properties)
        if !envelope.context.isEmpty { redact(&envelope.context) }
        return .keep
    }

    /// Finds what to change first, then changes it in place: writing while iterating would copy the
    /// dictionary.
    private func redact(_ members: inout [String: PropertyValue]) {
        for change in changes(in: members) { members[change.key] = change.value }
    }

    /// The event's properties, merged view included: a redacted super property is set on the event
    /// itself, over the shared layer.
    private func redact(_ properties: inout Event.Properties) {
        for change in changes(in: properties) { properties[change.key] = change.value }
    }

    private func changes(
        in members: some Sequence<(key: String, value: PropertyValue)>
    ) -> [(key: String, value: PropertyValue)] {
        var changes: [(key: String, value: PropertyValue)] = []
        for (key, value) in members {
            if keys.contains(key.lowercased()) {
                changes.append((key, .string(replacement)))
            } else {
                let redacted = redact(value)
                if redacted != value { changes.append((key, redacted)) }
            }
        }
        return changes
    }

    private func redact(_ value: PropertyValue) -> PropertyValue {
        switch value {
        case .object(var members):
            redact(&members)
            return .object(members)
        case .array(let elements): return .array(elements.map(redact))
        case .string(let string):
            guard let pattern else { return value }
            return .string(pattern.replaceMatches(in: string, with: replacement))
        default: return value
        }
    }

    /// `NSRegularExpression` is immutable and documented as safe to use from several threads.
    private struct Pattern: @unchecked Sendable {
        let expression: NSRegularExpression
        init(_ expression: NSRegularExpression) { self.expression = expression }

        func replaceMatches(in string: String, with replacement: String) -> String {
            let range = NSRange(string.startIndex..., in: string)
            guard expression.firstMatch(in: string, range: range) != nil else { return string }
            return expression.stringByReplacingMatches(
                in: string, range: range, withTemplate: NSRegularExpression.escapedTemplate(for: replacement))
        }
    }
}

extension Processor where Self == RedactionProcessor {
    /// Replaces the values of these keys, at any depth, with `[redacted]`. See ``RedactionProcessor``.
    public static func redact(keys: Set<String>) -> RedactionProcessor { RedactionProcessor(keys: keys) }

    /// Replaces text matching `pattern` in every string value with `[redacted]`.
    ///
    /// - Throws: the regular expression's error when `pattern` is not valid.
    public static func redact(pattern: String) throws -> RedactionProcessor {
        try RedactionProcessor(pattern: pattern)
    }
}
