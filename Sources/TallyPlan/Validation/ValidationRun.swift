import Foundation
import Tally

/// One event's validation: walks its values against compiled schemas and collects violations.
///
/// Paths are passed as non-escaping closures and only called when a violation is found, so a conforming
/// event builds no strings and allocates nothing. The run does not hold the event (copying it would cost
/// two retains per event); ``finish(for:index:)`` stamps the event on the violations found.
struct ValidationRun {
    let redactionMarker: String
    private(set) var violations: [PlanViolation] = []
    /// Whether a member read by ``checkMembers(_:of:personal:scanning:path:)`` with `scanning`, outside the
    /// members marked `personal`, holds a string the value scan could match (an @ or a +). When false the
    /// scan (``scanUnmarked(_:skipping:marks:)``) would find nothing, and is skipped.
    private(set) var mayHoldPersonalData = false

    init(redactionMarker: String) {
        self.redactionMarker = redactionMarker
    }

    /// The violations, stamped with the event and sorted by path.
    mutating func finish(for event: Event, index: Int?) -> [PlanViolation] {
        guard !violations.isEmpty else { return [] }
        for position in violations.indices {
            violations[position].eventName = event.reportName
            violations[position].eventKind = event.kind
            violations[position].eventIndex = index
        }
        // Dictionary order is arbitrary; sort so reports are stable.
        if violations.count > 1 { violations.sort { $0.path < $1.path } }
        return violations
    }

    private mutating func report(
        _ kind: PlanViolation.Kind, _ path: () -> String, _ rule: @autoclosure () -> String, _ actual: PropertyValue?,
        personal: Bool
    ) {
        violations.append(
            PlanViolation(kind, eventName: "", path: path(), rule: rule(), actual: actual, isPersonalData: personal))
    }

    /// Reports each string of `properties` (outside the `skipping` keys) that looks like personal data,
    /// unless `marks` (the event's schema, given when it marks schemas inside its properties) marks it or a
    /// container of it `personal`.
    mutating func scanUnmarked(_ properties: [String: PropertyValue], skipping: Set<String>, marks: PropertySchema?) {
        for finding in PersonalDataScan.findings(in: properties, skipping: skipping) {
            if let marks, Self.isMarked(finding.path, in: properties, by: marks) { continue }
            report(
                .personalDataUnmarked, { "/properties" + finding.path }, finding.kind.rawValue,
                JSONPointer.value(at: finding.path, in: properties), personal: true)
        }
    }

    /// Checks an object's members: declared ones against their schemas, required ones for presence, others
    /// by `additionalProperties`, and their count. Names match by code points.
    ///
    /// With `scanning` (an event's properties, when unmarked values are scanned), it also notes in
    /// ``mayHoldPersonalData`` whether a member not marked `personal` holds a string with an @ or a +, in the
    /// same pass over the members: the scan's first question, answered without a second pass or hashing a
    /// key. (It asks of more members than the scan reads, never fewer: a key that is canonically equivalent
    /// to a marked one, but not the same code points, is asked about here and skipped by the scan.)
    mutating func checkMembers(
        _ object: [String: PropertyValue], of schema: CompiledSchema, personal: Bool, scanning: Bool = false,
        path: () -> String
    ) {
        var requiredSeen = 0
        for (key, value) in object {
            if let index = schema.members.index(of: key) {
                if schema.members.isRequired[index] { requiredSeen += 1 }
                schema.members.schemas[index]._withUnsafeGuaranteedRef { member in
                    if scanning, !mayHoldPersonalData, member.personal == nil,
                        PersonalDataScan.mayHoldPersonalData(value)
                    {
                        mayHoldPersonalData = true
                    }
                    check(value, member, personal: personal) { path() + "/" + JSONPointer.escape(key) }
                }
            } else {
                if scanning, !mayHoldPersonalData, PersonalDataScan.mayHoldPersonalData(value) {
                    mayHoldPersonalData = true
                }
                switch schema.additional {
                case .allowed: break
                case .forbidden:
                    report(
                        .unexpectedProperty, { path() + "/" + JSONPointer.escape(key) }, "additionalProperties: false",
                        value, personal: personal)
                case .schema(let additional):
                    check(value, additional, personal: personal) { path() + "/" + JSONPointer.escape(key) }
                }
            }
        }
        if requiredSeen < schema.requiredNames.count {
            for name in schema.requiredNames where JSONEquality.member(name.string, of: object) == nil {
                report(
                    .missingRequired, { path() + "/" + JSONPointer.escape(name.string) }, "required", nil,
                    personal: personal)
            }
        }
        if object.count < schema.minProperties {
            report(.length, path, "minProperties: \(schema.minProperties)", .object(object), personal: personal)
        }
        if object.count > schema.maxProperties {
            report(.length, path, "maxProperties: \(schema.maxProperties)", .object(object), personal: personal)
        }
    }

    /// Checks one value against one schema.
    mutating func check(_ value: PropertyValue, _ schema: CompiledSchema, personal: Bool, path: () -> String) {
        let rules = schema.rules
        let personal = personal || rules.contains(.personal)
        if rules.contains(.personal), let mark = schema.personal {
            if case .null = value { return }
            switch mark.rule {
            case .send?:
                break
            case .hash?:
                // A hash cannot be told from other text, and keeps nothing of the value's type, length or
                // format: only a value that still looks like the data breaks the rule, and nothing else is
                // checked (as for a redacted value), so a spy's value hashed by the stand-in and the client's
                // real hash are judged alike.
                if Self.looksPersonal(value) {
                    report(.personalDataPresent, path, mark.description, value, personal: true)
                }
                return
            case .neverSend?:
                return report(.personalDataPresent, path, mark.description, value, personal: true)
            case .redact?, nil:
                if case .string(let string) = value, string.hasSameCodePoints(as: redactionMarker) { return }
                report(.personalDataPresent, path, mark.description, value, personal: true)
            }
        }
        guard Self.hasType(value, schema.types) else {
            if case .double(let double) = value, !double.isFinite { return reportNonFinite(value, personal, path) }
            return report(.wrongType, path, schema.typeRule, value, personal: personal)
        }
        if rules.isEmpty {
            if case .double(let double) = value, !double.isFinite { reportNonFinite(value, personal, path) }
            return
        }
        let valueRules = !rules.isDisjoint(with: [.enumeration, .constant])
        switch value {
        case .string(let string):
            if valueRules { checkEnumAndConst(value, string: string, schema, personal: personal, path: path) }
            if rules.contains(.string) { checkString(string, value, schema, personal: personal, path: path) }
        case .int(let int):
            if valueRules { checkEnumAndConst(value, string: nil, schema, personal: personal, path: path) }
            if rules.contains(.number) {
                checkNumber(
                    value, schema, personal: personal, path: path, order: { $0.compare(int, exact: $1()) },
                    divides: { $0.divides(int, exact: $1()) })
            }
        case .double(let double):
            guard double.isFinite else { return reportNonFinite(value, personal, path) }
            if valueRules { checkEnumAndConst(value, string: nil, schema, personal: personal, path: path) }
            if rules.contains(.number) {
                checkNumber(
                    value, schema, personal: personal, path: path, order: { $0.compare(double, exact: $1()) },
                    divides: { CompiledNumber.divides(value, $1()) })
            }
        case .bigNumber:
            if valueRules { checkEnumAndConst(value, string: nil, schema, personal: personal, path: path) }
            if rules.contains(.number) {
                checkNumber(
                    value, schema, personal: personal, path: path, order: { CompiledNumber.compare(value, $1()) },
                    divides: { CompiledNumber.divides(value, $1()) })
            }
        case .array(let elements):
            if valueRules { checkEnumAndConst(value, string: nil, schema, personal: personal, path: path) }
            if rules.contains(.array) { checkArray(elements, value, schema, personal: personal, path: path) }
        case .object(let members):
            if valueRules { checkEnumAndConst(value, string: nil, schema, personal: personal, path: path) }
            if rules.contains(.object) { checkMembers(members, of: schema, personal: personal, path: path) }
        case .bool, .null:
            if valueRules { checkEnumAndConst(value, string: nil, schema, personal: personal, path: path) }
        }
    }

    /// `enum` and `const`; `string` is the value when it is a string, for the fast path of string enums.
    @inline(__always)
    private mutating func checkEnumAndConst(
        _ value: PropertyValue, string: String?, _ schema: CompiledSchema, personal: Bool, path: () -> String
    ) {
        if let enumValues = schema.enumValues, !Self.isMember(value, string: string, enumValues, schema) {
            report(.notInEnum, path, "enum: " + PropertyValue.array(enumValues).jsonString, value, personal: personal)
        }
        if let constValue = schema.constValue, !JSONEquality.equal(value, constValue) {
            report(.notConst, path, "const: " + constValue.jsonString, value, personal: personal)
        }
    }

    private mutating func reportNonFinite(_ value: PropertyValue, _ personal: Bool, _ path: () -> String) {
        report(.nonFiniteNumber, path, "JSON numbers are finite", value, personal: personal)
    }

    private mutating func checkString(
        _ string: String, _ value: PropertyValue, _ schema: CompiledSchema, personal: Bool, path: () -> String
    ) {
        // A code point takes one to four UTF-8 bytes, so the byte count bounds the length from both sides
        // and most strings skip counting.
        let bytes = string.utf8.count
        if bytes > schema.maxLength || (bytes + 3) / 4 < schema.minLength {
            let length = string.unicodeScalars.count
            if length < schema.minLength {
                report(.length, path, "minLength: \(schema.minLength)", value, personal: personal)
            } else if length > schema.maxLength {
                report(.length, path, "maxLength: \(schema.maxLength)", value, personal: personal)
            }
        }
        if let pattern = schema.pattern, !pattern.hasMatch(in: string) {
            report(.patternMismatch, path, "pattern: \(pattern.source)", value, personal: personal)
        }
        if let format = schema.format, !format.isValid(string) {
            report(.formatMismatch, path, "format: \(format.rawValue)", value, personal: personal)
        }
    }

    /// Bounds compare exactly, whatever the sizes: `order` compares the value with a compiled bound (and the
    /// plan's number, should only the exact comparison tell), `divides` checks `multipleOf`.
    @inline(__always)
    private mutating func checkNumber(
        _ value: PropertyValue, _ schema: CompiledSchema, personal: Bool, path: () -> String,
        order: (CompiledNumber, @autoclosure () -> SchemaNumber) -> Int,
        divides: (CompiledNumber, @autoclosure () -> SchemaNumber) -> Bool
    ) {
        if let bound = schema.minimum, order(bound, schema.source.minimum!) < 0 {
            report(.outOfRange, path, "minimum: \(schema.source.minimum!)", value, personal: personal)
        }
        if let bound = schema.maximum, order(bound, schema.source.maximum!) > 0 {
            report(.outOfRange, path, "maximum: \(schema.source.maximum!)", value, personal: personal)
        }
        if let bound = schema.exclusiveMinimum, order(bound, schema.source.exclusiveMinimum!) <= 0 {
            report(.outOfRange, path, "exclusiveMinimum: \(schema.source.exclusiveMinimum!)", value, personal: personal)
        }
        if let bound = schema.exclusiveMaximum, order(bound, schema.source.exclusiveMaximum!) >= 0 {
            report(.outOfRange, path, "exclusiveMaximum: \(schema.source.exclusiveMaximum!)", value, personal: personal)
        }
        if let divisor = schema.multipleOf, !divides(divisor, schema.source.multipleOf!) {
            report(.notMultipleOf, path, "multipleOf: \(schema.source.multipleOf!)", value, personal: personal)
        }
    }

    private mutating func checkArray(
        _ elements: [PropertyValue], _ value: PropertyValue, _ schema: CompiledSchema, personal: Bool,
        path: () -> String
    ) {
        if elements.count < schema.minItems {
            report(.length, path, "minItems: \(schema.minItems)", value, personal: personal)
        }
        if elements.count > schema.maxItems {
            report(.length, path, "maxItems: \(schema.maxItems)", value, personal: personal)
        }
        if schema.uniqueItems, let (first, second) = JSONEquality.firstRepeat(in: elements) {
            report(
                .notUnique, path, "uniqueItems: true (elements \(first) and \(second) are equal)", value,
                personal: personal)
        }
        if let items = schema.items {
            for (offset, element) in elements.enumerated() {
                check(element, items, personal: personal) { path() + "/\(offset)" }
            }
        }
    }

    /// JSON Schema's `type`: integers are `.int`, whole finite doubles and big numbers without a fraction;
    /// numbers are any of them.
    @inline(__always)
    static func hasType(_ value: PropertyValue, _ types: CompiledSchema.TypeMask) -> Bool {
        if types == .any { return true }
        switch value {
        case .string: return types.contains(.string)
        case .int: return !types.isDisjoint(with: [.integer, .number])
        case .double(let double):
            if types.contains(.number) { return true }
            return types.contains(.integer) && double.isFinite && double.rounded(.towardZero) == double
        case .bigNumber(let number): return types.contains(.number) || (types.contains(.integer) && number.isInteger)
        case .bool: return types.contains(.boolean)
        case .array: return types.contains(.array)
        case .object: return types.contains(.object)
        case .null: return types.contains(.null)
        }
    }

    @inline(__always)
    static func isMember(
        _ value: PropertyValue, string: String?, _ values: [PropertyValue], _ schema: CompiledSchema
    ) -> Bool {
        if let strings = schema.enumStrings {
            guard let string else { return false }
            let fingerprint = NameFingerprint(string)
            let fingerprints = schema.enumFingerprints
            for index in fingerprints.indices where fingerprints[index] == fingerprint {
                // Up to 16 bytes the fingerprint holds every byte.
                if fingerprint.length <= 16 || strings[index].hasSameCodePoints(as: string) { return true }
            }
            return false
        }
        for candidate in values where JSONEquality.equal(value, candidate) { return true }
        return false
    }
}

extension ValidationRun {
    /// Whether the value at `pointer` in `properties`, or a container of it, meets a schema of `schema` that
    /// is marked `personal`.
    static func isMarked(_ pointer: String, in properties: [String: PropertyValue], by schema: PropertySchema) -> Bool {
        var value = PropertyValue.object(properties)
        var schema = schema
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            let next: PropertySchema?
            switch value {
            case .object(let members):
                guard let member = members[key] else { return false }
                value = member
                next = schema.memberSchema(key)
            case .array(let elements):
                guard let offset = Int(key), elements.indices.contains(offset) else { return false }
                value = elements[offset]
                next = schema.items
            default:
                return false
            }
            guard let next else { return false }
            if next.personal != nil { return true }
            schema = next
        }
        return false
    }

    /// Whether a value, or a string anywhere in it, looks like personal data (see `PersonalDataScan`).
    static func looksPersonal(_ value: PropertyValue) -> Bool {
        !PersonalDataScan.findings(in: ["value": value]).isEmpty
    }
}
