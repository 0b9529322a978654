import Foundation

/// Tally's one date rule: ISO 8601 in UTC with millisecond precision, `2026-11-22T03:17:53.120Z`.
///
/// Hand-written because it runs for every recorded event: it allocates one string and needs no
/// formatter, locale or calendar.
package enum ISO8601 {
    /// The seconds since 1970 the fixed form can write: from `0000-01-01T00:00:00.000Z` to
    /// `9999-12-31T23:59:59.999Z`.
    package static let writable: ClosedRange<TimeInterval> = -62_167_219_200...253_402_300_799.999

    /// Formats `date`, rounding down to the millisecond.
    ///
    /// Total: a date outside ``writable`` (a year before 0000 or after 9999) is written as the nearest end of
    /// that range, and a NaN interval as its start, so the text always has the one fixed form.
    package static func string(from date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let clamped = seconds.isNaN ? writable.lowerBound : min(max(seconds, writable.lowerBound), writable.upperBound)
        let totalMilliseconds = Int64((clamped * 1000).rounded(.down))
        let (days, millisecondOfDay) = totalMilliseconds.floorDivided(by: 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let hour = millisecondOfDay / 3_600_000
        let minute = millisecondOfDay / 60_000 % 60
        let second = millisecondOfDay / 1000 % 60
        let millisecond = millisecondOfDay % 1000

        // Written in place, 24 bytes, with no array per field (the collector writes one per vendor event).
        return String(unsafeUninitializedCapacity: 24) { bytes in
            var end = 0
            func append(_ value: Int64, width: Int) {
                var rest = value
                for position in stride(from: end + width - 1, through: end, by: -1) {
                    bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                end += width
            }
            func append(_ byte: UInt8) {
                bytes[end] = byte
                end += 1
            }
            append(year, width: 4)
            append(UInt8(ascii: "-"))
            append(month, width: 2)
            append(UInt8(ascii: "-"))
            append(day, width: 2)
            append(UInt8(ascii: "T"))
            append(hour, width: 2)
            append(UInt8(ascii: ":"))
            append(minute, width: 2)
            append(UInt8(ascii: ":"))
            append(second, width: 2)
            append(UInt8(ascii: "."))
            append(millisecond, width: 3)
            append(UInt8(ascii: "Z"))
            return end
        }
    }

    /// Parses the form `string(from:)` writes, also without milliseconds or with a `+00:00` offset.
    /// Returns nil for anything else.
    package static func date(from string: String) -> Date? {
        var string = string
        return string.withUTF8 { date(from: $0) }
    }

    private static func date(from bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= bytes.count else { return nil }
            var value: Int64 = 0
            for index in range {
                let byte = bytes[index]
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var milliseconds: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale: Int64 = 100
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                milliseconds += Int64(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        let rest = UnsafeBufferPointer(rebasing: bytes[index...])
        guard rest.elementsEqual("Z".utf8) || rest.elementsEqual("z".utf8) || rest.elementsEqual("+00:00".utf8)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let total = ((days * 24 + hour) * 60 + minute) * 60 + second
        return Date(timeIntervalSince1970: Double(total) + Double(milliseconds) / 1000)
    }

    /// Howard Hinnant's days-from-civil algorithm (proleptic Gregorian calendar).
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysFromCivil`.
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = (self >= 0 ? self : self - divisor + 1) / divisor
        return (quotient, self - quotient * divisor)
    }
}
