/// The rules for names, ids and property keys: not blank (keys: not empty), at most ``InputLimits/maximumNameBytes``
/// UTF-8 bytes, and no control or invisible character (see ``InputLimits``, "Control and invisible
/// characters").
extension InputLimits {
    /// What the name rules say about one name.
    enum NameCheck: Equatable {
        case valid
        /// Empty or only whitespace.
        case blank
        /// More than ``InputLimits/maximumNameBytes`` UTF-8 bytes.
        case tooLong
        /// Holds a control or an invisible character: the first one.
        case invalid(Unicode.Scalar, invisible: Bool)
    }

    /// Checks a name or id. Printable ASCII, the usual case, is settled eight bytes at a time.
    func checkName(_ name: String) -> NameCheck {
        if name.utf8.count > maximumNameBytes { return .tooLong }
        if let (printable, visible) = Self.scanPrintableASCII(name), printable {
            return visible ? .valid : .blank
        }
        var visible = false
        var first: NameCheck?
        for scalar in name.unicodeScalars {
            if !scalar.properties.isWhitespace { visible = true }
            if first == nil, let invalid = Self.invalidCharacter(scalar) { first = invalid }
        }
        guard visible else { return .blank }
        return first ?? .valid
    }

    /// The problem with an event's name or id, or nil when it passes.
    @inline(__always)
    func nameProblem(of event: Event) -> Problem? {
        let check =
            switch event.kind {
            case .track, .screen: checkName(event.name)
            case .identify, .alias: checkName(event.userId ?? "")
            case .group: checkName(event.groupId ?? "")
            }
        guard check != .valid else { return nil }
        return problem(check, of: event)
    }

    /// The problem `check` found with `event`'s name or id.
    private func problem(_ check: NameCheck, of event: Event) -> Problem? {
        let subject = event.subject
        let noun = event.subjectNoun
        switch check {
        case .valid:
            return nil
        case .blank:
            return Problem(
                .emptyName, "The \(noun) is empty or only whitespace", outcome: .dropped,
                eventName: event.isNamed ? event.name : event.kind.rawValue)
        case .tooLong:
            return Problem(
                .nameTooLong,
                "The \(noun) has \(subject.utf8.count) UTF-8 bytes; at most \(maximumNameBytes) are allowed",
                outcome: .dropped,
                eventName: Self.reportName(of: event, subject: Self.truncate(subject, toUTF8Bytes: 64) + "…"))
        case .invalid(let scalar, let invisible):
            return Problem(
                .invalidName,
                "The \(noun) holds \(Self.describe(scalar, invisible: invisible)); names and ids may not",
                outcome: .dropped, eventName: Self.reportName(of: event, subject: Self.escaped(subject)))
        }
    }

    /// ``Event/reportName`` with `subject`, the name or id made safe to print, in place of the name or id.
    private static func reportName(of event: Event, subject: String) -> String {
        event.isNamed ? subject : "\(event.kind.rawValue) \(subject)"
    }

    /// Whether a property key passes the key rules. Printable ASCII keys are settled without decoding.
    @inline(__always)
    func acceptsKey(_ key: String) -> Bool {
        let bytes = key.utf8.count
        guard bytes > 0, bytes <= maximumNameBytes else { return false }
        if let (printable, _) = Self.scanPrintableASCII(key), printable { return true }
        return !key.unicodeScalars.contains { Self.invalidCharacter($0) != nil }
    }

    /// Removes the properties whose keys break the key rules, reporting each.
    func removeBadKeys(
        from members: inout [String: PropertyValue], path: String, eventName: String, report: (Problem) -> Void
    ) {
        let bad = members.keys.filter { !acceptsKey($0) }.sorted()
        for key in bad {
            members.removeValue(forKey: key)
            if key.isEmpty {
                report(
                    Problem(
                        .emptyPropertyKey, "A property with an empty key was removed", outcome: .sanitized,
                        eventName: eventName, path: path + "/"))
                continue
            }
            let reason: String
            if key.utf8.count > maximumNameBytes {
                reason = "has \(key.utf8.count) UTF-8 bytes; at most \(maximumNameBytes) are allowed"
            } else if let scalar = key.unicodeScalars.first(where: { Self.invalidCharacter($0) != nil }),
                case .invalid(_, let invisible) = Self.invalidCharacter(scalar)
            {
                reason = "holds \(Self.describe(scalar, invisible: invisible))"
            } else {
                reason = "breaks the key rules"
            }
            let shown = Self.escaped(Self.truncate(key, toUTF8Bytes: 64))
            report(
                Problem(
                    .invalidPropertyKey, "The property key \"\(shown)\" \(reason); the property was removed",
                    outcome: .sanitized, eventName: eventName, path: path + "/" + JSONPointer.escape(shown)))
        }
    }

    /// `.invalid` for a control or invisible character, nil for any other.
    static func invalidCharacter(_ scalar: Unicode.Scalar) -> NameCheck? {
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
            || scalar.value == 0x2029
        {
            return .invalid(scalar, invisible: false)
        }
        if scalar.isASCII { return nil }
        let properties = scalar.properties
        if properties.generalCategory == .format || properties.isDefaultIgnorableCodePoint {
            return .invalid(scalar, invisible: true)
        }
        return nil
    }

    /// Whether every byte of `string` is printable ASCII (0x20 to 0x7E), and whether one is not a space;
    /// nil when the string has no contiguous UTF-8 storage (a bridged string), so the caller decodes.
    ///
    /// Eight bytes at a time, the last eight overlapping the word before them, so that no string of eight
    /// bytes or more needs a byte-by-byte tail; four at a time the same way from four to seven bytes. A byte
    /// looked at twice changes neither answer.
    @inline(__always)
    static func scanPrintableASCII(_ string: String) -> (printable: Bool, visible: Bool)? {
        string.utf8.withContiguousStorageIfAvailable { bytes in
            let count = bytes.count
            guard let base = bytes.baseAddress, count > 0 else { return (true, false) }
            if count >= 8 {
                var visible = false
                var start = 0
                while true {
                    let word = UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self)
                    if !isPrintable(word) { return (false, visible) }
                    if word != 0x2020_2020_2020_2020 { visible = true }
                    if start == count - 8 { return (true, visible) }
                    start = min(start + 8, count - 8)
                }
            }
            if count >= 4 {
                let head = UnsafeRawPointer(base).loadUnaligned(as: UInt32.self)
                let tail = UnsafeRawPointer(base + count - 4).loadUnaligned(as: UInt32.self)
                let printable = isPrintable(UInt64(head) | UInt64(tail) << 32)
                let visible = head != 0x2020_2020 || tail != 0x2020_2020
                return (printable, printable && visible)
            }
            var visible = false
            for byte in bytes {
                if byte < 0x20 || byte >= 0x7F { return (false, visible) }
                if byte != 0x20 { visible = true }
            }
            return (true, visible)
        }
    }

    /// Whether each of the eight bytes of `word` is printable ASCII (0x20 to 0x7E).
    @inline(__always)
    private static func isPrintable(_ word: UInt64) -> Bool {
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        // A byte of 0x80 or more, below 0x20, or equal to 0x7F (each test exact once the first has ruled
        // out high bytes).
        let below = (word &- 0x2020_2020_2020_2020) & ~word & high
        let delete = word ^ 0x7F7F_7F7F_7F7F_7F7F
        let deletes = (delete &- ones) & ~delete & high
        return (word & high) | below | deletes == 0
    }

    /// "a control character (U+0000)" or "an invisible character (U+200B)".
    static func describe(_ scalar: Unicode.Scalar, invisible: Bool) -> String {
        let code = String(scalar.value, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, 4 - code.count)) + code
        return invisible ? "an invisible character (U+\(padded))" : "a control character (U+\(padded))"
    }

    /// `text` with its control and invisible characters written as `\u{…}`, for messages.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { invalidCharacter($0) != nil }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if invalidCharacter(scalar) != nil {
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
