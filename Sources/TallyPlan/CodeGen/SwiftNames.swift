import Foundation

/// Turning arbitrary plan names into Swift identifiers and string literals.
///
/// Identifiers are made of the ASCII letters and digits of a name: accents are dropped first (`Über`
/// becomes `Uber`, `ß` becomes `ss`), and everything else separates words. `menu_item_ordered` becomes
/// `menuItemOrdered`, `a=b's` becomes `aBS`, `123 go` becomes `_123Go`, `class` becomes `` `class` ``. A
/// name with no ASCII letters or digits falls back to a placeholder (`event`, `value`). The exact name is
/// always kept in a string literal; only the identifier is made up.
package enum SwiftNames {
    /// Words the compiler reserves; such identifiers are written in backticks.
    package static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard",
        "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is",
        "nil", "super", "throws", "true", "try", "some", "any",
    ]
    /// Identifiers backticks cannot rescue everywhere (`Size.self`, `Size.Type`); these get a trailing
    /// underscore instead.
    package static let unbacktickable: Set<String> = ["self", "Self", "Type", "Protocol", "init", "_"]

    /// The words of `name`: runs of ASCII letters and digits, also split where a lower-case letter or digit
    /// meets an upper-case one (`menuItem` is `menu`, `Item`), keeping acronyms together (`URLOpened` is
    /// `URL`, `Opened`).
    package static func words(_ name: String) -> [String] {
        var words: [String] = []
        for run in asciiFolded(name).split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) }) {
            let characters = Array(run)
            var current = ""
            for (index, character) in characters.enumerated() {
                if !current.isEmpty, character.isUppercase {
                    let previous = characters[index - 1]
                    let next = index + 1 < characters.count ? characters[index + 1] : nil
                    if !previous.isUppercase || (next?.isLowercase ?? false) {
                        words.append(current)
                        current = ""
                    }
                }
                current.append(character)
            }
            if !current.isEmpty { words.append(current) }
        }
        return words
    }

    /// Latin letters without their accents, and a few letters that have no decomposition spelled out.
    package static func asciiFolded(_ name: String) -> String {
        guard !name.allSatisfy(\.isASCII) else { return name }
        let spelled: [Character: String] = [
            "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L",
            "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "TH",
        ]
        var result = ""
        for character in name {
            if let replacement = spelled[character] {
                result += replacement
            } else {
                // Canonical decomposition puts the base letter first; the combining marks are not ASCII.
                let base = String(character).decomposedStringWithCanonicalMapping.unicodeScalars.first { $0.isASCII }
                if let base, String(character).decomposedStringWithCanonicalMapping.unicodeScalars.first == base {
                    result.unicodeScalars.append(base)
                } else {
                    result += " "
                }
            }
        }
        return result
    }

    /// `lowerCamelCase`, not yet made safe (see ``safe(_:)``).
    package static func lowerCamel(_ name: String, fallback: String) -> String {
        let words = words(name)
        guard let first = words.first else { return fallback }
        let head = first.allSatisfy { $0.isUppercase || $0.isNumber } ? first.lowercased() : lowerFirst(first)
        return head + words.dropFirst().map(upperFirst).joined()
    }

    /// `UpperCamelCase`, not yet made safe.
    package static func upperCamel(_ name: String, fallback: String) -> String {
        let words = words(name)
        guard !words.isEmpty else { return fallback }
        return words.map(upperFirst).joined()
    }

    /// A valid identifier: a leading digit gets an underscore, reserved words get backticks or an
    /// underscore.
    package static func safe(_ identifier: String) -> String {
        if let first = identifier.first, first.isNumber { return "_" + identifier }
        if unbacktickable.contains(identifier) { return identifier + "_" }
        if keywords.contains(identifier) { return "`\(identifier)`" }
        return identifier
    }

    /// The identifier without backticks, for building names from it.
    package static func bare(_ identifier: String) -> String {
        identifier.filter { $0 != "`" }
    }

    /// Makes each identifier unique in order: a repeat gets `2`, `3`… appended.
    package static func deduplicated(_ identifiers: [String], reserved: Set<String> = []) -> [String] {
        var used = reserved
        return identifiers.map { identifier in
            var candidate = identifier
            var suffix = 2
            while used.contains(bare(candidate)) {
                candidate = safe(bare(identifier) + String(suffix))
                suffix += 1
            }
            used.insert(bare(candidate))
            return candidate
        }
    }

    /// A Swift string literal holding exactly `text`: quotes, backslashes and control characters escaped.
    package static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
                    || scalar.properties.generalCategory == .format
                    || scalar.properties.generalCategory == .lineSeparator
                    || scalar.properties.generalCategory == .paragraphSeparator
                {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// Lines of a doc comment, each prefixed with `indent///`.
    package static func docComment(_ text: String, indent: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let trimmed = line.trimmingTrailingWhitespace
            return trimmed.isEmpty ? "\(indent)///" : "\(indent)/// \(trimmed)"
        }
    }

    private static func upperFirst(_ word: String) -> String { word.prefix(1).uppercased() + word.dropFirst() }
    private static func lowerFirst(_ word: String) -> String {
        // `URLOpened` arrives as `URL`, `Opened`; a single word such as `Menu` just lowers its first letter.
        word.prefix(1).lowercased() + word.dropFirst()
    }
}

extension Substring {
    fileprivate var trimmingTrailingWhitespace: Substring {
        var result = self
        while let last = result.last, last.isWhitespace { result = result.dropLast() }
        return result
    }
}
