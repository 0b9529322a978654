// Reading plan text needs Yams, which the `Plans` trait brings (PlanLoader explains the error without it).
#if Plans
import Foundation
import Tally
import Yams

/// A YAML or JSON text composed into Yams nodes, with locations mapped back to the original text.
///
/// JSON is read as YAML (a JSON text is a YAML 1.2 flow document), so one reader serves both and every
/// node keeps a line and column. Three gaps of libyaml and Yams are bridged here, each only when a first
/// attempt fails:
/// - a leading byte order mark is removed;
/// - JSON's surrogate-pair escapes (`\ud83d\ude00`), which libyaml rejects, are rewritten to YAML's 8-digit
///   `\U0001f600` escape, with columns shifted back so locations still match the file;
/// - keys that differ only in Unicode normalization ("é" as U+00E9, or as "e" and U+0301), which Yams
///   reports as repeated because `String` equates them, are kept apart: the text is composed with each
///   non-ASCII character stood in for by a private-use one (one character for one, so columns hold), and
///   the characters are put back in every scalar afterwards.
struct PlanDocument {
    let file: String
    let root: Node
    private let shifts: [Int: [(column: Int, shift: Int)]]
    /// The last line of the text and the column just past its end.
    private let end: (line: Int, column: Int)

    /// Composes `text`; throws a ``PlanError`` of kind ``PlanError/Kind/syntax`` with the location libyaml
    /// reported.
    init(text: String, file: String) throws(PlanError) {
        self.file = file
        var text = text
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        self.end = Self.end(of: text)
        let first: ComposeError
        do {
            self.root = try Self.compose(text, file: file)
            self.shifts = [:]
            return
        } catch {
            first = error
        }
        // libyaml refuses JSON surrogate escapes; retry with them rewritten, only then.
        var (rewritten, shifts) = Self.rewriteSurrogateEscapes(text)
        var failure = first
        if !shifts.isEmpty {
            do {
                self.root = try Self.compose(rewritten, file: file)
                self.shifts = shifts
                return
            } catch {
                failure = error
            }
        } else {
            rewritten = text
            shifts = [:]
        }
        guard failure.isRepeatedKey else { throw first.planError(file: file) }
        // Mask escapes too; should one outside a double-quoted scalar have been rewritten, mask characters only.
        for rewritingEscapes in [true, false] {
            guard let mask = CharacterMask(rewritten, rewritingEscapes: rewritingEscapes) else { continue }
            let masked: Node
            do {
                masked = try Self.compose(mask.text, file: file)
            } catch {
                // Keys repeated code point for code point: report them as written.
                throw error.planError(file: file, unmasking: mask)
            }
            guard !mask.hasLeakedEscapes(masked) else { continue }
            self.root = mask.unmask(masked)
            self.shifts = shifts
            return
        }
        throw first.planError(file: file)
    }

    /// A document of nodes built from `source`'s nodes (an imported schema rewritten into plan form): their
    /// marks are `source`'s, so locations point into `source`'s text.
    init(root: Node, locatingIn source: PlanDocument) {
        self.file = source.file
        self.root = root
        self.shifts = source.shifts
        self.end = source.end
    }

    /// The location of `node` in the original text.
    func location(of node: Node) -> SourceLocation {
        guard let mark = node.mark else { return SourceLocation(file: file) }
        // Past the last line, as libyaml puts the end of a text without a final newline: the end of the text.
        guard mark.line <= end.line else { return SourceLocation(file: file, line: end.line, column: end.column) }
        var column = mark.column
        for (threshold, shift) in shifts[mark.line] ?? [] where mark.column > threshold { column += shift }
        return SourceLocation(file: file, line: mark.line, column: column)
    }

    /// Why composing failed, with the text composed; turned into a diagnostic only when it is reported.
    struct ComposeError: Error {
        enum Cause {
            case yaml(YamlError)
            case empty
            case other(String)
        }

        let cause: Cause
        let text: String

        var isRepeatedKey: Bool {
            if case .yaml(.duplicatedKeysInMapping) = cause { return true }
            return false
        }

        func planError(file: String, unmasking mask: CharacterMask? = nil) -> PlanError {
            var diagnostic: PlanDiagnostic
            switch cause {
            case .yaml(let error): diagnostic = PlanDocument.diagnostic(for: error, text: text)
            case .empty:
                diagnostic = PlanDiagnostic(
                    .error, "The file is empty; a plan needs 'version' and 'events'", at: SourceLocation(file: ""))
            case .other(let message): diagnostic = PlanDiagnostic(.error, message, at: SourceLocation(file: ""))
            }
            diagnostic.location.file = file
            if let mask { diagnostic.message = mask.unmask(diagnostic.message) }
            return PlanError(.syntax, diagnostics: [diagnostic])
        }
    }

    /// Composes one document.
    private static func compose(_ text: String, file: String) throws(ComposeError) -> Node {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ComposeError(cause: .yaml(error), text: text)
        } catch {
            throw ComposeError(cause: .other("\(error)"), text: text)
        }
        guard let node else { throw ComposeError(cause: .empty, text: text) }
        return node
    }

    /// `mark`'s location, or the end of the text when libyaml put it past the last line: at the end of a
    /// text without a final newline it adds one, so an error there was reported on a line the file does not
    /// have (found by Fuzz/FuzzPlan, issue 34).
    private static func endClamped(_ mark: Mark, in text: String) -> SourceLocation {
        let end = end(of: text)
        guard mark.line > end.line else { return SourceLocation(file: "", line: mark.line, column: mark.column) }
        return SourceLocation(file: "", line: end.line, column: end.column)
    }

    /// The last line of `text` and the column just past its end, lines as libyaml counts them: a break is
    /// CR LF, CR, LF, NEL, LS or PS.
    private static func end(of text: String) -> (line: Int, column: Int) {
        var lines = 1
        var lastLineLength = 0
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n" where previous == "\r": break
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
                lines += 1
                lastLineLength = 0
            default: lastLineLength += 1
            }
            previous = scalar
        }
        return (lines, lastLineLength + 1)
    }

    private static func diagnostic(for error: YamlError, text: String) -> PlanDiagnostic {
        func located(_ problem: String, _ context: YamlError.Context?, _ mark: Mark) -> PlanDiagnostic {
            var message = problem.prefix(1).uppercased() + problem.dropFirst()
            if let context {
                message += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))"
            }
            return PlanDiagnostic(.error, message, at: endClamped(mark, in: text))
        }
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            return located(problem, context, mark)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.sorted().map { "'\($0)'" }.joined(separator: ", ")
            return PlanDiagnostic(
                .error, "The mapping starting here repeats the key \(keys); keys must be unique",
                at: SourceLocation(file: "", line: context.mark.line, column: context.mark.column))
        case .reader(let problem, let offset, _, _):
            var location = SourceLocation(file: "")
            if let offset {
                let prefix = text.prefix(offset)
                location.line = prefix.reduce(1) { $1.isNewline ? $0 + 1 : $0 }
                location.column = prefix.reversed().prefix { !$0.isNewline }.reduce(1) { $0 + $1.unicodeScalars.count }
            }
            return PlanDiagnostic(.error, "The text cannot be read: \(problem)", at: location)
        default:
            return PlanDiagnostic(
                .error, "The text cannot be read as YAML or JSON: \(error)", at: SourceLocation(file: ""))
        }
    }

    /// Rewrites `\uD8xx\uDCxx` escape pairs inside double-quoted scalars to `\U000XXXXX`, returning, per
    /// line, the columns (in the rewritten text) after which two columns must be added back; a location
    /// after several rewrites on its line adds back two for each.
    static func rewriteSurrogateEscapes(_ text: String) -> (String, [Int: [(column: Int, shift: Int)]]) {
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var shifts: [Int: [(column: Int, shift: Int)]] = [:]
        var line = 1
        var column = 1  // column of the next scalar written, in the rewritten text
        var inQuotes = false
        var index = 0
        func hex4(at start: Int) -> UInt32? {
            guard start + 4 <= scalars.count else { return nil }
            return UInt32(String(String.UnicodeScalarView(scalars[start..<start + 4])), radix: 16)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if inQuotes, scalar == "\\", index + 1 < scalars.count {
                if scalars[index + 1] == "u", let high = hex4(at: index + 2), (0xD800..<0xDC00).contains(high),
                    index + 7 < scalars.count, scalars[index + 6] == "\\", scalars[index + 7] == "u",
                    let low = hex4(at: index + 8), (0xDC00..<0xE000).contains(low)
                {
                    let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                    let hex = String(value, radix: 16)
                    let escape = "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
                    output.append(contentsOf: escape.unicodeScalars)
                    column += 10
                    shifts[line, default: []].append((column: column - 1, shift: 2))
                    index += 12
                    continue
                }
                output.append(scalar)
                output.append(scalars[index + 1])
                column += 2
                index += 2
                continue
            }
            if scalar == "\"" { inQuotes.toggle() }
            output.append(scalar)
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }
        return (String(output), shifts)
    }
}
#endif
