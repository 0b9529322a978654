import Foundation

/// Applies each personal property's rule (``PersonalDataRule``) before any destination sees the event:
/// hashes, redacts or removes the values the tracking plan marks as personal.
///
/// ```swift
/// let personal = PersonalDataProcessor(
///     [
///         PersonalProperty(event: "signed_up", key: "email", kind: .email, rule: .hash),
///         PersonalProperty(key: "search_text", kind: .freeText, rule: .neverSend),
///     ],
///     hash: { value in SHA256.hash(data: Data(value.utf8)).map { String(format: "%02x", $0) }.joined() })
/// let analytics = AnalyticsClient(processors: [personal], destinations: destinations)
/// ```
///
/// A tracking plan builds one from its `personal:` marks (`TrackingPlan.personalDataProcessor`). Put it
/// last among the processors, so that nothing added later escapes it.
///
/// Tally holds no cryptography of its own (the core uses Foundation only): `.hash` uses the function you
/// give, such as CryptoKit's SHA-256 on Apple platforms or swift-crypto's elsewhere. Without one, a value
/// to hash is redacted instead (never sent in the clear), and a ``Problem/Code/personalDataNotHashed``
/// problem says so for each event.
public struct PersonalDataProcessor: Processor {
    /// What redacted values become. Default `[redacted]`.
    public var replacement: String
    /// Rules by event name, then key; `""` holds the rules for every event.
    private let rules: [String: [String: PersonalDataRule]]
    private let hash: (@Sendable (String) -> String)?

    /// A processor for these personal properties.
    ///
    /// - Parameters:
    ///   - properties: the personal properties and their rules. When a key is marked for one event and for
    ///     every event, the event's own mark wins.
    ///   - hash: turns a value (its text, or its JSON for other values) into its hash; nil redacts instead.
    ///   - replacement: what redacted values become.
    public init(
        _ properties: [PersonalProperty], hash: (@Sendable (String) -> String)? = nil,
        replacement: String = "[redacted]"
    ) {
        var rules: [String: [String: PersonalDataRule]] = [:]
        for property in properties { rules[property.event ?? "", default: [:]][property.key] = property.rule }
        self.rules = rules
        self.hash = hash
        self.replacement = replacement
    }

    public var name: String { "personal_data" }

    public func process(_ envelope: inout Envelope, context: ProcessingContext) -> ProcessingDecision {
        let unhashed = apply(to: &envelope.event)
        if !unhashed.isEmpty {
            context.report(
                Problem(
                    .personalDataNotHashed,
                    "No hash function was given: \(unhashed.sorted().joined(separator: ", ")) redacted instead of hashed",
                    outcome: .sanitized, eventName: envelope.reportName))
        }
        return .keep
    }

    /// Applies the rules to `event`'s properties, as ``process(_:context:)`` does.
    ///
    /// - Returns: the keys to hash that were redacted instead, for want of a hash function.
    package func apply(to event: inout Event) -> [String] {
        let own = rules[event.isNamed ? event.name : event.kind.rawValue]
        let shared = rules[""]
        guard own != nil || shared != nil else { return [] }
        var unhashed: [String] = []
        for (key, value) in event.properties {
            guard let rule = own?[key] ?? shared?[key] else { continue }
            switch rule {
            case .send:
                continue
            case .neverSend:
                event.properties[key] = nil
            case .redact:
                event.properties[key] = .string(replacement)
            case .hash:
                if let hash {
                    event.properties[key] = .string(hash(value.stringValue ?? value.jsonString))
                } else {
                    event.properties[key] = .string(replacement)
                    unhashed.append(key)
                }
            }
        }
        return unhashed
    }
}

extension Processor where Self == PersonalDataProcessor {
    /// Applies each personal property's rule before any destination sees the event. See
    /// ``PersonalDataProcessor``.
    public static func personalData(
        _ properties: [PersonalProperty], hash: (@Sendable (String) -> String)? = nil
    ) -> PersonalDataProcessor {
        PersonalDataProcessor(properties, hash: hash)
    }
}
