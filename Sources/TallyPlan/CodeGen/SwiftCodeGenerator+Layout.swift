/// How the generator lays out lines: as swift-format would, so that the output passes `swift format lint --strict`
/// under swift-format's default configuration (100 columns) and under a configuration with a longer limit.
///
/// A construct that fits in ``lineLimit`` columns is written on one line; one that does not is broken where
/// swift-format breaks it: after an opening parenthesis or bracket (the arguments or elements filling the
/// next lines, one indentation level deeper), and after a closure's `in`. A collection literal written on
/// several lines has a trailing comma only when it has more than one element. Every line is laid out with
/// four spaces per level and re-indented afterwards (``SwiftCodeGenerator/indentWidth``): fewer spaces only
/// shorten lines, and swift-format keeps line breaks that are already there.
///
/// What no layout can shorten stays long: a string literal or an identifier that alone passes the limit (a
/// property or event name of about 80 characters).
extension SwiftCodeGenerator {
    /// The column limit of generated lines: swift-format's default.
    package static let lineLimit = 100

    /// One indentation level while laying out; ``reindented(_:width:)`` turns it into `indentWidth` spaces.
    static let level = "    "

    /// A Swift expression that can be broken across lines.
    indirect enum Code {
        /// Written as is, on one line.
        case text(String)
        /// `head(argument)close`, where `head` ends with `(`: breaks after `head`.
        case call(head: String, argument: Code, close: String)
        /// `receiver.map { parameter -> PropertyValue in body }`: breaks after `in`.
        case map(receiver: String, parameter: String, body: Code)
        /// `code ?? .null`.
        case orNull(Code)

        var flat: String {
            switch self {
            case .text(let text): text
            case .call(let head, let argument, let close): head + argument.flat + close
            case .map(let receiver, let parameter, let body):
                "\(receiver).map { \(parameter) -> PropertyValue in \(body.flat) }"
            case .orNull(let code): code.flat + " ?? .null"
            }
        }
    }

    static func fits(_ line: String) -> Bool { line.count <= lineLimit }

    /// `code` at `indent`, after `prefix` and before `suffix` on its first and last lines. When even the
    /// first line of `code` broken does not fit after `prefix` (a dictionary key, an assignment), `code`
    /// starts on the next line, one level deeper, as swift-format breaks after the colon or the `=`.
    static func lines(_ code: Code, indent: String, prefix: String = "", suffix: String = "") -> [String] {
        let flat = indent + prefix + code.flat + suffix
        if fits(flat) { return [flat] }
        let broken = brokenLines(code, indent: indent, prefix: prefix, suffix: suffix)
        if !prefix.isEmpty, let first = broken.first, !fits(first) {
            let label = indent + String(prefix.reversed().drop { $0 == " " }.reversed())
            return [label] + lines(code, indent: indent + level, suffix: suffix)
        }
        return broken
    }

    private static func brokenLines(_ code: Code, indent: String, prefix: String, suffix: String) -> [String] {
        switch code {
        case .text(let text): return [indent + prefix + text + suffix]
        case .call(let head, let argument, let close):
            return [indent + prefix + head] + lines(argument, indent: indent + level, suffix: close + suffix)
        case .map(let receiver, let parameter, let body):
            return [indent + prefix + "\(receiver).map { \(parameter) -> PropertyValue in"]
                + lines(body, indent: indent + level) + [indent + "}" + suffix]
        case .orNull(let inner):
            return brokenLines(inner, indent: indent, prefix: prefix, suffix: " ?? .null" + suffix)
        }
    }

    /// `head(arguments)tail` at `indent`: on one line if it fits, else the arguments fill the lines after
    /// `head(`, the closing parenthesis after the last.
    static func call(_ head: String, _ arguments: [String], indent: String, tail: String = "") -> [String] {
        let flat = indent + head + "(" + arguments.joined(separator: ", ") + ")" + tail
        if fits(flat) || arguments.isEmpty { return [flat] }
        return [indent + head + "("] + filled(arguments, indent: indent + level, last: ")" + tail)
    }

    /// `items` separated by commas, as many on a line as fit; `last` follows the last item. With
    /// `breaksQualifiedTypes` (parameters), an item too long for a line of its own breaks before the last
    /// member of its qualified type (`PlannedEvents.Event` then `.Size? = nil` one level deeper), or before
    /// every member when the head is still too long, as swift-format breaks it; the next item starts a new
    /// line.
    static func filled(
        _ items: [String], indent: String, last: String, breaksQualifiedTypes: Bool = false
    ) -> [String] {
        var lines: [String] = []
        var current = ""
        for (index, item) in items.enumerated() {
            let piece = item + (index < items.count - 1 ? "," : last)
            if breaksQualifiedTypes, !fits(indent + piece), let dot = piece.lastIndex(of: ".") {
                if !current.isEmpty { lines.append(current) }
                if fits(indent + piece[..<dot]) {
                    lines += [indent + piece[..<dot], indent + level + piece[dot...]]
                } else {
                    // The head does not fit either: a break before every member.
                    let parts = piece.split(separator: ".", omittingEmptySubsequences: false)
                    lines += [indent + parts[0]] + parts.dropFirst().map { indent + level + "." + $0 }
                }
                current = ""
            } else if current.isEmpty {
                current = indent + piece
            } else if fits(current + " " + piece) {
                current += " " + piece
            } else {
                lines.append(current)
                current = indent + piece
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// An array literal of `elements` after `prefix`: on one line if it fits, else the elements fill the
    /// lines between the brackets, with a trailing comma when there is more than one.
    static func arrayLiteral(_ elements: [String], indent: String, prefix: String, suffix: String) -> [String] {
        let flat = indent + prefix + "[" + elements.joined(separator: ", ") + "]" + suffix
        if fits(flat) || elements.isEmpty { return [flat] }
        return [indent + prefix + "["] + filled(elements, indent: indent + level, last: elements.count > 1 ? "," : "")
            + [indent + "]" + suffix]
    }

    /// A doc comment: `text`'s lines at `indent`, each too long a line wrapped on spaces; the lines it wraps
    /// onto start with `hanging` after the slashes.
    static func docComment(_ text: String, indent: String, hanging: String = "") -> [String] {
        let head = indent + "/// "
        return SwiftNames.docComment(text, indent: indent).flatMap { line -> [String] in
            guard !fits(line), line.hasPrefix(head) else { return [line] }
            let text = line.dropFirst(head.count)
            let leading = String(text.prefix { $0 == " " })
            return wrapped(text.split(separator: " "), head: head + leading, continuation: head + hanging)
        }
    }

    /// `words` after `head`, separated by spaces, as many on a line as fit (at least one); the lines after the
    /// first start with `continuation`.
    static func wrapped(_ words: [Substring], head: String, continuation: String) -> [String] {
        var lines: [String] = []
        var current = head
        var isEmpty = true
        for word in words {
            if isEmpty {
                current += word
            } else if fits(current + " " + word) {
                current += " " + word
            } else {
                lines.append(current)
                current = continuation + word
            }
            isEmpty = false
        }
        lines.append(current)
        return lines
    }

    /// `lines`, laid out with four spaces per level, with `width` spaces per level.
    static func reindented(_ lines: [String], width: Int) -> [String] {
        guard width != level.count else { return lines }
        return lines.map { line in
            let spaces = line.prefix { $0 == " " }.count
            return String(repeating: " ", count: spaces / level.count * width + spaces % level.count)
                + line.dropFirst(spaces)
        }
    }
}
