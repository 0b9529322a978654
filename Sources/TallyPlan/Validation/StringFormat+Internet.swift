/// The internet formats: e-mail addresses, host names, IP addresses and URIs, by their RFCs' grammars.
extension StringFormat {
    typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    // MARK: E-mail (RFC 5321 section 4.1.2)

    /// `atext` of RFC 5322: letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
    private static func isAtext(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || atextPunctuation.contains(byte)
    }

    private static let atextPunctuation: Set<UInt8> = Set("!#$%&'*+-/=?^_`{|}~".utf8)

    static func isEmail(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first else { return false }
        var index = 0
        if first == UInt8(ascii: "\"") {
            // Quoted-string: printable ASCII but `"` and `\`, or a backslash pair.
            index = 1
            while true {
                guard index < bytes.count else { return false }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\") {
                    guard index + 1 < bytes.count, (32...126).contains(bytes[index + 1]) else { return false }
                    index += 2
                } else {
                    guard (32...126).contains(byte) else { return false }
                    index += 1
                }
            }
            index += 1
        } else {
            // Dot-string: atoms separated by single dots.
            var atomLength = 0
            while index < bytes.count, bytes[index] != UInt8(ascii: "@") {
                if bytes[index] == UInt8(ascii: ".") {
                    guard atomLength > 0 else { return false }
                    atomLength = 0
                } else {
                    guard isAtext(bytes[index]) else { return false }
                    atomLength += 1
                }
                index += 1
            }
            guard atomLength > 0 else { return false }
        }
        guard index <= 64, index < bytes.count, bytes[index] == UInt8(ascii: "@") else { return false }
        let domain = bytes[(index + 1)...]
        guard let open = domain.first else { return false }
        if open == UInt8(ascii: "[") {
            guard domain.count >= 3, domain.last == UInt8(ascii: "]") else { return false }
            let literal = domain.dropFirst().dropLast()
            // ABNF strings ignore case, so the tag is `IPv6:` in any case.
            let tag = Array("ipv6:".utf8)
            if literal.count > tag.count, literal.prefix(tag.count).map({ $0 | 0x20 }).elementsEqual(tag) {
                return isIPv6(literal.dropFirst(tag.count))
            }
            return isIPv4(literal)
        }
        return isDomain(domain, maximumLength: 255)
    }

    // MARK: Host names (RFC 1123 section 2.1)

    static func isHostname(_ bytes: Bytes) -> Bool {
        isDomain(bytes, maximumLength: 253)
    }

    /// Labels of letters, digits and hyphens, 1 to 63 long, not starting or ending with a hyphen, separated by
    /// single dots; at least one label; no trailing dot.
    private static func isDomain(_ bytes: Bytes, maximumLength: Int) -> Bool {
        guard !bytes.isEmpty, bytes.count <= maximumLength else { return false }
        var labelLength = 0
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard labelLength > 0, previous != UInt8(ascii: "-") else { return false }
                labelLength = 0
            } else {
                guard isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "-") else { return false }
                if labelLength == 0, byte == UInt8(ascii: "-") { return false }
                labelLength += 1
                guard labelLength <= 63 else { return false }
            }
            previous = byte
        }
        return labelLength > 0 && previous != UInt8(ascii: "-")
    }

    // MARK: IP addresses (RFC 2673, RFC 4291 section 2.2)

    /// A dotted quad: four numbers from 0 to 255, no leading zeros.
    static func isIPv4(_ bytes: Bytes) -> Bool {
        var parts = 0
        var value = 0
        var digits = 0
        var leadingZero = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, parts < 3 else { return false }
                parts += 1
                value = 0
                digits = 0
            } else {
                guard isDigit(byte), !(leadingZero && digits == 1) else { return false }
                if digits == 0 { leadingZero = byte == UInt8(ascii: "0") }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                guard value <= 255 else { return false }
            }
        }
        return parts == 3 && digits > 0
    }

    /// Eight groups of 1 to 4 hex digits; one `::` stands for one or more zero groups; the last 32 bits may be
    /// a dotted quad.
    static func isIPv6(_ bytes: Bytes) -> Bool {
        let colon = UInt8(ascii: ":")
        // Find the one `::`, if any.
        var gap: Bytes.Index?
        var index = bytes.startIndex
        while index < bytes.endIndex - 1 {
            if bytes[index] == colon, bytes[index + 1] == colon {
                guard gap == nil else { return false }
                gap = index
                index += 2
            } else {
                index += 1
            }
        }
        func groups(_ part: Bytes, last: Bool) -> Int? {
            if part.isEmpty { return 0 }
            var count = 0
            var start = part.startIndex
            while true {
                let end = part[start...].firstIndex(of: colon) ?? part.endIndex
                let group = part[start..<end]
                if end == part.endIndex, last, group.contains(UInt8(ascii: ".")) {
                    guard isIPv4(group) else { return nil }
                    return count + 2
                }
                guard (1...4).contains(group.count), group.allSatisfy(isHex) else { return nil }
                count += 1
                if end == part.endIndex { return count }
                start = end + 1
            }
        }
        if let gap {
            guard let head = groups(bytes[bytes.startIndex..<gap], last: false),
                let tail = groups(bytes[(gap + 2)...], last: true)
            else { return false }
            return head + tail <= 7
        }
        return groups(bytes, last: true) == 8
    }

    // MARK: URIs (RFC 3986 sections 3 and 4.1)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    private static let subDelimiters: Set<UInt8> = Set("!$&'()*+,;=".utf8)

    /// Whether `bytes[index]` starts a `pct-encoded` triple.
    private static func isPercentEncoded(_ bytes: Bytes, _ index: Bytes.Index) -> Bool {
        bytes[index] == UInt8(ascii: "%") && index + 2 < bytes.endIndex && isHex(bytes[index + 1])
            && isHex(bytes[index + 2])
    }

    /// Whether every byte of `bytes` is unreserved, percent-encoded, a sub-delimiter or one of `extra`.
    private static func allowed(_ bytes: Bytes, extra: String) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard isPercentEncoded(bytes, index) else { return false }
                index += 3
                continue
            }
            guard isUnreserved(byte) || subDelimiters.contains(byte) || extra.utf8.contains(byte) else { return false }
            index += 1
        }
        return true
    }

    static func isURI(_ all: UnsafeBufferPointer<UInt8>, allowRelative: Bool) -> Bool {
        var bytes = all[...]
        // The fragment, then the query.
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) {
            guard allowed(bytes[(hash + 1)...], extra: ":@/?") else { return false }
            bytes = bytes[..<hash]
        }
        if let question = bytes.firstIndex(of: UInt8(ascii: "?")) {
            guard allowed(bytes[(question + 1)...], extra: ":@/?") else { return false }
            bytes = bytes[..<question]
        }
        // A scheme: a letter, then letters, digits, `+`, `-`, `.`, up to the first `:` before any `/`.
        let colon = bytes.firstIndex(of: UInt8(ascii: ":"))
        let slash = bytes.firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        if let colon, colon < slash {
            let scheme = bytes[..<colon]
            guard let first = scheme.first, isLetter(first),
                scheme.allSatisfy({ isLetter($0) || isDigit($0) || "+-.".utf8.contains($0) })
            else { return false }
            return isHierarchicalPart(bytes[(colon + 1)...])
        }
        // No scheme: only a relative reference, whose first segment has no colon (checked above).
        return allowRelative && isHierarchicalPart(bytes)
    }

    /// `"//" authority path-abempty`, or a path of segments.
    private static func isHierarchicalPart(_ bytes: Bytes) -> Bool {
        var path = bytes
        if bytes.count >= 2, bytes[bytes.startIndex] == UInt8(ascii: "/"),
            bytes[bytes.startIndex + 1] == UInt8(ascii: "/")
        {
            let rest = bytes.dropFirst(2)
            let end = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            guard isAuthority(rest[..<end]) else { return false }
            path = rest[end...]
        }
        return allowed(path, extra: ":@/")
    }

    /// `[userinfo "@"] host [":" port]`.
    private static func isAuthority(_ bytes: Bytes) -> Bool {
        var host = bytes
        if let at = bytes.firstIndex(of: UInt8(ascii: "@")) {
            guard allowed(bytes[..<at], extra: ":") else { return false }
            host = bytes[(at + 1)...]
        }
        var port: Bytes?
        if host.first == UInt8(ascii: "[") {
            guard let close = host.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = host[(host.startIndex + 1)..<close]
            guard isIPv6(literal) || isIPvFuture(literal) else { return false }
            let after = host[(close + 1)...]
            if let first = after.first {
                guard first == UInt8(ascii: ":") else { return false }
                port = after.dropFirst()
            }
        } else {
            if let colon = host.firstIndex(of: UInt8(ascii: ":")) {
                port = host[(colon + 1)...]
                host = host[..<colon]
            }
            guard allowed(host, extra: "") else { return false }
        }
        return port?.allSatisfy(isDigit) ?? true
    }

    /// `"v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
    private static func isIPvFuture(_ bytes: Bytes) -> Bool {
        guard bytes.first.map({ $0 | 0x20 }) == UInt8(ascii: "v"), let dot = bytes.firstIndex(of: UInt8(ascii: "."))
        else {
            return false
        }
        let version = bytes[(bytes.startIndex + 1)..<dot]
        let rest = bytes[(dot + 1)...]
        return !version.isEmpty && version.allSatisfy(isHex) && !rest.isEmpty
            && rest.allSatisfy { isUnreserved($0) || subDelimiters.contains($0) || $0 == UInt8(ascii: ":") }
    }
}
