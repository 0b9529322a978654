#if SpyMacro
import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that expands `@Spy`.
@main
struct TallySpyPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [SpyMacro.self, SpyCallsMacro.self]
}
#else
/// Without the SpyMacro trait there is no swift-syntax and no macro: an empty plugin that is never loaded.
@main
enum TallySpyPlugin {
    static func main() {}
}
#endif
