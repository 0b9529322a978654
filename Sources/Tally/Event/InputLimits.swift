import Foundation

/// The rules the client applies to every event before its processors run: what is rejected, what is
/// sanitized, and how.
///
/// | input | outcome | problem code |
/// |---|---|---|
/// | name empty or only whitespace | event dropped | ``Problem/Code/emptyName`` |
/// | name longer than ``maximumNameBytes`` UTF-8 bytes (256) | event dropped | ``Problem/Code/nameTooLong`` |
/// | name with a control or invisible character | event dropped | ``Problem/Code/invalidName`` |
///
/// The name rules apply to the name of a track or screen event, and to the id an identify or alias event
/// (``Event/userId``) or a group event (``Event/groupId``) carries.
///
/// | empty property key | property removed | ``Problem/Code/emptyPropertyKey`` |
/// | key longer than ``maximumNameBytes`` UTF-8 bytes, or with a control or invisible character | property removed | ``Problem/Code/invalidPropertyKey`` |
/// | NaN or an infinity | replaced by `null` | ``Problem/Code/nonFiniteNumber`` |
/// | string longer than ``maximumStringBytes`` UTF-8 bytes (64 KiB) | cut to the longest prefix of whole characters that fits | ``Problem/Code/stringTooLong`` |
/// | arrays and objects nested deeper than ``maximumDepth`` levels (32; at most ``PropertyValue/maximumDepth``, 64) | the container at level 33 replaced by `null` | ``Problem/Code/nestingTooDeep`` |
/// | more than ``maximumPropertyCount`` properties (1,000) | the first 1,000 keys in sorted order kept, the rest removed | ``Problem/Code/tooManyProperties`` |
///
/// A property value directly in ``Event/properties`` is at level 1 when it is an array or object; its
/// containers are at level 2, and so on. The key rules apply to the keys of objects at every level. Every
/// rule reports one ``Problem`` per occurrence with a JSON pointer to the property, and the client counts
/// dropped events under ``DropReason/invalidEvent``.
///
/// ## Control and invisible characters
/// Names, ids and keys are identifiers: two that look the same must be the same. So they may not hold
/// - control characters: Unicode's category Cc (U+0000 to U+001F, U+007F to U+009F: NUL, tab, line feed,
///   escape…) and the line and paragraph separators U+2028 and U+2029;
/// - invisible characters: Unicode's format characters (category Cf) and every other default-ignorable
///   code point: zero-width space, non-joiner and joiner (U+200B to U+200D), word joiner (U+2060), byte
///   order mark (U+FEFF), soft hyphen (U+00AD), bidirectional controls, variation selectors, tag
///   characters, Hangul fillers.
///
/// An event whose name or id holds one is dropped, and a property whose key holds one is removed, rather
/// than cleaned: a cleaned id could name another user. Emoji sequences use joiners and variation
/// selectors, so keep emoji out of names. String *values* may hold any character; JSON escapes them.
public struct InputLimits: Sendable, Hashable {
    /// The longest name, id or property key, in UTF-8 bytes. Default 256: 256 ASCII characters, fewer
    /// when some take several bytes. Bytes, not characters: one character may have any number of
    /// combining marks, so a limit in characters bounds nothing.
    public var maximumNameBytes: Int {
        didSet { if maximumNameBytes < 0 { maximumNameBytes = 0 } }
    }
    /// The longest string value, in UTF-8 bytes. Default 65,536.
    public var maximumStringBytes: Int {
        didSet { if maximumStringBytes < 0 { maximumStringBytes = 0 } }
    }
    /// The deepest nesting of arrays and objects in a property value. Default 32; values outside 0 to
    /// ``PropertyValue/maximumDepth`` (64), the one limit every reader and writer of values keeps, are
    /// clamped into it, so whatever the client delivers every recording reader reads back.
    public var maximumDepth: Int {
        didSet {
            if !(0...PropertyValue.maximumDepth).contains(maximumDepth) {
                maximumDepth = Self.clampedDepth(maximumDepth)
            }
        }
    }

    private static func clampedDepth(_ depth: Int) -> Int { min(max(0, depth), PropertyValue.maximumDepth) }
    /// The most properties an event may have. Default 1,000.
    public var maximumPropertyCount: Int {
        didSet { if maximumPropertyCount < 0 { maximumPropertyCount = 0 } }
    }

    /// Creates limits; the defaults are the documented ones. Negative values are raised to 0, and a depth
    /// over ``PropertyValue/maximumDepth`` is lowered to it.
    public init(
        maximumNameBytes: Int = 256, maximumStringBytes: Int = 65_536, maximumDepth: Int = 32,
        maximumPropertyCount: Int = 1000
    ) {
        self.maximumNameBytes = max(0, maximumNameBytes)
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
        var event = event
        var problems: [Problem] = []
        let kept = apply(to: &event) { problems.append($0) }
        return (kept ? event : nil, problems)
    }

    /// Applies the rules to `event` in place, the client's way: an event that breaks no rule, which is
    /// nearly every event, is only read.
    ///
    /// - Parameters:
    ///   - event: changed when a rule sanitizes something.
    ///   - report: gets one problem per rule broken, in a stable order.
    /// - Returns: false when the event must be dropped.
    package func apply(to event: inout Event, report: (Problem) -> Void) -> Bool {
        var validName: String?
        return apply(to: &event, validName: &validName, report: report)
    }

    /// ``apply(to:report:)`` for a stream of events, such as the client's worker's: `validName` is a track
    /// or screen name these limits accepted before (nil at first). An event with the same name skips the
    /// name rules, whose outcome depends on the name alone; an event whose name passes them becomes the
    /// new `validName`.
    package func apply(to event: inout Event, validName: inout String?, report: (Problem) -> Void) -> Bool {
        if !event.isNamed || !Self.sameBytes(event.name, validName) {
            if let problem = nameProblem(of: event) {
                report(problem)
                return false
            }
            if event.isNamed { validName = event.name }
        }
        guard needsWork(event.properties.dictionary) else { return true }

        let name = event.reportName
        var properties = event.properties.dictionary
        event.properties = [:]
        removeBadKeys(from: &properties, path: event.propertiesPath, eventName: name, report: report)
        if properties.count > maximumPropertyCount {
            let removed = properties.keys.sorted().dropFirst(maximumPropertyCount)
            for key in removed { properties.removeValue(forKey: key) }
            report(
                Problem(
                    .tooManyProperties,
                    "The event had \(removed.count + maximumPropertyCount) properties; the \(removed.count) after the first \(maximumPropertyCount) in key order were removed",
                    outcome: .sanitized, eventName: name, path: event.propertiesPath))
        }
        for key in properties.keys.sorted() {
            let path = event.propertyPath(key)
            properties[key] = sanitize(properties[key]!, depth: 1, path: path, eventName: name, report: report)
        }
        event.properties = Event.Properties(properties)
        return true
    }

    /// Whether an event with this name passes the name rules. Identity changes follow the same rules, so a
    /// dropped identify event changes nobody's id.
    package func acceptsName(_ name: String) -> Bool {
        checkName(name) == .valid
    }

    /// A cheap check that avoids copying when every property is fine, which is nearly always.
    ///
    /// The keys, then the values, each in a loop of their own: iterating the dictionary's pairs hands out a
    /// copy of each value and key together, which costs more than the two walks (issue 39).
    private func needsWork(_ properties: [String: PropertyValue]) -> Bool {
        if properties.count > maximumPropertyCount { return true }
        for key in properties.keys where !acceptsKey(key) { return true }
        for value in properties.values where !isCleanScalarOrNested(value) { return true }
        return false
    }

    /// ``isClean(_:depth:)`` for a top-level value, with scalars, nearly every value, settled inline.
    @inline(__always)
    private func isCleanScalarOrNested(_ value: PropertyValue) -> Bool {
        switch value {
        case .double(let double): return double.isFinite
        case .string(let string): return string.utf8.count <= maximumStringBytes
        case .int, .bigNumber, .bool, .null: return true
        case .array, .object: return isClean(value, depth: 1)
        }
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
                && members.allSatisfy { acceptsKey($0.key) && isClean($0.value, depth: depth + 1) }
        }
    }

    private func sanitize(
        _ value: PropertyValue, depth: Int, path: String, eventName: String, report: (Problem) -> Void
    ) -> PropertyValue {
        switch value {
        case .double(let double) where !double.isFinite:
            report(
                Problem(
                    .nonFiniteNumber, "\(double) cannot be represented in JSON and was replaced by null",
                    outcome: .sanitized, eventName: eventName, path: path))
            return .null
        case .string(let string) where string.utf8.count > maximumStringBytes:
            let cut = Self.truncate(string, toUTF8Bytes: maximumStringBytes)
            report(
                Problem(
                    .stringTooLong,
                    "A string of \(string.utf8.count) bytes was cut to \(cut.utf8.count) bytes (the limit is \(maximumStringBytes))",
                    outcome: .sanitized, eventName: eventName, path: path))
            return .string(cut)
        case .array, .object:
            guard depth <= maximumDepth else {
                report(
                    Problem(
                        .nestingTooDeep,
                        "Arrays and objects nest deeper than \(maximumDepth) levels; the deeper part was replaced by null",
                        outcome: .sanitized, eventName: eventName, path: path))
                return .null
            }
            if case .array(let elements) = value {
                return .array(
                    elements.enumerated().map { index, element in
                        sanitize(
                            element, depth: depth + 1, path: "\(path)/\(index)", eventName: eventName, report: report)
                    })
            }
            guard case .object(var members) = value else { return value }
            removeBadKeys(from: &members, path: path, eventName: eventName, report: report)
            var result: [String: PropertyValue] = [:]
            for key in members.keys.sorted() {
                result[key] = sanitize(
                    members[key]!, depth: depth + 1, path: path + "/" + JSONPointer.escape(key), eventName: eventName,
                    report: report)
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

    /// The value `pointer` (such as `/contact/emails/0`) designates in `members`; nil when there is none.
    package static func value(at pointer: String, in members: [String: PropertyValue]) -> PropertyValue? {
        var current = PropertyValue.object(members)
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch current {
            case .object(let object):
                guard let next = object[key] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(key), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}

extension InputLimits {
    /// Whether `name` has exactly the bytes of `other`. Not `==`, which compares canonical equivalents
    /// equal: "café" composed and decomposed are one string to Swift but differ in UTF-8 bytes, and the name
    /// rules count bytes.
    ///
    /// One `memcmp` when both strings hold contiguous UTF-8 (native and small strings: nearly always); a
    /// walk over the bytes only for a bridged string. (`elementsEqual` over the two `UTF8View`s, the walk,
    /// cost the worker about 1,270 instructions for a 17-byte name, more than the name rules it skips.)
    @inline(__always)
    static func sameBytes(_ name: String, _ other: String?) -> Bool {
        guard let other else { return false }
        let count = name.utf8.count
        guard count == other.utf8.count else { return false }
        let compared = name.utf8.withContiguousStorageIfAvailable { bytes in
            other.utf8.withContiguousStorageIfAvailable { otherBytes in
                guard let base = bytes.baseAddress, let otherBase = otherBytes.baseAddress else { return true }
                return memcmp(base, otherBase, count) == 0
            }
        }
        if let compared = compared ?? nil { return compared }
        return name.utf8.elementsEqual(other.utf8)
    }
}
