import TallyPlan
import Testing

@Suite("String formats")
struct StringFormatTests {
    @Test(arguments: [
        "2026-11-22T03:17:53Z", "2026-11-22T03:17:53.120Z", "2026-11-22t03:17:53z", "2026-11-22T04:17:53+01:00",
        "2026-11-22T03:17:53.1-05:30", "2024-02-29T00:00:00Z", "2016-12-31T23:59:60Z", "2000-02-29T12:00:00Z",
    ])
    func validDateTimes(_ text: String) {
        #expect(StringFormat.dateTime.isValid(text))
    }

    @Test(arguments: [
        "", "2026-11-22", "2026-11-22 03:17:53Z", "2026-11-22T03:17:53", "2026-13-01T00:00:00Z",
        "2025-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-11-22T24:00:00Z",
        "2026-11-22T03:60:00Z", "2026-11-22T03:17:53.Z", "2026-11-22T03:17:53+0100", "2026-11-22T03:17:53+01:00:00",
        "26-11-22T03:17:53Z", "2026-11-22T03:17:53ZZ", "２０２６-11-22T03:17:53Z",
    ])
    func invalidDateTimes(_ text: String) {
        #expect(!StringFormat.dateTime.isValid(text))
    }

    @Test(arguments: [
        "ana@example.com", "ana.maria+tag@mail.example.co.uk", "a@b.co", "x_y-z@sub-domain.example", "ünïcode@exämple.de",
    ])
    func validEmails(_ text: String) {
        #expect(StringFormat.email.isValid(text))
    }

    @Test(arguments: [
        "", "ana", "ana@", "@example.com", "ana@example", "ana@@example.com", "ana@exa mple.com", "ana maria@example.com",
        "ana@.example.com", "ana@example.com.", "ana@example..com", ".ana@example.com", "ana.@example.com",
        "an..a@example.com", "ana@-example.com", "ana@example-.com", "ana@exam_ple.com",
    ])
    func invalidEmails(_ text: String) {
        #expect(!StringFormat.email.isValid(text))
    }

    @Test(arguments: [
        "https://example.com", "https://example.com/a/b?c=d&e=f#g", "mailto:ana@example.com", "urn:isbn:0451450523",
        "tel:+1-816-555-1212", "https://example.com/%20space", "a+b.c-d:x", "https://[2001:db8::1]:8080/",
    ])
    func validURIs(_ text: String) {
        #expect(StringFormat.uri.isValid(text))
    }

    @Test(arguments: [
        "", "example.com", "/relative/path", "//example.com", "1http://example.com", "https://exa mple.com",
        "https://example.com/%2", "https://example.com/%zz", "https://example.com/ü", "ht~tp://example.com",
    ])
    func invalidURIs(_ text: String) {
        #expect(!StringFormat.uri.isValid(text))
    }

    @Test(arguments: ["8f14e45f-ceea-467a-9a36-a1b2c3d4e5f6", "8F14E45F-CEEA-467A-9A36-A1B2C3D4E5F6", "00000000-0000-0000-0000-000000000000"])
    func validUUIDs(_ text: String) {
        #expect(StringFormat.uuid.isValid(text))
    }

    @Test(arguments: [
        "", "8f14e45fceea467a9a36a1b2c3d4e5f6", "8f14e45f-ceea-467a-9a36-a1b2c3d4e5f", "8f14e45f-ceea-467a-9a36-a1b2c3d4e5f6a",
        "8f14e45g-ceea-467a-9a36-a1b2c3d4e5f6", "8f14e45f_ceea-467a-9a36-a1b2c3d4e5f6", "{8f14e45f-ceea-467a-9a36-a1b2c3d4e5f}",
    ])
    func invalidUUIDs(_ text: String) {
        #expect(!StringFormat.uuid.isValid(text))
    }
}
