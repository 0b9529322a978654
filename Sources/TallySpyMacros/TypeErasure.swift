#if SpyMacro
import SwiftSyntax

/// How the calls' static members spell a parameter's type. They live in an extension of a protocol of
/// their own, where the member's generic parameters, the spied protocol's associated types and `Self`
/// mean nothing, so a type that mentions any of them becomes `Any?`.
enum TypeErasure {
    /// Whether `type` mentions one of `names`, `Self`, or an opaque `some` type.
    static func mentions(_ type: TypeSyntax, _ names: Set<String>) -> Bool {
        type.tokens(viewMode: .sourceAccurate).contains { token in
            switch token.tokenKind {
            case .identifier(let name): return names.contains(CallName.unbackticked(name))
            case .keyword(.Self), .keyword(.some): return true
            default: return false
            }
        }
    }

    /// The type without `inout`, ownership specifiers or attributes: what a static member's parameter
    /// takes.
    static func plain(_ type: TypeSyntax) -> String {
        if let attributed = type.as(AttributedTypeSyntax.self) {
            return attributed.baseType.trimmedDescription
        }
        return type.trimmedDescription
    }
}
#endif
