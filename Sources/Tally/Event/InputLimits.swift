import Foundation

/// The rules the client applies to every event before its processors run: what is rejected, what is
/// sanitized, and how.
///
/// | input | outcome | problem code |
/// |---|---|---|
/// | name empty or only whitespace | event dropped | ``Problem/Code/emptyName`` |
/// | name longer than ``maximumNameLength`` characters (256) | event dropped | ``Problem/Code/nameTooLong`` |
///
/// The name rules apply to the name of a track or screen event, and to the id an identify or alias event
/// (``Event/userId``) or a group event (``Event/groupId``) carries.
///
/// | empty property key | property removed | ``Problem/Code/emptyPropertyKey`` |
/// | NaN or an infinity | replaced by `null` | ``Problem/Code/nonFiniteNumber`` |
/// | string longer than ``maximumStringBytes`` UTF-8 bytes (64 KiB) | cut to the longest prefix of whole characters that fits | ``Problem/Code/stringTooLong`` |
/// | arrays and objects nested deeper than ``maximumDepth`` levels (32; at most ``PropertyValue/maximumDepth``, 64) | the container at level 33 replaced by `null` | ``Problem/Code/nestingTooDeep`` |
/// | more than ``maximumPropertyCount`` properties (1,000) | the first 1,000 keys in sorted order kept, the rest removed | ``Problem/Code/tooManyProperties`` |
///
/// A property value directly in ``Event/properties`` is at level 1 when it is an array or object; its
/// containers are at level 2, and so on. Every rule reports one ``Problem`` per occurrence with a JSON
/// pointer to the property, and the client counts dropped events under ``DropReason/invalidEvent``.
public struct InputLimits: Sendable, Hashable {
    /// The longest event name, in characters. Default 256.
    public var maximumNameLength: Int {
        didSet { if maximumNameLength < 0 { maximumNameLength = 0 } }
    }
    /// The longest string value, in UTF-8 bytes. Default 65,536.
    public var maximumStringBytes: Int {
        didSet { if maximumStringBytes < 0 { maximumStringBytes = 0 } }
    }
    /// The deepest nesting of arrays and objects in a property value. Default 32; values outside 0 to
    /// ``PropertyValue/maximumDepth`` (64), the one limit every reader and writer of values keeps, are
    /// clamped into it, so whatever the client delivers every recording reader reads back.
    public var maximumDepth: Int {
        didSet { if !(0...PropertyValue.maximumDepth).contains(maximumDepth) { maximumDepth = Self.clampedDepth(maximumDepth) } }
    }

    private static func clampedDepth(_ depth: Int) -> Int { min(max(0, depth), PropertyValue.maximumDepth) }
    /// The most properties an event may have. Default 1,000.
    public var maximumPropertyCount: Int {
        didSet { if maximumPropertyCount < 0 { maximumPropertyCount = 0 } }
    }

    /// Creates limits; the defaults are the documented ones. Negative values are raised to 0, and a depth
    /// over ``PropertyValue/maximumDepth`` is lowered to it.
    public init(
        maximumNameLength: Int = 256, maximumStringBytes: Int = 65_536, maximumDepth: Int = 32,
        maximumPropertyCount: Int = 1000
    ) {
        self.maximumNameLength = max(0, maximumNameLength)
        self.maximumStringBytes = max(0, maximumStringBytes)
        self.maximumDepth = Self.clampedDepth(maximumDepth)
        self.maximumPropertyCount = max(0, maximumPropertyCount)
    }

    /// The documented defaults.
    public static let `default` = InputLimits()

    /// Applies the rules to `event`.
    ///
    /// - Returns: the event to deliver, or nil when it must be dropped, and one problem per rule broken.
    public func sanitize(_ event: Event) -> (event: Event?, problems: [Problem]) {
        var problems: [Problem] = []
        let subject = event.subject
        let name = event.problemName
        if Self.isBlank(subject) {
            problems.append(
                Problem(
                    .emptyName, "The \(event.subjectNoun) is empty or only whitespace", outcome: .dropped,
                    eventName: name))
            return (nil, problems)
        }
        if subject.utf8.count > maximumNameLength, subject.count > maximumNameLength {
            problems.append(
                Problem(
                    .nameTooLong,
                    "The \(event.subjectNoun) has \(subject.count) characters; at most \(maximumNameLength) are allowed",
                    outcome: .dropped, eventName: event.name.isEmpty ? name : String(subject.prefix(64)) + "…"))
            return (nil, problems)
        }
        guard needsWork(event.properties) else { return (event, []) }

        var event = event
        var properties = event.properties
        if properties.keys.contains("") {
            properties.removeValue(forKey: "")
            problems.append(
                Problem(
                    .emptyPropertyKey, "A property with an empty key was removed", outcome: .sanitized,
                    eventName: name, path: "/properties/"))
        }
        if properties.count > maximumPropertyCount {
            let removed = properties.keys.sorted().dropFirst(maximumPropertyCount)
            for key in removed { properties.removeValue(forKey: key) }
            problems.append(
                Problem(
                    .tooManyProperties,
                    "The event had \(removed.count + maximumPropertyCount) properties; the \(removed.count) after the first \(maximumPropertyCount) in key order were removed",
                    outcome: .sanitized, eventName: name, path: "/properties"))
        }
        for key in properties.keys.sorted() {
            let path = "/properties/" + JSONPointer.escape(key)
            properties[key] = sanitize(properties[key]!, depth: 1, path: path, eventName: name, problems: &problems)
        }
        event.properties = properties
        return (event, problems)
    }

    /// Whether an event with this name passes the name rules (not blank, not too long). Identity changes
    /// follow the same rule, so a dropped identify event changes nobody's id.
    package func acceptsName(_ name: String) -> Bool {
        !Self.isBlank(name) && (name.utf8.count <= maximumNameLength || name.count <= maximumNameLength)
    }

    /// Whether `name` is empty or only whitespace. A visible ASCII byte settles it without walking the
    /// characters, which is the common case.
    package static func isBlank(_ name: String) -> Bool {
        if name.utf8.contains(where: { $0 > 0x20 && $0 < 0x7F }) { return false }
        return name.allSatisfy(\.isWhitespace)
    }

    /// A cheap check that avoids copying when every property is fine, which is nearly always.
    private func needsWork(_ properties: [String: PropertyValue]) -> Bool {
        if properties.count > maximumPropertyCount { return true }
        for (key, value) in properties where key.isEmpty || !isClean(value, depth: 1) { return true }
        return false
    }

    private func isClean(_ value: PropertyValue, depth: Int) -> Bool {
        switch value {
        case .double(let double): return double.isFinite
        case .string(let string): return string.utf8.count <= maximumStringBytes
        case .int, .bigNumber, .bool, .null: return true
        case .array(let elements):
            return depth <= maximumDepth && elements.allSatisfy { isClean($0, depth: depth + 1) }
        case .object(let members):
            return depth <= maximumDepth
                && members.values.allSatisfy { isClean($0, depth: depth + 1) }
        }
    }

    private func sanitize(
        _ value: PropertyValue, depth: Int, path: String, eventName: String, problems: inout [Problem]
    ) -> PropertyValue {
        switch value {
        case .double(let double) where !double.isFinite:
            problems.append(
                Problem(
                    .nonFiniteNumber, "\(double) cannot be represented in JSON and was replaced by null",
                    outcome: .sanitized, eventName: eventName, path: path))
            return .null
        case .string(let string) where string.utf8.count > maximumStringBytes:
            let cut = Self.truncate(string, toUTF8Bytes: maximumStringBytes)
            problems.append(
                Problem(
                    .stringTooLong,
                    "A string of \(string.utf8.count) bytes was cut to \(cut.utf8.count) bytes (the limit is \(maximumStringBytes))",
                    outcome: .sanitized, eventName: eventName, path: path))
            return .string(cut)
        case .array, .object:
            guard depth <= maximumDepth else {
                problems.append(
                    Problem(
                        .nestingTooDeep,
                        "Arrays and objects nest deeper than \(maximumDepth) levels; the deeper part was replaced by null",
                        outcome: .sanitized, eventName: eventName, path: path))
                return .null
            }
            if case .array(let elements) = value {
                return .array(
                    elements.enumerated().map { index, element in
                        sanitize(element, depth: depth + 1, path: "\(path)/\(index)", eventName: eventName, problems: &problems)
                    })
            }
            guard case .object(let members) = value else { return value }
            var result: [String: PropertyValue] = [:]
            for key in members.keys.sorted() {
                result[key] = sanitize(
                    members[key]!, depth: depth + 1, path: path + "/" + JSONPointer.escape(key), eventName: eventName,
                    problems: &problems)
            }
            return .object(result)
        default:
            return value
        }
    }

    /// The longest prefix of whole characters of `string` whose UTF-8 form has at most `limit` bytes.
    package static func truncate(_ string: String, toUTF8Bytes limit: Int) -> String {
        guard string.utf8.count > limit else { return string }
        return string.prefix(wholeCharactersWithin: limit) { $0.utf8.count }
    }
}

/// JSON pointer helpers (RFC 6901).
package enum JSONPointer {
    /// Escapes one reference token: `~` becomes `~0` and `/` becomes `~1`.
    package static func escape(_ token: String) -> String {
        guard token.contains(where: { $0 == "~" || $0 == "/" }) else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
