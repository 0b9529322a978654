import Tally

/// JSON text for files people read and keep in git: two-space indents, object keys in code point order
/// (the order of Tally's compact writer), numbers and strings exactly as ``PropertyValue/jsonString``
/// writes them, and a final newline. Equal values give equal text, so a re-export changes no file that
/// did not change.
enum PrettyJSON {
    static func text(_ value: PropertyValue) -> String {
        var output = ""
        write(value, indent: "", into: &output)
        return output + "\n"
    }

    private static func write(_ value: PropertyValue, indent: String, into output: inout String) {
        let inner = indent + "  "
        switch value {
        case .array(let items) where !items.isEmpty:
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += inner
                write(item, indent: inner, into: &output)
                output += index == items.count - 1 ? "\n" : ",\n"
            }
            output += indent + "]"
        case .object(let members) where !members.isEmpty:
            output += "{\n"
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                output += inner + PropertyValue.string(key).jsonString + ": "
                write(members[key]!, indent: inner, into: &output)
                output += index == keys.count - 1 ? "\n" : ",\n"
            }
            output += indent + "}"
        default:
            output += value.jsonString
        }
    }
}
