#if SpyMacro
import SwiftDiagnostics
import SwiftSyntax

/// Everything `@Spy` refuses, each with a fix-it where one exists: the macro then generates nothing rather
/// than code that does not compile.
enum SpyDiagnostic: String {
    case notAProtocol
    case missingAssociatedType
    case associatedTypeNotAType
    case associatedTypesNotADictionary
    case restatingNotAName
    case restatingNotATypeName
    case objcProtocol
    case optionalRequirement

    func message(_ detail: String = "") -> String {
        switch self {
        case .notAProtocol:
            return "@Spy can only be attached to a protocol"
        case .missingAssociatedType:
            return "@Spy needs a concrete type for the associated type '\(detail)': name it in "
                + "associatedTypes, or give the associated type a default"
        case .associatedTypeNotAType:
            return "associatedTypes needs a type here, written as 'Type.self'"
        case .associatedTypesNotADictionary:
            return "associatedTypes takes a dictionary literal: [\"Name\": Type.self]"
        case .restatingNotAName:
            return "restating takes the names of inherited protocols as string literals"
        case .restatingNotATypeName:
            return "restating takes the names of inherited protocols: '\(detail)' is not a type name"
        case .objcProtocol:
            return "@Spy cannot generate a spy for an @objc protocol (its spy would have to be an NSObject)"
        case .optionalRequirement:
            return "@Spy cannot implement optional requirements: the spy's implementation would not be used"
        }
    }

    func diagnose(at node: some SyntaxProtocol, _ detail: String = "", fixIts: [FixIt] = []) -> Diagnostic {
        Diagnostic(node: Syntax(node), message: Message(diagnostic: self, text: message(detail)), fixIts: fixIts)
    }

    /// A diagnostic whose fix-it removes `removed`.
    func diagnose(at node: some SyntaxProtocol, removing removed: Syntax, fixIt text: String? = nil) -> Diagnostic {
        let fixIt = FixIt(
            message: FixMessage(text: text ?? "Remove '\(removed.trimmedDescription)'", id: rawValue),
            changes: [
                // Keep what came before the removed node (a line break and indentation), drop the rest.
                .replace(
                    oldNode: removed,
                    newNode: Syntax(
                        TokenSyntax(.stringSegment(""), leadingTrivia: removed.leadingTrivia, presence: .present)))
            ])
        return diagnose(at: node, fixIts: [fixIt])
    }

    struct Message: DiagnosticMessage {
        let diagnostic: SpyDiagnostic
        let text: String
        var message: String { text }
        var diagnosticID: MessageID { MessageID(domain: "TallySpy", id: diagnostic.rawValue) }
        var severity: DiagnosticSeverity { .error }
    }

    struct FixMessage: FixItMessage {
        let text: String
        let id: String
        var message: String { text }
        var fixItID: MessageID { MessageID(domain: "TallySpy", id: "fix-" + id) }
    }
}
#endif
