/// Hand-written format checks: each walks the UTF-8 bytes once and allocates nothing.
///
/// Each follows the grammar JSON Schema 2020-12 names for it (section 7.3 of its validation vocabulary);
/// the exact rules are in ``StringFormat/isValid(_:)``.
extension StringFormat {
    /// Whether `string` is a valid value of this format.
    ///
    /// - `date-time`: RFC 3339 `date-time`: `2026-11-22T03:17:53Z`, `2026-11-22t04:17:53.120+01:00`. The
    ///   day must exist in its month (leap years included); a leap second (`:60`) only at 23:59 UTC.
    /// - `date`: RFC 3339 `full-date`: `2026-11-22`.
    /// - `time`: RFC 3339 `full-time`, offset required: `03:17:53Z`, `04:17:53.5+01:00`.
    /// - `email`: RFC 5321 `Mailbox`: a dot-atom or quoted local part of at most 64 bytes, `@`, then a domain
    ///   (one label or more, so `user@localhost` is valid) or an address literal such as `[127.0.0.1]` or
    ///   `[IPv6:::1]`. ASCII only: internationalised addresses are `idn-email`, which Tally does not check.
    /// - `hostname`: RFC 1123: labels of 1 to 63 letters, digits and hyphens, not starting or ending with a
    ///   hyphen, separated by dots, at most 253 characters, no trailing dot.
    /// - `ipv4`: RFC 2673 dotted quad: four decimal numbers from 0 to 255 without leading zeros.
    /// - `ipv6`: RFC 4291 text form: eight groups of 1 to 4 hex digits, one `::` for one or more zero groups,
    ///   an optional dotted quad as the last 32 bits; no zone (`%eth0`).
    /// - `uri`: RFC 3986 `URI`: a scheme, `:`, an optional `//authority` (with a checked port and IP
    ///   literal), a path, query and fragment of the characters RFC 3986 allows, `%` followed by two hex
    ///   digits. ASCII only (non-ASCII is `iri`).
    /// - `uri-reference`: RFC 3986 `URI-reference`: a `uri`, or a relative reference such as `../a?b#c`.
    /// - `uuid`: RFC 9562: 32 hex digits in groups of 8-4-4-4-12, either case.
    /// - `json-pointer`: RFC 6901: empty, or `/`-separated tokens where `~` is only `~0` or `~1`.
    public func isValid(_ string: String) -> Bool {
        if let valid = string.utf8.withContiguousStorageIfAvailable({ isValid(bytes: $0) }) { return valid }
        return Array(string.utf8).withUnsafeBufferPointer { isValid(bytes: $0) }
    }

    private func isValid(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch self {
        case .dateTime: return Self.isDateTime(bytes)
        case .date: return bytes.count == 10 && Self.fullDate(bytes, at: 0)
        case .time: return Self.fullTime(bytes, at: 0) == bytes.count
        case .email: return Self.isEmail(bytes)
        case .hostname: return Self.isHostname(bytes[...])
        case .ipv4: return Self.isIPv4(bytes[...])
        case .ipv6: return Self.isIPv6(bytes[...])
        case .uri: return Self.isURI(bytes, allowRelative: false)
        case .uriReference: return Self.isURI(bytes, allowRelative: true)
        case .uuid: return Self.isUUID(bytes)
        case .jsonPointer: return Self.isJSONPointer(bytes)
        }
    }

    // MARK: Characters

    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    static func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 6 }

    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }

    /// `count` ASCII digits at `start` as a number, or nil.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start >= 0, start + count <= bytes.count else { return nil }
        var value = 0
        for index in start..<start + count {
            guard isDigit(bytes[index]) else { return nil }
            value = value * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
        }
        return value
    }

    // MARK: Dates and times (RFC 3339 section 5.6)

    static func isDateTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 20, fullDate(bytes, at: 0), bytes[10] | 0x20 == UInt8(ascii: "t") else { return false }
        return fullTime(bytes, at: 11) == bytes.count
    }

    /// `YYYY-MM-DD` at `start`, with a day that exists in its month.
    static func fullDate(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard start + 10 <= bytes.count, let year = number(bytes, start, 4), bytes[start + 4] == UInt8(ascii: "-"),
            let month = number(bytes, start + 5, 2), bytes[start + 7] == UInt8(ascii: "-"),
            let day = number(bytes, start + 8, 2), (1...12).contains(month)
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    /// `HH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)` at `start`; returns the index after it, or -1. A leap second
    /// (`:60`) is valid only when the time is 23:59 in UTC, as RFC 3339 section 5.7 allows.
    static func fullTime(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int {
        guard let hour = number(bytes, start, 2), start + 8 < bytes.count, bytes[start + 2] == UInt8(ascii: ":"),
            let minute = number(bytes, start + 3, 2), bytes[start + 5] == UInt8(ascii: ":"),
            let second = number(bytes, start + 6, 2), hour < 24, minute < 60, second <= 60
        else { return -1 }
        var index = start + 8
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let digits = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > digits, index < bytes.count else { return -1 }
        }
        var offset = 0  // minutes east of UTC
        if bytes[index] | 0x20 == UInt8(ascii: "z") {
            index += 1
        } else {
            let sign = bytes[index]
            guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), let offsetHour = number(bytes, index + 1, 2),
                index + 3 < bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
                let offsetMinute = number(bytes, index + 4, 2), offsetHour < 24, offsetMinute < 60
            else { return -1 }
            offset = (offsetHour * 60 + offsetMinute) * (sign == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        }
        if second == 60 {
            let utc = ((hour * 60 + minute - offset) % 1440 + 1440) % 1440
            guard utc == 23 * 60 + 59 else { return -1 }
        }
        return index
    }

    // MARK: UUID and JSON pointer

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

    static func isJSONPointer(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first else { return true }
        guard first == UInt8(ascii: "/") else { return false }
        var index = 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "~") {
                guard index + 1 < bytes.count,
                    bytes[index + 1] == UInt8(ascii: "0") || bytes[index + 1] == UInt8(ascii: "1")
                else { return false }
                index += 2
            } else {
                index += 1
            }
        }
        return true
    }
}
