#if SpyMacro
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxBuilder

/// The arguments of `@Spy(associatedTypes: ["Item": User.self], restating: "AmplitudeAdapter")`.
struct SpyArguments {
    var concreteTypes: [(name: String, type: String)] = []
    /// Associated types named with a value that is not `Type.self`: reported there, not as missing.
    var attemptedAssociatedTypes: Set<String> = []
    var restated: [String] = []

    init(_ attribute: AttributeSyntax, diagnostics: inout [Diagnostic]) {
        guard case .argumentList(let arguments) = attribute.arguments else { return }
        var label: String?
        for argument in arguments {
            label = argument.label?.text ?? label
            switch label {
            case "associatedTypes":
                readAssociatedTypes(argument.expression, diagnostics: &diagnostics)
            case "restating":
                guard let literal = argument.expression.as(StringLiteralExprSyntax.self),
                    let name = literal.representedLiteralValue
                else {
                    diagnostics.append(Self.restatingNotAName(argument.expression))
                    continue
                }
                guard Self.isTypeName(name) else {
                    diagnostics.append(SpyDiagnostic.restatingNotATypeName.diagnose(at: literal, name))
                    continue
                }
                restated.append(name)
            default:
                continue
            }
        }
    }

    /// Whether `name` reads as one type and nothing else (`Base`, `Module.Base`): it is written into the spy's
    /// inheritance clause as it stands.
    static func isTypeName(_ name: String) -> Bool {
        let file = Parser.parse(source: "protocol P: \(name) {}")
        guard !file.hasError, file.statements.count == 1,
            let declaration = file.statements.first?.item.as(ProtocolDeclSyntax.self),
            let inherited = declaration.inheritanceClause?.inheritedTypes, inherited.count == 1
        else { return false }
        return inherited.first?.type.trimmedDescription == name
    }

    /// `restating: Base.self` -> `restating: "Base"`; anything else -> a placeholder name.
    private static func restatingNotAName(_ expression: ExprSyntax) -> Diagnostic {
        var name = "<#Protocol#>"
        if let access = expression.as(MemberAccessExprSyntax.self), access.declName.baseName.text == "self",
            let base = access.base
        {
            name = base.trimmedDescription
        } else if let reference = expression.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
        }
        let fixIt = FixIt(
            message: SpyDiagnostic.FixMessage(text: "Write the name as a string: \"\(name)\"", id: "restating"),
            changes: [.replace(oldNode: Syntax(expression), newNode: Syntax(ExprSyntax("\"\(raw: name)\"")))])
        return SpyDiagnostic.restatingNotAName.diagnose(at: expression, fixIts: [fixIt])
    }

    private mutating func readAssociatedTypes(_ expression: ExprSyntax, diagnostics: inout [Diagnostic]) {
        guard let dictionary = expression.as(DictionaryExprSyntax.self) else {
            let fixIt = FixIt(
                message: SpyDiagnostic.FixMessage(text: "Replace with '[:]'", id: "associatedTypes"),
                changes: [.replace(oldNode: Syntax(expression), newNode: Syntax(ExprSyntax("[:]")))])
            diagnostics.append(SpyDiagnostic.associatedTypesNotADictionary.diagnose(at: expression, fixIts: [fixIt]))
            return
        }
        guard case .elements(let elements) = dictionary.content else { return }
        for element in elements {
            guard let name = element.key.as(StringLiteralExprSyntax.self)?.representedLiteralValue else {
                diagnostics.append(SpyDiagnostic.associatedTypesNotADictionary.diagnose(at: element.key))
                continue
            }
            guard let access = element.value.as(MemberAccessExprSyntax.self), access.declName.baseName.text == "self",
                let base = access.base
            else {
                attemptedAssociatedTypes.insert(name)
                let fixed = ExprSyntax("\(element.value.trimmed).self")
                let fixIt = FixIt(
                    message: SpyDiagnostic.FixMessage(text: "Append '.self'", id: "associatedTypeSelf"),
                    changes: [.replace(oldNode: Syntax(element.value), newNode: Syntax(fixed))])
                diagnostics.append(SpyDiagnostic.associatedTypeNotAType.diagnose(at: element.value, fixIts: [fixIt]))
                continue
            }
            concreteTypes.append((name, base.trimmedDescription))
        }
    }
}
#endif
