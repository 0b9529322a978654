// More of the SDK than "Wrapping awkward SDKs" shows: "Recording calls" spies on this call too.

extension ThirdParty {
    public static func isFormCached(_ id: String) -> Bool { false }
}
