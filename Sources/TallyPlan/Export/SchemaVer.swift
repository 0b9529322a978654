import Foundation
import Tally

/// An Iglu schema version, `MODEL-REVISION-ADDITION` (SchemaVer): `1-0-0`, then `1-0-1` for a change every
/// event valid under the old schema still meets, `2-0-0` for a breaking one.
public struct SchemaVer: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Bumped by a change that may refuse events the previous version accepted.
    public var model: Int
    /// Not bumped by Tally (it bumps ``model`` for every breaking change); read from existing registries.
    public var revision: Int
    /// Bumped by a change every event valid under the previous version still meets.
    public var addition: Int

    /// Creates a version.
    public init(model: Int, revision: Int, addition: Int) {
        self.model = model
        self.revision = revision
        self.addition = addition
    }

    /// Reads `1-0-0`; nil for anything else (a model below 1, a negative number, other text).
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3,
            parts.allSatisfy({ !$0.isEmpty && $0.count < 10 && $0.allSatisfy { ("0"..."9").contains($0) } }),
            let model = Int(parts[0]), let revision = Int(parts[1]), let addition = Int(parts[2]), model >= 1
        else { return nil }
        self.init(model: model, revision: revision, addition: addition)
    }

    /// The first version of a schema.
    public static let first = SchemaVer(model: 1, revision: 0, addition: 0)

    /// `1-0-0`.
    public var description: String { "\(model)-\(revision)-\(addition)" }

    /// The version after this one for a change of this kind.
    func bumped(breaking: Bool) -> SchemaVer {
        breaking
            ? SchemaVer(model: model + 1, revision: 0, addition: 0)
            : SchemaVer(model: model, revision: revision, addition: addition + 1)
    }

    public static func < (lhs: SchemaVer, rhs: SchemaVer) -> Bool {
        (lhs.model, lhs.revision, lhs.addition) < (rhs.model, rhs.revision, rhs.addition)
    }
}

/// Whether a new version of a draft 4 schema accepts every value the old one accepted, decided keyword by
/// keyword and conservatively: a change it cannot prove harmless counts as breaking. Annotations
/// (`description`, `title`, `x-tally-*`) never break anything.
enum SchemaCompatibility {
    static func accepts(everythingOf old: PropertyValue, new: PropertyValue) -> Bool {
        guard let old = old.objectValue, let new = new.objectValue else { return old == new }
        for key in Set(old.keys).union(new.keys) where !isAnnotation(key) {
            guard keywordAllows(key, old: old, new: new) else { return false }
        }
        return true
    }

    private static func isAnnotation(_ key: String) -> Bool {
        ["description", "title", "$schema", "self", "$comment", "examples", "default"].contains(key)
            || key.hasPrefix("x-")
    }

    private static func keywordAllows(_ key: String, old: [String: PropertyValue], new: [String: PropertyValue]) -> Bool
    {
        let before = old[key]
        let after = new[key]
        if before == after { return key == "properties" ? propertiesAllow(old: old, new: new) : true }
        switch key {
        case "type":
            guard let after else { return true }
            guard let before else { return false }
            let allowed = types(after)
            return types(before).allSatisfy { allowed.contains($0) || ($0 == "integer" && allowed.contains("number")) }
        case "enum":
            guard let after else { return true }
            guard let oldValues = before?.arrayValue, let newValues = after.arrayValue else { return false }
            return oldValues.allSatisfy { value in newValues.contains(where: { JSONEquality.equal($0, value) }) }
        case "minimum", "minLength", "minItems", "minProperties":
            return bound(before, after, lowerIsLooser: true) && exclusivity(key, old: old, new: new)
        case "maximum", "maxLength", "maxItems", "maxProperties":
            return bound(before, after, lowerIsLooser: false) && exclusivity(key, old: old, new: new)
        case "exclusiveMinimum", "exclusiveMaximum":
            // Read with their bound: a bound that became exclusive at a looser value may still be looser.
            let boundKey = key == "exclusiveMinimum" ? "minimum" : "maximum"
            return old[boundKey] != new[boundKey] || after != true
        case "required":
            let oldNames = Set((before?.arrayValue ?? []).compactMap(\.stringValue))
            return (after?.arrayValue ?? []).allSatisfy { $0.stringValue.map(oldNames.contains) ?? false }
        case "properties":
            return propertiesAllow(old: old, new: new)
        case "additionalProperties":
            switch (before, after) {
            case (_, nil), (_, .bool(true)?): return true
            case (.bool(false)?, _): return true
            case (let before?, let after?): return accepts(everythingOf: before, new: after)
            default: return false
            }
        case "items":
            guard let after else { return true }
            guard let before else { return false }
            return accepts(everythingOf: before, new: after)
        case "uniqueItems":
            return after != true
        default:
            // pattern, format, multipleOf, const and anything else: only dropping it is provably harmless.
            return after == nil
        }
    }

    /// A new bound is harmless when absent, or when it lies on the looser side of the old one.
    private static func bound(_ before: PropertyValue?, _ after: PropertyValue?, lowerIsLooser: Bool) -> Bool {
        guard let after else { return true }
        guard let before, let old = SchemaNumber(before), let new = SchemaNumber(after) else { return false }
        let order = SchemaNumber.compare(new, old)
        return lowerIsLooser ? order <= 0 : order >= 0
    }

    /// When a bound keeps its value, it must not turn exclusive; a looser bound may.
    private static func exclusivity(_ key: String, old: [String: PropertyValue], new: [String: PropertyValue]) -> Bool {
        let flag = key == "minimum" ? "exclusiveMinimum" : key == "maximum" ? "exclusiveMaximum" : nil
        guard let flag, old[key] == new[key] else { return true }
        return new[flag] != true || old[flag] == true
    }

    /// Each property the new schema describes accepts what the old one let through under that name.
    private static func propertiesAllow(old: [String: PropertyValue], new: [String: PropertyValue]) -> Bool {
        let before = old["properties"]?.objectValue ?? [:]
        let after = new["properties"]?.objectValue ?? [:]
        let oldOthers = old["additionalProperties"] ?? true
        for (name, schema) in after {
            if let previous = before[name] {
                guard accepts(everythingOf: previous, new: schema) else { return false }
            } else if oldOthers != false {
                // The old schema let any value (or its additionalProperties schema) through under this name.
                let previous = oldOthers == true ? PropertyValue.object([:]) : oldOthers
                guard accepts(everythingOf: previous, new: schema) else { return false }
            }
        }
        // A property the new schema stops describing falls to its additionalProperties.
        let newOthers = new["additionalProperties"] ?? true
        for (name, schema) in before where after[name] == nil {
            if newOthers == true { continue }
            guard newOthers != false, accepts(everythingOf: schema, new: newOthers) else { return false }
        }
        return true
    }

    private static func types(_ value: PropertyValue) -> Set<String> {
        if let name = value.stringValue { return [name] }
        return Set((value.arrayValue ?? []).compactMap(\.stringValue))
    }
}
