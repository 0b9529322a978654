// Reading plan text needs Yams, which the `Plans` trait brings (PlanLoader explains the error without it).
#if Plans
import Tally
import Yams

/// Reading values out of Yams nodes, by YAML 1.2's core schema (the JSON-compatible one).
///
/// Plain scalars resolve the way JSON would read them: `null`, `~` and nothing are null; `true` and
/// `false` (any case style YAML allows) are Booleans; decimal integers are integers, exact at any size;
/// decimal numbers with a fraction or exponent are doubles (or exact big numbers beyond the largest
/// double); everything else, including YAML 1.1's `yes`, `no`, `on` and `off`, is a string. Quoted and block
/// scalars are always strings.
extension PlanReader {
    /// The members of a mapping node with their scalar keys, or nil (with an error) if it is not a
    /// mapping.
    mutating func mapping(_ node: Node, _ what: String) -> [(key: String, keyNode: Node, value: Node)]? {
        guard case .mapping(let mapping) = node else {
            error("\(what) must be a mapping of keys to values, not \(describe(node))", node)
            return nil
        }
        var members: [(key: String, keyNode: Node, value: Node)] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let key) = keyNode else {
                error("Keys in \(what) must be strings, not \(describe(keyNode))", keyNode)
                continue
            }
            members.append((key.string, keyNode, value))
        }
        return members
    }

    /// The keys whose values are sentences, where a comma is likely.
    static let proseKeys: Set<String> = ["description", "title", "$comment", "owner"]

    /// Reports, as an error, a key that a comma cut from the value before it, and returns true; false when the
    /// key is anything else. In a flow mapping (`{ ... }`) a comma ends a plain value, so
    /// `{ type: string, description: Size, in inches }` reads as `description: Size` and a key `in inches`
    /// with no value, which would otherwise pass for an unknown keyword. Only after a key that holds prose
    /// (``proseKeys``), or for a key of several words: a lone `{ type: string, uniqueItem }` stays an unknown
    /// keyword.
    mutating func reportCommaInPlainValue(_ key: String, _ keyNode: Node, _ value: Node, in node: Node) -> Bool {
        guard case .mapping(let mapping) = node,
            case .scalar(let keyScalar) = keyNode, keyScalar.style == .plain,
            case .scalar(let valueScalar) = value, resolve(valueScalar) == .null, valueScalar.string.isEmpty
        else { return false }
        let pairs = Array(mapping)
        // The composed mapping does not keep its style; where it starts does: a block mapping starts at its
        // first key, a flow mapping at its `{`.
        guard let start = mapping.mark, let firstKey = pairs.first?.key.mark,
            start.line != firstKey.line || start.column != firstKey.column,
            let index = pairs.firstIndex(where: { $0.key == keyNode }), index > 0,
            case .scalar(let previousKey) = pairs[index - 1].key,
            case .scalar(let previousValue) = pairs[index - 1].value, previousValue.style == .plain,
            resolve(previousValue) != .null,
            Self.proseKeys.contains(previousKey.string) || key.contains(" ")
        else { return false }
        let whole = "\(previousValue.string), \(key)"
        error(
            "'\(key)' is the rest of '\(previousKey.string): \(previousValue.string)', cut at a comma: "
                + "inside { } a comma ends a value; quote it: \(previousKey.string): \"\(whole)\"",
            keyNode)
        return true
    }

    /// The text of a scalar that is not null, or nil (with an error).
    mutating func string(_ node: Node, _ what: String) -> String? {
        guard case .scalar(let scalar) = node, resolve(scalar) != .null else {
            error("\(what) must be a string, not \(describe(node))", node)
            return nil
        }
        return scalar.string
    }

    /// A Boolean scalar, or nil (with an error).
    mutating func bool(_ node: Node, _ what: String) -> Bool? {
        guard case .scalar(let scalar) = node, case .bool(let value) = resolve(scalar) else {
            error("\(what) must be true or false, not \(describe(node))", node)
            return nil
        }
        return value
    }

    /// A number scalar, exact as written, or nil (with an error).
    mutating func number(_ node: Node, _ what: String) -> SchemaNumber? {
        guard case .scalar(let scalar) = node, let value = SchemaNumber(resolve(scalar)) else {
            error("\(what) must be a number, not \(describe(node))", node)
            return nil
        }
        return value
    }

    /// A non-negative integer scalar (`2`, `2.0`, or any larger integer, held as `Int.max`), or nil (with an
    /// error).
    mutating func count(_ node: Node, _ what: String) -> Int? {
        if case .scalar(let scalar) = node {
            switch resolve(scalar) {
            case .int(let value) where value >= 0: return value
            case .double(let value) where value >= 0 && value.rounded() == value: return Int(exactly: value) ?? .max
            case .bigNumber(let value) where !value.isNegative && value.isInteger: return .max
            default: break
            }
        }
        error("\(what) must be a non-negative integer, not \(describe(node))", node)
        return nil
    }

    /// A list of strings, or nil (with an error). A single string is not accepted as a list.
    mutating func strings(_ node: Node, _ what: String) -> [(String, Node)]? {
        guard case .sequence(let sequence) = node else {
            error("\(what) must be a list of strings, not \(describe(node))", node)
            return nil
        }
        var result: [(String, Node)] = []
        for element in sequence {
            guard let string = string(element, "Each entry of \(what)") else { continue }
            result.append((string, element))
        }
        return result
    }

    /// Any node as a JSON value; nil (with an error) for what JSON cannot hold.
    mutating func value(_ node: Node) -> PropertyValue? {
        switch node {
        case .scalar(let scalar):
            let value = resolve(scalar)
            if case .double(let double) = value, !double.isFinite {
                error("\(scalar.string) cannot be represented in JSON", node)
                return nil
            }
            return value
        case .sequence(let sequence):
            var elements: [PropertyValue] = []
            for element in sequence {
                guard let value = value(element) else { return nil }
                elements.append(value)
            }
            return .array(elements)
        case .mapping:
            guard let members = mapping(node, "An object value") else { return nil }
            var object: [String: PropertyValue] = [:]
            for member in members {
                guard let value = value(member.value) else { return nil }
                // An event's objects are Swift dictionaries, which hold one of two keys that differ only in
                // Unicode normalization; such a value could never be sent, so say so rather than merge.
                if let index = object.index(forKey: member.key) {
                    let other = object[index].key
                    error(
                        "'\(member.key)' and '\(other)' differ only in Unicode normalization; an object value cannot hold both",
                        member.keyNode)
                    return nil
                }
                object[member.key] = value
            }
            return .object(object)
        case .alias:
            error("Aliases must be resolved before reading", node)
            return nil
        }
    }

    /// The JSON value of a scalar, by YAML 1.2's core schema.
    func resolve(_ scalar: Node.Scalar) -> PropertyValue {
        let text = scalar.string
        switch Tag.Name(rawValue: scalar.tag.rawValue) {
        case .str: return .string(text)
        case .null: return .null
        case .bool: return Self.bool(text).map(PropertyValue.bool) ?? .string(text)
        case .int: return Self.isInteger(text) ? Self.number(text, isInteger: true) : .string(text)
        case .float:
            return Self.isFloat(text)
                ? Self.number(text, isInteger: false) : Double(text).map(PropertyValue.double) ?? .string(text)
        default: break
        }
        guard scalar.style == .plain || scalar.style == .any else { return .string(text) }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        default: break
        }
        if let bool = Self.bool(text) { return .bool(bool) }
        if Self.isInteger(text) { return Self.number(text, isInteger: true) }
        if Self.isFloat(text) { return Self.number(text, isInteger: false) }
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .double(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .double(-.infinity)
        case ".nan", ".NaN", ".NAN": return .double(.nan)
        default: return .string(text)
        }
    }

    /// A decimal number of YAML's core schema, as JSON reads it: an `Int`, a finite `Double`, or the exact
    /// ``BigNumber`` when neither holds it (never a rounded integer or an infinity).
    private static func number(_ text: String, isInteger: Bool) -> PropertyValue {
        if isInteger, let int = Int(text) { return .int(int) }
        if !isInteger, let double = Double(text), double.isFinite { return .double(double) }
        return .bigNumber(BigNumber(validatedText: jsonNumberText(text)))
    }

    /// YAML's number forms in JSON's grammar: no `+`, no leading zeros, digits on both sides of a point.
    private static func jsonNumberText(_ text: String) -> String {
        var text = Substring(text)
        var sign = ""
        if let first = text.first, first == "+" || first == "-" {
            sign = first == "-" ? "-" : ""
            text = text.dropFirst()
        }
        let exponentStart = text.firstIndex { $0 == "e" || $0 == "E" } ?? text.endIndex
        let exponent = text[exponentStart...]
        let mantissa = text[..<exponentStart]
        let point = mantissa.firstIndex(of: ".") ?? mantissa.endIndex
        var whole = String(mantissa[..<point].drop { $0 == "0" })
        if whole.isEmpty { whole = "0" }
        let fraction = point < mantissa.endIndex ? mantissa[mantissa.index(after: point)...] : ""
        return sign + whole + (fraction.isEmpty ? "" : "." + fraction) + exponent
    }

    private static func bool(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }

    /// `[-+]?[0-9]+`
    private static func isInteger(_ text: String) -> Bool {
        var utf8 = Substring(text).utf8
        if let first = utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") { utf8 = utf8.dropFirst() }
        return !utf8.isEmpty && utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
    private static func isFloat(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        var mantissa = digits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                index += 1
            }
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }

    /// A short description of a node for messages: `a list`, `a mapping`, `"zero"`, `12`, `null`.
    func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar):
            let value = resolve(scalar)
            switch value {
            case .null: return "null"
            case .string(let string): return string.count > 40 ? "\"\(string.prefix(40))…\"" : "\"\(string)\""
            case .double(let double) where !double.isFinite: return scalar.string
            default: return value.jsonString
            }
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        case .alias: return "an alias"
        }
    }
}
#endif
