#if SpyMacro
import Foundation
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import TallySpyMacros
import Testing

extension SpyMacroExpansionTests {
    /// The spies SpyConcurrencyTests uses without the SpyMacro trait (ThreadSanitizer's step in .ci/run
    /// leaves swift-syntax out of its instrumented build) are what `@Spy` generates from the protocols in
    /// Tests/TallySpyTests/Fixtures/StressSpies.swift, kept in StressSpies+Expanded.swift.
    ///
    /// `TALLY_RECORD_EXPANSION=1 swift test --enable-all-traits --filter theStressSpies` rewrites that file.
    @Test func theStressSpiesWithoutTheTraitAreWhatSpyGenerates() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TallySpyTests/Fixtures")
        let input = try String(contentsOf: fixtures.appendingPathComponent("StressSpies.swift"), encoding: .utf8)
        let expandedFile = fixtures.appendingPathComponent("StressSpies+Expanded.swift")
        let expected = try #require(Self.expandedStressSpies(from: input))
        if ProcessInfo.processInfo.environment["TALLY_RECORD_EXPANSION"] == "1" {
            try expected.write(to: expandedFile, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: expandedFile, encoding: .utf8)
        #expect(
            committed == expected,
            """
            StressSpies+Expanded.swift is not what @Spy now generates from StressSpies.swift: run \
            TALLY_RECORD_EXPANSION=1 swift test --enable-all-traits --filter theStressSpies and commit the file
            """)
    }

    /// StressSpies.swift's declarations (after its `import` and comment lines, before `#endif`), expanded by
    /// `@Spy` and then by the `_SpyCalls` attribute it writes, in a file that compiles only without the trait.
    static func expandedStressSpies(from input: String) -> String? {
        let lines = input.split(separator: "\n", omittingEmptySubsequences: false)
        guard let end = lines.lastIndex(of: "#endif"),
            let start = lines.firstIndex(where: { $0.hasPrefix("///") || $0.hasPrefix("@") }), start < end
        else { return nil }
        let declarations = lines[start..<end].joined(separator: "\n")
        let spies = Parser.parse(source: declarations)
            .expand(
                macros: ["Spy": SpyMacro.self], contextGenerator: { _ in BasicMacroExpansionContext() },
                indentationWidth: .spaces(4)
            )
            .description
            .replacingOccurrences(of: "@TallySpy._SpyCalls(", with: "@_SpyCalls(")
        let calls = Parser.parse(source: spies)
            .expand(
                macros: ["_SpyCalls": SpyCallsMacro.self], contextGenerator: { _ in BasicMacroExpansionContext() },
                indentationWidth: .spaces(4)
            )
            .description
        return """
            // swift-format-ignore-file
            // Generated: @Spy's expansion of StressSpies.swift, for builds without the SpyMacro trait. Do not edit:
            // `TALLY_RECORD_EXPANSION=1 swift test --enable-all-traits --filter theStressSpies` rewrites it, and
            // SpyMacroExpansionTests.theStressSpiesWithoutTheTraitAreWhatSpyGenerates fails while it is stale.
            #if !SpyMacro
            import TallySpy

            \(calls.trimmingCharacters(in: .whitespacesAndNewlines))
            #endif

            """
    }
}
#endif
