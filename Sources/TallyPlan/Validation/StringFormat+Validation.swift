/// Hand-written format checks: each walks the UTF-8 bytes once and allocates nothing.
extension StringFormat {
    /// Whether `string` is a valid value of this format.
    ///
    /// - `date-time`: RFC 3339 `full-date "T" full-time`: `2026-11-22T03:17:53Z`,
    ///   `2026-11-22T03:17:53.120+01:00`. The `T` and `Z` may be lower case; the day must exist in its
    ///   month (leap years included); a leap second `:60` is accepted.
    /// - `email`: one `@` between a local part of 1 to 64 bytes without spaces, and a domain of at least two
    ///   dot-separated labels of letters, digits and hyphens (non-ASCII letters allowed).
    /// - `uri`: an absolute URI by RFC 3986: a scheme (a letter, then letters, digits, `+`, `-`, `.`), a
    ///   colon, then only characters URIs allow, with `%` followed by two hex digits.
    /// - `uuid`: 32 hex digits in groups of 8-4-4-4-12, either case.
    public func isValid(_ string: String) -> Bool {
        if let valid = string.utf8.withContiguousStorageIfAvailable({ isValid(bytes: $0) }) { return valid }
        return Array(string.utf8).withUnsafeBufferPointer { isValid(bytes: $0) }
    }

    private func isValid(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch self {
        case .dateTime: return Self.isDateTime(bytes)
        case .email: return Self.isEmail(bytes)
        case .uri: return Self.isURI(bytes)
        case .uuid: return Self.isUUID(bytes)
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 6
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }

    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start + count <= bytes.count else { return nil }
        var value = 0
        for index in start..<start + count {
            guard isDigit(bytes[index]) else { return nil }
            value = value * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
        }
        return value
    }

    static func isDateTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 20, let year = number(bytes, 0, 4), bytes[4] == UInt8(ascii: "-"),
            let month = number(bytes, 5, 2), bytes[7] == UInt8(ascii: "-"), let day = number(bytes, 8, 2),
            bytes[10] | 0x20 == UInt8(ascii: "t"), let hour = number(bytes, 11, 2), bytes[13] == UInt8(ascii: ":"),
            let minute = number(bytes, 14, 2), bytes[16] == UInt8(ascii: ":"), let second = number(bytes, 17, 2),
            (1...12).contains(month), hour < 24, minute < 60, second <= 60
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return false }
        var index = 19
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > start, index < bytes.count else { return false }
        }
        if bytes[index] | 0x20 == UInt8(ascii: "z") { return index + 1 == bytes.count }
        guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"), index + 6 == bytes.count,
            let offsetHour = number(bytes, index + 1, 2), bytes[index + 3] == UInt8(ascii: ":"),
            let offsetMinute = number(bytes, index + 4, 2)
        else { return false }
        return offsetHour < 24 && offsetMinute < 60
    }

    static func isEmail(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var at = -1
        for index in 0..<bytes.count where bytes[index] == UInt8(ascii: "@") {
            guard at < 0 else { return false }
            at = index
        }
        guard at >= 1, at <= 64, at < bytes.count - 3 else { return false }
        // Local part: no spaces or control characters, no leading, trailing or doubled dots.
        var previous: UInt8 = UInt8(ascii: ".")
        for index in 0..<at {
            let byte = bytes[index]
            if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            if byte == UInt8(ascii: "."), previous == UInt8(ascii: ".") { return false }
            previous = byte
        }
        guard previous != UInt8(ascii: ".") else { return false }
        // Domain: labels of letters, digits, hyphens (or non-ASCII), separated by single dots; at least two.
        var labels = 0
        var labelLength = 0
        var labelStart: UInt8 = 0
        previous = 0
        for index in at + 1..<bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard labelLength > 0, labelLength <= 63, labelStart != UInt8(ascii: "-"), previous != UInt8(ascii: "-")
                else { return false }
                labels += 1
                labelLength = 0
            } else {
                guard isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte >= 0x80 else { return false }
                if labelLength == 0 { labelStart = byte }
                labelLength += 1
            }
            previous = byte
        }
        guard labelLength > 0, labelLength <= 63, labelStart != UInt8(ascii: "-"), previous != UInt8(ascii: "-")
        else { return false }
        return labels + 1 >= 2
    }

    static func isURI(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, isLetter(first) else { return false }
        var index = 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { break }
            guard isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
            else { return false }
            index += 1
        }
        guard index < bytes.count else { return false }  // no colon: not absolute
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
                index += 3
                continue
            }
            guard isLetter(byte) || isDigit(byte) || allowedInURI.contains(byte) else { return false }
            index += 1
        }
        return true
    }

    /// RFC 3986 unreserved and reserved punctuation.
    private static let allowedInURI: Set<UInt8> = Set("-._~:/?#[]@!$&'()*+,;=".utf8)

    static func isUUID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == 36 else { return false }
        for index in 0..<36 {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard bytes[index] == UInt8(ascii: "-") else { return false }
            } else {
                guard isHex(bytes[index]) else { return false }
            }
        }
        return true
    }
}
