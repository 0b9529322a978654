#if SpyMacro
import SwiftSyntax

/// One requirement of a spied protocol, as the generator needs it.
struct Requirement {
    enum Kind {
        case method(name: String)
        case property(name: String, hasSetter: Bool)
        case `subscript`(hasSetter: Bool)
        case initializer
    }

    /// How a member may throw.
    enum Throwing: Equatable {
        case none
        case untyped
        /// `throws(E)`, with `E`'s source.
        case typed(String)
        case `rethrows`
    }

    var kind: Kind
    var isStatic: Bool
    var parameters: [Parameter]
    /// The return type's source, nil for `Void` (a method without `->`, a setter).
    var returnType: String?
    var isAsync: Bool
    var throwing: Throwing
    /// The effects of a property's or subscript's getter: `get async throws`.
    var getterEffects: String
    /// Attributes and modifiers copied onto the implementation: `@MainActor`, `nonisolated`,
    /// `@discardableResult`.
    var attributes: [String]
    var modifiers: [String]
    /// `<T: Decodable>` and `where T: Sendable`, as written.
    var genericClause: String
    var whereClause: String
    /// The names of the member's generic parameters, whose types the calls' static members erase.
    var genericNames: Set<String>
    /// The requirement's syntax, where diagnostics point.
    var node: Syntax
    /// `?` or `!` for a failable initializer.
    var optionalMark = ""
}

/// One parameter of a method, initializer or subscript.
struct Parameter {
    /// The argument label, or nil for `_`.
    var label: String?
    /// The name the implementation refers to it by.
    var name: String
    /// The type as written, `inout` and attributes included: the implementation's signature uses it.
    var type: TypeSyntax
    var isVariadic: Bool
    /// `(Int) -> Void`, `@escaping (Int) -> Void`: calls leave it out and record `<closure>`.
    var isClosure: Bool
    /// A closure type without `@escaping` (and not optional): the implementation makes it escapable.
    var isNonEscapingClosure: Bool
    /// `(() -> Void)?`: calls take it as it is and record `<closure>` or `nil`.
    var isOptionalClosure: Bool
    /// A closure that can throw: a `rethrows` member rethrows from the first one.
    var isThrowingClosure: Bool
    var isAsyncClosure: Bool
    /// `inout`: the implementation passes a `SpyInout` box and writes back what the stub left in it.
    var isInout = false
    /// `borrowing` or `consuming`: the value may be noncopyable, so it is recorded through
    /// `SpyState.borrowed(_:)`.
    var hasOwnership = false

    /// `Self` or `Self?`: another spy, recorded by identity (its dump would be a whole spy).
    var isSelf: Bool {
        ["Self", "Self?"].contains(TypeErasure.plain(type))
    }
}

extension Requirement {
    /// The name the requirement is declared with: `fetch`, `name`, `subscript`, `init`.
    var declaredName: String {
        switch kind {
        case .method(let name): return name
        case .property(let name, _): return name
        case .subscript: return "subscript"
        case .initializer: return "init"
        }
    }

    var hasSetter: Bool {
        switch kind {
        case .property(_, let hasSetter), .subscript(let hasSetter): return hasSetter
        case .method, .initializer: return false
        }
    }
}
#endif
