#if SpyMacro
import SwiftSyntax

/// The implementation of each requirement, in an extension of the protocol constrained to `SpyProtocol`:
/// one call into the spy's `SpyState`, which records the call and answers it.
extension SpyGenerator {
    func implementations(_ members: [SpiedProtocol.Member]) -> String {
        var blocks: [String] = []
        for member in members {
            switch member {
            case .requirement(let requirement):
                blocks.append(implementation(of: requirement))
            case .conditional(let clauses):
                var lines: [String] = []
                for clause in clauses {
                    lines.append(clause.keyword + (clause.condition.map { " " + $0 } ?? ""))
                    let inner = implementations(clause.members)
                    if !inner.isEmpty { lines.append(inner) }
                }
                lines.append("#endif")
                blocks.append(lines.joined(separator: "\n"))
            }
        }
        return blocks.joined(separator: "\n\n")
    }

    private func implementation(of requirement: Requirement) -> String {
        let calls = CallName.of(requirement, associatedTypes: spied.associatedTypeNames)
        let head = (requirement.attributes + [access.trimmed] + requirement.modifiers)
            .filter { !$0.isEmpty }.joined(separator: " ")
        let prefix = head.isEmpty ? "" : head + " "
        switch requirement.kind {
        case .method(let name):
            let signature = "\(name)\(requirement.genericClause)(\(parameterList(requirement)))"
            let effects = effectsText(requirement)
            let result = requirement.returnType.map { " -> \($0)" } ?? ""
            let whereClause = requirement.whereClause.isEmpty ? "" : " " + requirement.whereClause
            return """
                \(prefix)func \(signature)\(effects)\(result)\(whereClause) {
                \(body(requirement, calls[0]).indented())
                }
                """
        case .initializer:
            let whereClause = requirement.whereClause.isEmpty ? "" : " " + requirement.whereClause
            let initializerHead = (requirement.attributes + [access.trimmed] + requirement.modifiers)
                .filter { !$0.isEmpty && $0 != "static" }.joined(separator: " ")
            return """
                \(initializerHead.isEmpty ? "" : initializerHead + " ")init\(requirement.optionalMark)\(requirement.genericClause)(\(parameterList(requirement)))\
                \(effectsText(requirement))\(whereClause) {
                    self.init(mode: .strict, fileID: #fileID, filePath: #filePath, line: #line, column: #column)
                \(body(requirement, calls[0], receiver: "Self._spyInitializer(self)", assign: true).indented())
                }
                """
        case .property(let name, _):
            return """
                \(prefix)var \(name): \(requirement.returnType ?? "Void") {
                \(accessors(requirement, calls).indented())
                }
                """
        case .subscript:
            let whereClause = requirement.whereClause.isEmpty ? "" : " " + requirement.whereClause
            return """
                \(prefix)subscript\(requirement.genericClause)(\(parameterList(requirement))) -> \
                \(requirement.returnType ?? "Void")\(whereClause) {
                \(accessors(requirement, calls).indented())
                }
                """
        }
    }

    private func accessors(_ requirement: Requirement, _ calls: [CallName]) -> String {
        let storage = requirement.hasSetter ? calls[0].recorded : nil
        let getter = body(requirement, calls[0], storedAs: storage, reading: !requirement.isSubscript)
        let effects = requirement.getterEffects.isEmpty ? "" : " " + requirement.getterEffects
        var text = "get\(effects) {\n\(getter.indented())\n}"
        if calls.count > 1, let storage {
            let setter = entry(
                receiver(requirement), "answer", calls[1], storing: storage, arguments: calls[1].arguments,
                weakly: requirement.isOptional)
            text += "\nset {\n    \(setter) as Void\n}"
        }
        return text
    }

    /// `label name: Type`, with a usable name for each parameter.
    private func parameterList(_ requirement: Requirement) -> String {
        requirement.parameters.map { parameter in
            let names = SpyGenerator.names(
                label: parameter.label, name: parameter.name, isSubscript: requirement.isSubscript)
            return "\(names): \(parameter.type.trimmedDescription)\(parameter.isVariadic ? "..." : "")"
        }.joined(separator: ", ")
    }

    private func effectsText(_ requirement: Requirement) -> String {
        var parts: [String] = []
        if requirement.isAsync { parts.append("async") }
        switch requirement.throwing {
        case .none: break
        case .untyped: parts.append("throws")
        case .typed(let type): parts.append("throws(\(type))")
        case .rethrows: parts.append("rethrows")
        }
        return parts.isEmpty ? "" : " " + parts.joined(separator: " ")
    }

    private func receiver(_ requirement: Requirement) -> String {
        requirement.isStatic ? "Self._spyStatic()" : "_spy"
    }

    /// The statements that record and answer the call: `return try await _spy.answerAsyncThrowing(...)`.
    ///
    /// Non-escaping closure parameters reach the state (and stubs) through `withoutActuallyEscaping`: a stub
    /// must call them before it returns. A `rethrows` member answers inside `result { }`, which cannot throw,
    /// then rethrows through `rethrow(_:from:_:pattern:)`, whose thrown type is the closure's.
    private func body(
        _ requirement: Requirement, _ call: CallName, storedAs storage: String? = nil, reading: Bool = false,
        receiver: String? = nil, assign: Bool = false
    ) -> String {
        let receiver = receiver ?? self.receiver(requirement)
        let introducer = inoutBoxes(requirement) + (assign ? "let _: Void = " : "return ")
        // An instance member returning `Self` answers with the spy itself when nothing else does.
        let returnsSelf = !requirement.isStatic && ["Self", "Self?"].contains(requirement.returnType ?? "")
        let isAsync = requirement.isAsync
        let nonEscaping = requirement.parameters.filter(\.isNonEscapingClosure)
        let recorded = quoted(call.recorded)
        let pattern = quoted(naming.name(of: call))
        if requirement.throwing == .rethrows, let rethrown = requirement.parameters.first(where: \.isThrowingClosure) {
            let answer = entry(
                receiver, isAsync ? "answerAsyncThrowing" : "answerThrowing", call, storedAs: storage,
                reading: reading, parameters: requirement.parameters, standIn: returnsSelf)
            let awaiting = isAsync ? "await " : ""
            var text = "\(awaiting)\(receiver).result { try \(awaiting)\(answer) }"
            for closure in nonEscaping.reversed() {
                text = "\(awaiting)withoutActuallyEscaping(\(closure.name)) { \(closure.name) in\n\(text.indented())\n}"
            }
            return """
                let result: Result<\(requirement.returnType ?? "Void"), any Error> = \(text)
                \(introducer)try \(receiver).rethrow(result, from: \(rethrown.name), \(recorded), pattern: \(pattern))
                """
        }
        var name: String
        var typedError: String?
        switch requirement.throwing {
        case .none, .rethrows: name = isAsync ? "answerAsync" : "answer"
        case .untyped: name = isAsync ? "answerAsyncThrowing" : "answerThrowing"
        case .typed(let type):
            name = isAsync ? "answerAsyncThrowing" : "answerThrowing"
            typedError = type
        }
        let throwsHere = requirement.throwing == .untyped || typedError != nil
        let marker = (throwsHere ? "try " : "") + (isAsync ? "await " : "")
        var text =
            marker
            + entry(
                receiver, name, call, storedAs: storage, reading: reading, parameters: requirement.parameters,
                throwing: typedError, standIn: returnsSelf)
        for closure in nonEscaping.reversed() {
            let effects = typedError.map { " throws(\($0))" } ?? ""
            text =
                "\(marker)withoutActuallyEscaping(\(closure.name)) { (\(closure.name))\(effects) in\n\(text.indented())\n}"
        }
        return introducer + text
    }

    /// `receiver.name("fetch(id:)", [id], pattern: "fetch")`.
    private func entry(
        _ receiver: String, _ name: String, _ call: CallName, storedAs storage: String? = nil,
        reading: Bool = false, storing: String? = nil, arguments: [CallName.Argument]? = nil,
        parameters: [Parameter] = [], weakly: Bool = false, throwing typedError: String? = nil,
        standIn: Bool = false
    ) -> String {
        let list: String
        if let arguments {
            list = "[" + arguments.map(\.name).joined(separator: ", ") + "]"
        } else {
            list = argumentList(parameters)
        }
        var text = "\(receiver).\(name)(\(quoted(call.recorded)), \(list), pattern: \(quoted(naming.name(of: call)))"
        if let storage { text += ", storedAs: \(quoted(storage))" }
        if reading { text += ", reading: true" }
        if let storing { text += ", storing: \(quoted(storing))" }
        if weakly { text += ", weakly: true" }
        if let typedError { text += ", throwing: \(typedError).self" }
        if standIn { text += ", standIn: self" }
        return text + ")"
    }

    /// `[id, TallySpy.SpyClosure(completion), _spyInout2, TallySpy.SpyState.borrowed(token)]`.
    private func argumentList(_ parameters: [Parameter]) -> String {
        let values = parameters.enumerated().map { index, parameter -> String in
            if parameter.isInout { return "_spyInout\(index)" }
            if parameter.isClosure || parameter.isOptionalClosure { return "TallySpy.SpyClosure(\(parameter.name))" }
            if parameter.hasOwnership { return "TallySpy.SpyState.borrowed(\(parameter.name))" }
            if parameter.isSelf { return "TallyTesting.CallRecorder.Argument.byIdentity(\(parameter.name))" }
            return parameter.name
        }
        return "[" + values.joined(separator: ", ") + "]"
    }

    /// For each `inout` parameter, the box the call passes instead of the value, and the write-back when
    /// the call returns (or throws, as Swift writes an `inout` argument back then too):
    ///
    /// ```swift
    /// let _spyInout0 = TallySpy.SpyInout(value)
    /// defer { value = _spyInout0.finish() }
    /// ```
    private func inoutBoxes(_ requirement: Requirement) -> String {
        requirement.parameters.enumerated().filter(\.element.isInout).map { index, parameter in
            """
            let _spyInout\(index) = TallySpy.SpyInout(\(parameter.name))
            defer { \(parameter.name) = _spyInout\(index).finish() }

            """
        }.joined()
    }
}

extension SpyGenerator {
    /// `id`, `_ message`, `named name`: a parameter's label and name, the name alone when they are the
    /// same. A subscript's parameters have no label unless one is written.
    static func names(label: String?, name: String, isSubscript: Bool = false) -> String {
        guard let label else { return isSubscript ? name : "_ \(name)" }
        return label == name && !isSubscript ? name : "\(label) \(name)"
    }
}

extension Requirement {
    var isSubscript: Bool {
        if case .subscript = kind { return true }
        return false
    }

    /// Whether the member's type is written as an optional (`T?`, `Optional<T>`): its setter holds a class
    /// instance weakly, as a delegate property does.
    var isOptional: Bool {
        guard let type = returnType?.trimmingSpaces else { return false }
        return type.hasSuffix("?") || type.hasPrefix("Optional<") || type.hasPrefix("Swift.Optional<")
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }

    var trimmed: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
#endif
