// Reading plan text needs Yams, which the `Plans` trait brings (PlanLoader explains the error without it).
#if Plans
import Foundation
import Yams

extension PlanDocument {
    /// A text with each distinct non-ASCII character replaced by its own private-use character, and the way
    /// back.
    ///
    /// Yams finds repeated keys by `String` equality, which equates canonically equivalent texts, so a plan
    /// naming both "é" (U+00E9) and "e" + U+0301 fails to compose. Private-use characters have no
    /// decompositions, so in the masked text only keys with the same code points are equal.
    ///
    /// Lines and columns do not move: a character is replaced by one character, and a `\uXXXX` or
    /// `\UXXXXXXXX` escape in a double-quoted scalar by an escape of the same length. Only characters libyaml
    /// treats as plain printable content are masked; line breaks (U+0085, U+2028, U+2029), the byte order mark
    /// and the characters libyaml rejects are left alone, so the masked text has the same structure and the
    /// same errors.
    ///
    /// Double-quoted scalars are found the simple way (an unescaped `"` opens or closes one). Should an escape
    /// outside one be rewritten, its replacement would survive composing as literal text;
    /// ``hasLeakedEscapes(_:)`` finds that, and the caller then gives up on masking.
    struct CharacterMask {
        /// The masked text.
        let text: String
        private let originals: [UInt32: Unicode.Scalar]
        /// The escapes written in place of others, as text.
        private let rewrittenEscapes: Set<String>

        /// Basic plane private use first (its characters can be written as `\uXXXX`), then planes 15 and 16.
        private static let standIns: [ClosedRange<UInt32>] = [0xE000...0xF8FF, 0xF0000...0xFFFFD, 0x100000...0x10FFFD]

        /// Masks `text`, and with `rewritingEscapes` the escapes of non-ASCII characters in double-quoted
        /// scalars; nil when it has nothing to mask, or more distinct characters than there are stand-ins.
        init?(_ text: String, rewritingEscapes: Bool) {
            var masks: [UInt32: UInt32] = [:]
            var originals: [UInt32: Unicode.Scalar] = [:]
            var pool = Self.standIns.lazy.flatMap { $0 }.makeIterator()
            func standIn(for scalar: Unicode.Scalar) -> UInt32? {
                if let known = masks[scalar.value] { return known }
                guard let next = pool.next() else { return nil }
                masks[scalar.value] = next
                originals[next] = scalar
                return next
            }
            let scalars = Array(text.unicodeScalars)
            var masked = String.UnicodeScalarView()
            var rewrittenEscapes: Set<String> = []
            var inQuotes = false
            var index = 0
            while index < scalars.count {
                let scalar = scalars[index]
                if rewritingEscapes, inQuotes, scalar == "\\", index + 1 < scalars.count {
                    let letter = scalars[index + 1]
                    let width = letter == "u" ? 4 : letter == "U" ? 8 : 0
                    if width > 0, index + 2 + width <= scalars.count,
                        let value = UInt32(
                            String(String.UnicodeScalarView(scalars[(index + 2)..<(index + 2 + width)])), radix: 16),
                        let original = Unicode.Scalar(value), Self.isMaskable(original)
                    {
                        guard let replacement = standIn(for: original), width == 8 || replacement <= 0xFFFF else {
                            return nil
                        }
                        let hex = String(replacement, radix: 16, uppercase: true)
                        let escape = "\\" + String(letter) + String(repeating: "0", count: width - hex.count) + hex
                        rewrittenEscapes.insert(escape)
                        masked.append(contentsOf: escape.unicodeScalars)
                        index += 2 + width
                        continue
                    }
                    masked.append(scalar)
                    masked.append(letter)
                    index += 2
                    continue
                }
                if scalar == "\"" { inQuotes.toggle() }
                if Self.isMaskable(scalar) {
                    guard let replacement = standIn(for: scalar).flatMap(Unicode.Scalar.init) else { return nil }
                    masked.append(replacement)
                } else {
                    masked.append(scalar)
                }
                index += 1
            }
            guard !masks.isEmpty else { return nil }
            self.text = String(masked)
            self.originals = originals
            self.rewrittenEscapes = rewrittenEscapes
        }

        private static func isMaskable(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0xA0...0xD7FF: return scalar.value != 0x2028 && scalar.value != 0x2029
            case 0xE000...0xFFFD: return scalar.value != 0xFEFF
            case 0x10000...0x10FFFF: return true
            default: return false
            }
        }

        /// `text` with the original characters back.
        func unmask(_ text: String) -> String {
            var result = String.UnicodeScalarView()
            for scalar in text.unicodeScalars { result.append(originals[scalar.value] ?? scalar) }
            return String(result)
        }

        /// `node` with the original characters back in every scalar, keeping tags, styles and marks.
        func unmask(_ node: Node) -> Node {
            switch node {
            case .scalar(let scalar):
                return .scalar(Node.Scalar(unmask(scalar.string), scalar.tag, scalar.style, scalar.mark))
            case .mapping(let mapping):
                let pairs = mapping.map { (unmask($0.key), unmask($0.value)) }
                return .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark))
            case .sequence(let sequence):
                return .sequence(
                    Node.Sequence(sequence.map { unmask($0) }, sequence.tag, sequence.style, sequence.mark))
            case .alias:
                return node
            }
        }

        /// Whether a rewritten escape shows up as text in a scalar of `node`: it was outside a double-quoted
        /// scalar, where a backslash is a backslash, and the masked reading differs from the file.
        func hasLeakedEscapes(_ node: Node) -> Bool {
            guard !rewrittenEscapes.isEmpty else { return false }
            switch node {
            case .scalar(let scalar): return rewrittenEscapes.contains { scalar.string.contains($0) }
            case .mapping(let mapping):
                return mapping.contains { hasLeakedEscapes($0.key) || hasLeakedEscapes($0.value) }
            case .sequence(let sequence): return sequence.contains { hasLeakedEscapes($0) }
            case .alias: return false
            }
        }
    }
}
#endif
