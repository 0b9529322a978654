import TallyPlan
import Testing

/// Each format against its RFC's grammar, with the edge cases where validators differ.
@Suite("String formats")
struct StringFormatTests {
    static let valid: [(StringFormat, String)] = [
        // RFC 3339 date-time: T and Z in either case, fractions, offsets, leap seconds at 23:59 UTC only.
        (.dateTime, "2026-11-22T03:17:53Z"), (.dateTime, "2026-11-22T03:17:53.120Z"),
        (.dateTime, "2026-11-22t03:17:53z"),
        (.dateTime, "2026-11-22T04:17:53+01:00"), (.dateTime, "2026-11-22T03:17:53.1-05:30"),
        (.dateTime, "2024-02-29T00:00:00Z"), (.dateTime, "2000-02-29T12:00:00Z"), (.dateTime, "2016-12-31T23:59:60Z"),
        (.dateTime, "1998-12-31T15:59:60.123-08:00"), (.dateTime, "0000-01-01T00:00:00Z"),
        (.date, "2026-11-22"), (.date, "2024-02-29"), (.date, "0000-01-01"),
        (.time, "03:17:53Z"), (.time, "03:17:53z"), (.time, "04:17:53.5+01:00"), (.time, "23:59:60Z"),
        (.time, "01:29:60+01:30"), (.time, "15:59:60-08:00"),
        // RFC 5321 Mailbox: one label is a domain; quoted local parts; address literals.
        (.email, "ana@example.com"), (.email, "ana.maria+tag@mail.example.co.uk"), (.email, "a@b.co"),
        (.email, "x_y-z@sub-domain.example"), (.email, "user@localhost"), (.email, "ana@example"),
        (.email, #""ana maria"@example.com"#), (.email, #""a..b"@example.com"#), (.email, #""a@b"@example.com"#),
        (.email, #""q\"uote"@example.com"#), (.email, "te~st@example.com"), (.email, "~test@example.com"),
        (.email, "joe@[127.0.0.1]"), (.email, "joe@[IPv6:::1]"), (.email, "joe@[ipv6:2001:db8::1]"),
        (.email, String(repeating: "a", count: 64) + "@example.com"),
        // RFC 1123 host names.
        (.hostname, "example.com"), (.hostname, "localhost"), (.hostname, "1host"),
        (.hostname, "xn--4gbwdl.xn--wgbh1c"),
        (.hostname, String(repeating: "a", count: 63) + ".com"), (.hostname, "a.b-c.d"),
        (.ipv4, "0.0.0.0"), (.ipv4, "192.168.0.1"), (.ipv4, "255.255.255.255"),
        (.ipv6, "::"), (.ipv6, "::1"), (.ipv6, "1:2:3:4:5:6:7:8"), (.ipv6, "1:2:3:4:5:6:7::"),
        (.ipv6, "::1:2:3:4:5:6:7"),
        (.ipv6, "::ffff:1.2.3.4"), (.ipv6, "1:2:3:4:5:6:1.2.3.4"), (.ipv6, "2001:DB8::8a2e:370:7334"),
        // RFC 3986 URI and URI-reference.
        (.uri, "https://example.com"), (.uri, "https://example.com/a/b?c=d&e=f#g"), (.uri, "mailto:ana@example.com"),
        (.uri, "urn:isbn:0451450523"), (.uri, "tel:+1-816-555-1212"), (.uri, "https://example.com/%20space"),
        (.uri, "a+b.c-d:x"), (.uri, "https://[2001:db8::1]:8080/"), (.uri, "http://a:80/"), (.uri, "file:///etc/hosts"),
        (.uri, "a:"), (.uri, "http://[v1.x]/"), (.uri, "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com"),
        (.uriReference, "../a?b#c"), (.uriReference, ""), (.uriReference, "//example.com/x"), (.uriReference, "a/b:c"),
        (.uriReference, "https://example.com"), (.uriReference, "#fragment"), (.uriReference, "?query"),
        (.uuid, "8f14e45f-ceea-467a-9a36-a1b2c3d4e5f6"), (.uuid, "8F14E45F-CEEA-467A-9A36-A1B2C3D4E5F6"),
        (.uuid, "00000000-0000-0000-0000-000000000000"),
        (.jsonPointer, ""), (.jsonPointer, "/"), (.jsonPointer, "/a/b"), (.jsonPointer, "/a~0b/c~1d"),
        (.jsonPointer, "/ /é"),
    ]

    static let invalid: [(StringFormat, String)] = [
        (.dateTime, ""), (.dateTime, "2026-11-22"), (.dateTime, "2026-11-22 03:17:53Z"),
        (.dateTime, "2026-11-22T03:17:53"),
        (.dateTime, "2026-13-01T00:00:00Z"), (.dateTime, "2025-02-29T00:00:00Z"), (.dateTime, "1900-02-29T00:00:00Z"),
        (.dateTime, "2026-04-31T00:00:00Z"), (.dateTime, "2026-11-22T24:00:00Z"), (.dateTime, "2026-11-22T03:60:00Z"),
        (.dateTime, "2026-11-22T03:17:53.Z"), (.dateTime, "2026-11-22T03:17:53+0100"),
        (.dateTime, "2026-11-22T03:17:53+01:00:00"), (.dateTime, "26-11-22T03:17:53Z"),
        (.dateTime, "2026-11-22T03:17:53ZZ"),
        (.dateTime, "２０２６-11-22T03:17:53Z"), (.dateTime, "1998-12-31T23:58:60Z"), (.dateTime, "1998-12-31T22:59:60Z"),
        (.dateTime, "1990-12-31T15:59:59-24:00"),
        (.date, "2026-2-22"), (.date, "2025-02-29"), (.date, "2026-11-22T"), (.date, "20261122"), (.date, "2026-11-31"),
        (.date, "２０２６-11-22"), (.date, "2026"),
        (.time, "03:17:53"), (.time, "3:17:53Z"), (.time, "22:59:60Z"), (.time, "24:00:00Z"), (.time, "12:00:00+24:00"),
        (.time, "03:17:53.Z"), (.time, "03:17Z"), (.time, ""),
        (.email, ""), (.email, "ana"), (.email, "ana@"), (.email, "@example.com"), (.email, "ana@@example.com"),
        (.email, "ana@exa mple.com"), (.email, "ana maria@example.com"), (.email, "ana@.example.com"),
        (.email, "ana@example.com."), (.email, "ana@example..com"), (.email, ".ana@example.com"),
        (.email, "ana.@example.com"), (.email, "an..a@example.com"), (.email, "ana@-example.com"),
        (.email, "ana@example-.com"), (.email, "ana@exam_ple.com"), (.email, "ünïcode@exämple.de"),
        (.email, "joe@[127.0.0.300]"), (.email, "joe@[IPv6:::g]"), (.email, #""unterminated@example.com"#),
        (.email, String(repeating: "a", count: 65) + "@example.com"),
        (.hostname, ""), (.hostname, "."), (.hostname, "example.com."), (.hostname, "-a.com"), (.hostname, "a-.com"),
        (.hostname, "a_b.com"), (.hostname, "a..b"), (.hostname, String(repeating: "a", count: 64) + ".com"),
        (.hostname, Array(repeating: String(repeating: "a", count: 63), count: 4).joined(separator: ".")),
        (.hostname, "ex ample.com"), (.hostname, "exämple.com"),
        (.ipv4, "256.1.1.1"), (.ipv4, "01.2.3.4"), (.ipv4, "1.2.3"), (.ipv4, "1.2.3.4.5"), (.ipv4, "1.2.3.4 "),
        (.ipv4, ""),
        (.ipv4, "1..2.3"), (.ipv4, "१.२.३.४"), (.ipv4, "1.2.3.-4"),
        (.ipv6, ""), (.ipv6, "1:2:3:4:5:6:7:8:9"), (.ipv6, "12345::"), (.ipv6, "fe80::a%eth1"),
        (.ipv6, "::ffff:01.2.3.4"),
        (.ipv6, "1::2::3"), (.ipv6, ":1::"), (.ipv6, "1:2:3:4:5:6:7:1.2.3.4"), (.ipv6, "1:2:3:4:5:6:7"), (.ipv6, ":::"),
        (.ipv6, "1:"), (.ipv6, "g::"), (.ipv6, "::1.2.3.4:5"),
        (.uri, ""), (.uri, "example.com"), (.uri, "/relative/path"), (.uri, "//example.com"),
        (.uri, "1http://example.com"),
        (.uri, "https://exa mple.com"), (.uri, "https://example.com/%2"), (.uri, "https://example.com/%zz"),
        (.uri, "https://example.com/ü"), (.uri, "ht~tp://example.com"), (.uri, "http://a:b:c/"),
        (.uri, "https://[@example.org/x"), (.uri, "http://[1.2.3.4]/"), (.uri, "bar,baz:foo"), (.uri, "http://a#b#c"),
        (.uriReference, #"\\WINDOWS\fileshare"#), (.uriReference, "a:b c"), (.uriReference, "a b"),
        (.uriReference, "%zz"),
        (.uriReference, ":x"),
        (.uuid, ""), (.uuid, "8f14e45fceea467a9a36a1b2c3d4e5f6"), (.uuid, "8f14e45f-ceea-467a-9a36-a1b2c3d4e5f"),
        (.uuid, "8f14e45f-ceea-467a-9a36-a1b2c3d4e5f6a"), (.uuid, "8f14e45g-ceea-467a-9a36-a1b2c3d4e5f6"),
        (.uuid, "8f14e45f_ceea-467a-9a36-a1b2c3d4e5f6"), (.uuid, "{8f14e45f-ceea-467a-9a36-a1b2c3d4e5f}"),
        (.uuid, "8f14e45f-ceea-467a-9a36-a1b2c3d4-5f6"),
        (.jsonPointer, "a"), (.jsonPointer, "/a~"), (.jsonPointer, "/a~2"),
    ]

    @Test(arguments: valid)
    func acceptsValidValues(_ format: StringFormat, _ text: String) {
        #expect(format.isValid(text), "\(format.rawValue): \(text)")
    }

    @Test(arguments: invalid)
    func refusesInvalidValues(_ format: StringFormat, _ text: String) {
        #expect(!format.isValid(text), "\(format.rawValue): \(text)")
    }

    @Test func everyFormatIsTested() {
        let tested = Set(Self.valid.map(\.0)).intersection(Self.invalid.map(\.0))
        #expect(tested == Set(StringFormat.allCases))
    }

    @Test func hostnamesMayHave253CharactersNotMore() {
        let label = String(repeating: "a", count: 63)
        let longest = [label, label, label, String(repeating: "a", count: 61)].joined(separator: ".")
        #expect(longest.count == 253)
        #expect(StringFormat.hostname.isValid(longest))
        #expect(!StringFormat.hostname.isValid(longest + "a"))
    }
}
