import Foundation

/// Finds values that look like personal data whatever their key: e-mail addresses, and phone numbers
/// written in international form (`+44 20 7946 0958`). What catches a personal value in a property nobody
/// marked (see ``PersonalProperty``): the test kit's `EventMatcher.holdingPersonalData` uses it.
///
/// It reads string values at any depth of the properties. It looks for shapes, not meaning: a phone number
/// without its `+` country code, a name or an address are not found.
public enum PersonalDataScan {
    /// One value that looks personal.
    public struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// Where the value is, as a JSON Pointer into the properties (`/contact/email`, `/emails/0`).
        public var path: String
        /// What it looks like.
        public var kind: PersonalDataKind

        public init(path: String, kind: PersonalDataKind) {
            self.path = path
            self.kind = kind
        }

        /// `/contact/email: email`
        public var description: String { "\(path): \(kind)" }
    }

    /// The values of `properties` that look like personal data, in key order.
    ///
    /// - Parameters:
    ///   - properties: an event's properties (or any object's members).
    ///   - skipping: top-level keys not to read (properties marked personal with ``PersonalDataRule/send``).
    public static func findings(
        in properties: [String: PropertyValue], skipping: Set<String> = []
    ) -> [Finding] {
        // Most events hold no string with an @ or a +: answer them without sorting keys or building paths
        // (and without hashing a key for `skipping` unless its value could match).
        guard properties.contains(where: { mayHoldPersonalData($0.value) && !skipping.contains($0.key) }) else {
            return []
        }
        var found: [Finding] = []
        for key in properties.keys.sorted() where !skipping.contains(key) {
            scan(properties[key]!, at: "/" + JSONPointer.escape(key), into: &found)
        }
        return found
    }

    private static func scan(_ value: PropertyValue, at path: String, into found: inout [Finding]) {
        switch value {
        case .string(let text):
            if let kind = kind(of: text) { found.append(Finding(path: path, kind: kind)) }
        case .array(let elements):
            for (index, element) in elements.enumerated() { scan(element, at: "\(path)/\(index)", into: &found) }
        case .object(let members):
            for key in members.keys.sorted() {
                scan(members[key]!, at: "\(path)/\(JSONPointer.escape(key))", into: &found)
            }
        default:
            return
        }
    }

    /// Whether `value` holds, at any depth, a string with an @ or a +: the only strings the scan can match.
    /// False means ``findings(in:skipping:)`` finds nothing in it; true, that it may.
    package static func mayHoldPersonalData(_ value: PropertyValue) -> Bool {
        switch value {
        case .string(let text): mayHoldPersonalData(text)
        case .array(let elements): elements.contains(where: mayHoldPersonalData)
        case .object(let members): members.values.contains(where: mayHoldPersonalData)
        default: false
        }
    }

    /// Whether `text` has an @ or a +, read from its UTF-8 storage in place (a small string's too).
    @inline(__always)
    static func mayHoldPersonalData(_ text: String) -> Bool {
        if let found = text.utf8.withContiguousStorageIfAvailable({ bytes in
            bytes.contains { $0 == at || $0 == plus }
        }) {
            return found
        }
        return text.utf8.contains { $0 == at || $0 == plus }
    }

    private static let at = UInt8(ascii: "@")
    private static let plus = UInt8(ascii: "+")

    /// The kind of personal data `text` holds, if it holds one the scan knows.
    static func kind(of text: String) -> PersonalDataKind? {
        // Cheap checks first: most values hold neither an @ nor a +.
        let hasAt = text.utf8.contains(at)
        let hasPlus = text.utf8.contains(plus)
        guard hasAt || hasPlus else { return nil }
        let range = NSRange(text.startIndex..., in: text)
        if hasAt, Patterns.shared.email.firstMatch(in: text, range: range) != nil { return .email }
        if hasPlus, Patterns.shared.phone.firstMatch(in: text, range: range) != nil { return .phone }
        return nil
    }

    /// `NSRegularExpression` is immutable and documented as safe to use from several threads.
    private final class Patterns: @unchecked Sendable {
        static let shared = Patterns()
        // `try!`: both patterns are constants, compiled on first use by every test of the scan
        // (PersonalDataTests); a typo in them fails those tests, never an app's input.
        let email = try! NSRegularExpression(
            pattern: #"[A-Z0-9._%+-]+@[A-Z0-9-]+(\.[A-Z0-9-]+)*\.[A-Z]{2,}"#, options: [.caseInsensitive])
        let phone = try! NSRegularExpression(pattern: #"\+[1-9][0-9 ().-]{6,18}[0-9]"#)
    }
}
