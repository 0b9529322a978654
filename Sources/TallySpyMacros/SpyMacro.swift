#if SpyMacro
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Spy`: the spy and its calls as peers of the protocol, the implementations as an extension of it.
///
/// Both roles read the protocol the same way; only the peer role reports what it cannot handle, and
/// neither generates anything then.
public struct SpyMacro: PeerMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let protocolDecl = declaration.as(ProtocolDeclSyntax.self) else {
            context.diagnose(
                SpyDiagnostic.notAProtocol.diagnose(
                    at: node, removing: Syntax(node), fixIt: "Remove '@Spy'"))
            return []
        }
        let (spied, diagnostics) = read(protocolDecl, node)
        guard diagnostics.isEmpty else {
            diagnostics.forEach(context.diagnose)
            return []
        }
        let generator = SpyGenerator(spied)
        return [generator.spyDeclaration(), generator.callsDeclaration()]
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let protocolDecl = declaration.as(ProtocolDeclSyntax.self) else { return [] }
        let (spied, diagnostics) = read(protocolDecl, node)
        guard diagnostics.isEmpty else { return [] }
        let generator = SpyGenerator(spied)
        let body = generator.implementations(spied.members)
        let extensionDecl = DeclSyntax(
            stringLiteral: """
                extension \(type.trimmedDescription) where Self: TallySpy.SpyProtocol {\(body.isEmpty ? "" : "\n" + body.indented())
                }
                """)
        guard let result = extensionDecl.as(ExtensionDeclSyntax.self) else { return [] }
        return [result]
    }

    /// The protocol as the generator needs it, and what it cannot handle.
    static func read(_ declaration: ProtocolDeclSyntax, _ attribute: AttributeSyntax) -> (
        SpiedProtocol, [Diagnostic]
    ) {
        var diagnostics: [Diagnostic] = []
        let spied = SpiedProtocol(declaration, attribute: attribute, diagnostics: &diagnostics)
        let named = Set(spied.concreteTypes.map(\.name)).union(spied.attemptedAssociatedTypes)
        let missing = spied.associatedTypes.filter { $0.defaultType == nil && !named.contains($0.name) }
        if !missing.isEmpty {
            let fixIt = FixIt(
                message: SpyDiagnostic.FixMessage(
                    text: "Name a concrete type for \(missing.map { "'\($0.name)'" }.joined(separator: ", "))",
                    id: "associatedTypes"),
                changes: [
                    .replace(
                        oldNode: Syntax(attribute),
                        newNode: Syntax(attributeNaming(missing.map(\.name), in: attribute, spied: spied)))
                ])
            for associated in missing {
                diagnostics.append(
                    SpyDiagnostic.missingAssociatedType.diagnose(at: associated.node, associated.name, fixIts: [fixIt]))
            }
        }
        return (spied, diagnostics)
    }

    /// `@Spy(associatedTypes: ["Item": <#Item#>.self])`, keeping the types already named and `restating`.
    private static func attributeNaming(
        _ names: [String], in attribute: AttributeSyntax, spied: SpiedProtocol
    ) -> AttributeSyntax {
        let pairs =
            spied.concreteTypes.map { "\"\($0.name)\": \($0.type).self" }
            + names.map { "\"\($0)\": <#\($0)#>.self" }
        var arguments = ["associatedTypes: [\(pairs.joined(separator: ", "))]"]
        if !spied.restated.isEmpty {
            arguments.append("restating: " + spied.restated.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        let text = "@\(attribute.attributeName.trimmedDescription)(\(arguments.joined(separator: ", ")))"
        return AttributeSyntax(stringLiteral: text)
            .with(\.leadingTrivia, attribute.leadingTrivia)
            .with(\.trailingTrivia, attribute.trailingTrivia)
    }
}

/// `@_SpyCalls("...")`: the static members `@Spy` wrote for a protocol's calls, as an extension of the
/// `<Protocol>SpyCalls` protocol it is attached to.
public struct SpyCallsMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard case .argumentList(let arguments) = node.arguments,
            let literal = arguments.first?.expression.as(StringLiteralExprSyntax.self),
            let members = literal.representedLiteralValue
        else { return [] }
        let extensionDecl = DeclSyntax(
            stringLiteral: """
                extension \(type.trimmedDescription) {
                \(members.indented())
                }
                """)
        guard let result = extensionDecl.as(ExtensionDeclSyntax.self) else { return [] }
        return [result]
    }
}
#endif
