// Without `import Foundation` (and with MemberImportVisibility), `String.contains(String)` is
// _StringProcessing's, which is iOS 16 / macOS 13.
func hasPart(_ text: String, _ part: String) -> Bool {
    text.contains(part) // expect: _StringProcessing.StringProtocol.contains(_:)
}

func hasCharacter(_ text: String) -> Bool {
    text.contains("-" as Character)
}
