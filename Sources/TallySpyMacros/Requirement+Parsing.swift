#if SpyMacro
import SwiftSyntax

extension Requirement {
    /// Reads a function, property, subscript or initializer requirement; nil for anything else.
    init?(_ decl: DeclSyntax) {
        if let function = decl.as(FunctionDeclSyntax.self) {
            self.init(function)
        } else if let variable = decl.as(VariableDeclSyntax.self) {
            self.init(variable)
        } else if let subscriptDecl = decl.as(SubscriptDeclSyntax.self) {
            self.init(subscriptDecl)
        } else if let initializer = decl.as(InitializerDeclSyntax.self) {
            self.init(initializer)
        } else {
            return nil
        }
    }

    private init(_ function: FunctionDeclSyntax) {
        let generics = Self.genericNames(function.genericParameterClause)
        // An operator's parameters have names but never argument labels.
        var parameters = Self.parameters(function.signature.parameterClause.parameters, isSubscript: false)
        if CallName.isOperator(function.name.text) {
            for index in parameters.indices { parameters[index].label = nil }
        }
        self.init(
            kind: .method(name: function.name.text),
            isStatic: Self.isStatic(function.modifiers),
            parameters: parameters,
            returnType: function.signature.returnClause?.type.trimmedDescription,
            isAsync: function.signature.effectSpecifiers?.asyncSpecifier != nil,
            throwing: Self.throwing(function.signature.effectSpecifiers?.throwsClause),
            getterEffects: "",
            attributes: Self.attributes(function.attributes),
            modifiers: Self.modifiers(function.modifiers),
            genericClause: function.genericParameterClause?.trimmedDescription ?? "",
            whereClause: function.genericWhereClause?.trimmedDescription ?? "",
            genericNames: generics,
            node: Syntax(function))
    }

    private init?(_ variable: VariableDeclSyntax) {
        guard let binding = variable.bindings.first,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let type = binding.typeAnnotation?.type
        else { return nil }
        let accessors = Self.accessors(binding.accessorBlock)
        self.init(
            kind: .property(name: name, hasSetter: accessors.hasSetter),
            isStatic: Self.isStatic(variable.modifiers),
            parameters: [],
            returnType: type.trimmedDescription,
            isAsync: accessors.isAsync,
            throwing: accessors.throwing,
            getterEffects: accessors.effects,
            attributes: Self.attributes(variable.attributes),
            modifiers: Self.modifiers(variable.modifiers),
            genericClause: "",
            whereClause: "",
            genericNames: [],
            node: Syntax(variable))
    }

    private init(_ subscriptDecl: SubscriptDeclSyntax) {
        let accessors = Self.accessors(subscriptDecl.accessorBlock)
        self.init(
            kind: .subscript(hasSetter: accessors.hasSetter),
            isStatic: Self.isStatic(subscriptDecl.modifiers),
            parameters: Self.parameters(subscriptDecl.parameterClause.parameters, isSubscript: true),
            returnType: subscriptDecl.returnClause.type.trimmedDescription,
            isAsync: accessors.isAsync,
            throwing: accessors.throwing,
            getterEffects: accessors.effects,
            attributes: Self.attributes(subscriptDecl.attributes),
            modifiers: Self.modifiers(subscriptDecl.modifiers),
            genericClause: subscriptDecl.genericParameterClause?.trimmedDescription ?? "",
            whereClause: subscriptDecl.genericWhereClause?.trimmedDescription ?? "",
            genericNames: Self.genericNames(subscriptDecl.genericParameterClause),
            node: Syntax(subscriptDecl))
    }

    private init(_ initializer: InitializerDeclSyntax) {
        self.init(
            kind: .initializer,
            isStatic: true,
            parameters: Self.parameters(initializer.signature.parameterClause.parameters, isSubscript: false),
            returnType: nil,
            isAsync: initializer.signature.effectSpecifiers?.asyncSpecifier != nil,
            throwing: Self.throwing(initializer.signature.effectSpecifiers?.throwsClause),
            getterEffects: "",
            attributes: Self.attributes(initializer.attributes),
            modifiers: Self.modifiers(initializer.modifiers),
            genericClause: initializer.genericParameterClause?.trimmedDescription ?? "",
            whereClause: initializer.genericWhereClause?.trimmedDescription ?? "",
            genericNames: Self.genericNames(initializer.genericParameterClause),
            node: Syntax(initializer))
        optionalMark = initializer.optionalMark?.text ?? ""
    }

    // MARK: - Pieces

    private static func isStatic(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }

    /// The modifiers the implementation keeps: `nonisolated`, `static`. `mutating` and `nonmutating` go
    /// (a spy is a class), and so do ownership modifiers of the method's `self`.
    private static func modifiers(_ modifiers: DeclModifierListSyntax) -> [String] {
        modifiers.compactMap { modifier in
            switch modifier.name.tokenKind {
            case .keyword(.static), .keyword(.class): return "static"
            case .keyword(.nonisolated): return modifier.trimmedDescription
            default: return nil
            }
        }
    }

    private static func attributes(_ attributes: AttributeListSyntax) -> [String] {
        attributes.map(\.trimmedDescription)
    }

    private static func throwing(_ clause: ThrowsClauseSyntax?) -> Throwing {
        guard let clause else { return .none }
        if clause.throwsSpecifier.tokenKind == .keyword(.rethrows) { return .rethrows }
        guard let type = clause.type?.trimmedDescription else { return .untyped }
        switch type {
        case "Never", "Swift.Never": return .none
        case "any Error", "Error", "any Swift.Error", "Swift.Error": return .untyped
        default: return .typed(type)
        }
    }

    private static func genericNames(_ clause: GenericParameterClauseSyntax?) -> Set<String> {
        Set(clause?.parameters.map(\.name.text) ?? [])
    }

    private struct Accessors {
        var hasSetter = false
        var isAsync = false
        var throwing = Throwing.none
        /// `async throws`, as written on `get`.
        var effects = ""
    }

    private static func accessors(_ block: AccessorBlockSyntax?) -> Accessors {
        var result = Accessors()
        guard case .accessors(let list) = block?.accessors else { return result }
        for accessor in list {
            switch accessor.accessorSpecifier.tokenKind {
            case .keyword(.set): result.hasSetter = true
            case .keyword(.get):
                result.isAsync = accessor.effectSpecifiers?.asyncSpecifier != nil
                result.throwing = throwing(accessor.effectSpecifiers?.throwsClause)
                result.effects = accessor.effectSpecifiers?.trimmedDescription ?? ""
            default: break
            }
        }
        return result
    }

    /// The parameters, each with a name the implementation can use (`_` and missing names become
    /// `argument0`, `argument1`...).
    private static func parameters(_ list: FunctionParameterListSyntax, isSubscript: Bool) -> [Parameter] {
        list.enumerated().map { index, parameter in
            let first = parameter.firstName.text
            let second = parameter.secondName?.text
            let label: String?
            let name: String
            if isSubscript {
                // A subscript's single name is a parameter name, not a label.
                label = second == nil ? nil : (first == "_" ? nil : first)
                name = second ?? first
            } else {
                label = first == "_" ? nil : first
                name = second ?? first
            }
            let closure = ClosureShape(parameter.type)
            let specifiers =
                parameter.type.as(AttributedTypeSyntax.self)?.specifiers.tokens(viewMode: .sourceAccurate)
                .map(\.tokenKind) ?? []
            var result = Parameter(
                label: label,
                name: name == "_" ? "argument\(index)" : name,
                type: parameter.type,
                isVariadic: parameter.ellipsis != nil,
                isClosure: closure.isClosure && !closure.isOptional,
                isNonEscapingClosure: closure.isClosure && !closure.isOptional && !closure.isEscaping,
                isOptionalClosure: closure.isClosure && closure.isOptional,
                isThrowingClosure: closure.isClosure && !closure.isOptional && closure.isThrowing,
                isAsyncClosure: closure.isAsync)
            result.isInout = specifiers.contains(.keyword(.inout))
            result.hasOwnership = specifiers.contains(.keyword(.borrowing)) || specifiers.contains(.keyword(.consuming))
            return result
        }
    }
}

/// What a parameter's type says about closures: `@escaping @Sendable (Int) throws -> Void`,
/// `((Int) -> Void)?`.
struct ClosureShape {
    var isClosure = false
    var isOptional = false
    var isEscaping = false
    var isThrowing = false
    var isAsync = false

    init(_ type: TypeSyntax) {
        var type = type
        while true {
            if let attributed = type.as(AttributedTypeSyntax.self) {
                for attribute in attributed.attributes {
                    if case .attribute(let attribute) = attribute,
                        attribute.attributeName.trimmedDescription == "escaping"
                    {
                        isEscaping = true
                    }
                }
                type = attributed.baseType
            } else if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1,
                let element = tuple.elements.first, element.firstName == nil
            {
                type = element.type
            } else if let optional = type.as(OptionalTypeSyntax.self) {
                isOptional = true
                type = optional.wrappedType
            } else if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
                isOptional = true
                type = optional.wrappedType
            } else {
                break
            }
        }
        guard let function = type.as(FunctionTypeSyntax.self) else { return }
        isClosure = true
        isThrowing = function.effectSpecifiers?.throwsClause != nil
        isAsync = function.effectSpecifiers?.asyncSpecifier != nil
    }
}
#endif
