// Fuzzes the @Spy macro's reading of a protocol declaration (SpiedProtocol, Requirement+Parsing,
// SpyMacro.read) and its generator (SpyGenerator), on Swift source parsed by swift-syntax's Parser.
//
// The input is UTF-8 Swift source; the first protocol declaration in it is read as if `@Spy` were attached
// (its own `@Spy(...)` attribute when it has one).
//
// Properties:
// 1. No input crashes the reading or the generator.
// 2. The macro gives either spy code or diagnostics: diagnostics point inside the source; without them,
//    the generated declarations are produced, and when the protocol itself parsed without errors the
//    generated code parses without errors too.
import Foundation
import FuzzDriver
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
@testable import TallySpyMacrosUnderTest

/// Finds the first protocol declaration.
final class FirstProtocol: SyntaxVisitor {
    var found: ProtocolDeclSyntax?

    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        if found == nil { found = node }
        return .skipChildren
    }
}

let plainAttribute = AttributeSyntax(stringLiteral: "@Spy")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let source = String(validating: bytes, as: UTF8.self) else { return 0 }
    let file = Parser.parse(source: source)
    let finder = FirstProtocol(viewMode: .sourceAccurate)
    finder.walk(file)
    guard let declaration = finder.found else { return 0 }
    let attribute =
        declaration.attributes.lazy.compactMap { $0.as(AttributeSyntax.self) }
        .first { $0.attributeName.trimmedDescription == "Spy" } ?? plainAttribute

    let (spied, diagnostics) = SpyMacro.read(declaration, attribute)
    if !diagnostics.isEmpty {
        for diagnostic in diagnostics {
            precondition(!diagnostic.message.isEmpty, "an empty diagnostic")
            let offset = diagnostic.position.utf8Offset
            precondition(offset >= 0 && offset <= source.utf8.count, "a diagnostic outside the source: \(offset)")
        }
        return 0
    }
    let generator = SpyGenerator(spied)
    let spy = generator.spyDeclaration()
    let calls = generator.callsDeclaration()
    let implementations = generator.implementations(spied.members)
    if !declaration.hasError {
        for generated in [spy.description, calls.description, "extension P {\n\(implementations)\n}"] {
            let parsed = Parser.parse(source: generated)
            precondition(!parsed.hasError, "the spy code does not parse:\n\(generated)")
        }
    }
    return 0
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzz))
