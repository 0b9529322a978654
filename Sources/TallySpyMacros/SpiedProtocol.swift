#if SpyMacro
import SwiftDiagnostics
import SwiftSyntax

/// A protocol `@Spy` is attached to, read into what the generator needs.
struct SpiedProtocol {
    /// A protocol's member, or an `#if` around some: the generated code keeps the same `#if`s.
    indirect enum Member {
        case requirement(Requirement)
        case conditional([Clause])
    }

    /// One clause of an `#if`: `#if DEBUG`, `#elseif os(iOS)`, `#else`.
    struct Clause {
        var keyword: String
        var condition: String?
        var members: [Member]
    }

    struct AssociatedType {
        var name: String
        var defaultType: String?
        var node: Syntax
    }

    var name: String
    /// `public`, `package`, `fileprivate` or nil for internal: the spy's access.
    var access: String?
    /// Whether the protocol refines `Actor`: the spy is then an actor.
    var isActor: Bool
    /// The names in the inheritance clause, compositions flattened: `Sendable`, `Parent`.
    var inherited: [String]
    /// Inherited protocols whose requirements this one restates (`restating:`).
    var restated: [String]
    var associatedTypes: [AssociatedType]
    /// The concrete types named in `associatedTypes:`, by associated type.
    var concreteTypes: [(name: String, type: String)]
    /// Associated types named in `associatedTypes:` with a value that is not a type: already reported.
    var attemptedAssociatedTypes: Set<String>
    var members: [Member]

    /// Every requirement, `#if`s flattened, in declaration order.
    var requirements: [Requirement] {
        func flatten(_ members: [Member]) -> [Requirement] {
            members.flatMap { member -> [Requirement] in
                switch member {
                case .requirement(let requirement): return [requirement]
                case .conditional(let clauses): return clauses.flatMap { flatten($0.members) }
                }
            }
        }
        return flatten(members)
    }

    /// The protocols, from the standard library, whose requirements the spy either gets for free or
    /// implements itself: they need no `@Spy`.
    static let standardProtocols: Set<String> = [
        "Sendable", "AnyObject", "Actor", "SendableMetatype", "Equatable", "Hashable", "Identifiable",
        "CustomStringConvertible", "CustomDebugStringConvertible", "Error",
    ]

    /// The inherited protocols that carry `@Spy` themselves: the spy's calls include theirs.
    var spiedParents: [String] {
        inherited.filter { !Self.standardProtocols.contains($0) && !restated.contains($0) }
    }

    /// The names of the protocol's associated types, and of any named in `associatedTypes:` (an inherited
    /// protocol's): the calls' static members erase types that mention them.
    var associatedTypeNames: Set<String> {
        Set(associatedTypes.map(\.name)).union(concreteTypes.map(\.name))
    }
}

extension SpiedProtocol {
    /// Reads `declaration` and the attribute's arguments; problems go to `diagnostics`.
    init(_ declaration: ProtocolDeclSyntax, attribute: AttributeSyntax, diagnostics: inout [Diagnostic]) {
        name = declaration.name.text
        access =
            declaration.modifiers.lazy.compactMap { modifier -> String? in
                switch modifier.name.tokenKind {
                case .keyword(.public), .keyword(.open): return "public"
                case .keyword(.package): return "package"
                case .keyword(.private), .keyword(.fileprivate): return "fileprivate"
                default: return nil
                }
            }.first
        inherited = declaration.inheritanceClause?.inheritedTypes.flatMap { Self.names(in: $0.type) } ?? []
        isActor = inherited.contains("Actor")
        let arguments = SpyArguments(attribute, diagnostics: &diagnostics)
        restated = arguments.restated
        concreteTypes = arguments.concreteTypes
        attemptedAssociatedTypes = arguments.attemptedAssociatedTypes
        associatedTypes = []
        members = []
        var associatedTypes: [AssociatedType] = []
        members = Self.members(of: declaration.memberBlock.members, associatedTypes: &associatedTypes)
        self.associatedTypes = associatedTypes
        for member in declaration.memberBlock.members {
            Self.checkSupported(member.decl, diagnostics: &diagnostics)
        }
        for attribute in declaration.attributes {
            if case .attribute(let attribute) = attribute, attribute.attributeName.trimmedDescription == "objc" {
                diagnostics.append(SpyDiagnostic.objcProtocol.diagnose(at: attribute, removing: Syntax(attribute)))
            }
        }
    }

    /// `A & B` -> `[A, B]`; `any A`, `Module.A` -> `A`'s last component.
    static func names(in type: TypeSyntax) -> [String] {
        if let composition = type.as(CompositionTypeSyntax.self) {
            return composition.elements.flatMap { names(in: $0.type) }
        }
        if let member = type.as(MemberTypeSyntax.self) { return [member.name.text] }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return [identifier.name.text] }
        if type.is(ClassRestrictionTypeSyntax.self) { return ["AnyObject"] }
        return [type.trimmedDescription]
    }

    private static func members(
        of list: MemberBlockItemListSyntax, associatedTypes: inout [AssociatedType]
    ) -> [Member] {
        list.compactMap { item in member(item.decl, associatedTypes: &associatedTypes) }
    }

    private static func member(_ decl: DeclSyntax, associatedTypes: inout [AssociatedType]) -> Member? {
        if let ifConfig = decl.as(IfConfigDeclSyntax.self) {
            let clauses = ifConfig.clauses.map { clause -> Clause in
                var members: [Member] = []
                if case .decls(let decls) = clause.elements {
                    members = decls.compactMap { member($0.decl, associatedTypes: &associatedTypes) }
                }
                return Clause(
                    keyword: clause.poundKeyword.text, condition: clause.condition?.trimmedDescription,
                    members: members)
            }
            return .conditional(clauses)
        }
        if let associated = decl.as(AssociatedTypeDeclSyntax.self) {
            associatedTypes.append(
                AssociatedType(
                    name: associated.name.text, defaultType: associated.initializer?.value.trimmedDescription,
                    node: Syntax(associated)))
            return nil
        }
        return Requirement(decl).map(Member.requirement)
    }

    /// Requirements `@Spy` cannot implement: each gets a diagnostic with a fix-it.
    private static func checkSupported(_ decl: DeclSyntax, diagnostics: inout [Diagnostic]) {
        if let ifConfig = decl.as(IfConfigDeclSyntax.self) {
            for clause in ifConfig.clauses {
                if case .decls(let decls) = clause.elements {
                    for member in decls { checkSupported(member.decl, diagnostics: &diagnostics) }
                }
            }
            return
        }
        let modifiers = decl.asProtocol((any WithModifiersSyntax).self)?.modifiers ?? []
        for modifier in modifiers where modifier.name.tokenKind == .keyword(.optional) {
            diagnostics.append(SpyDiagnostic.optionalRequirement.diagnose(at: modifier, removing: Syntax(modifier)))
        }
    }
}
#endif
