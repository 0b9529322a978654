#if SpyMacro
/// The static members of `<Protocol>SpyCalls`: for each recorded name, its call with any arguments
/// (`static var fetch: Self`) and, when it has arguments, its call with given ones
/// (`static func fetch(id: Int) -> Self`).
extension SpyGenerator {
    /// The members for `members`, `#if`s kept. Members outside any `#if` come first, so that one inside an
    /// `#if` that repeats them is left out there; `seen` holds the signatures written so far.
    func callMembers(_ members: [SpiedProtocol.Member], seen: inout Set<String>) -> String {
        var lines: [String] = []
        for case .requirement(let requirement) in members {
            for call in CallName.of(requirement, associatedTypes: spied.associatedTypeNames) {
                lines += callMembers(for: call, seen: &seen)
            }
        }
        for case .conditional(let clauses) in members {
            for clause in clauses {
                lines.append(clause.keyword + (clause.condition.map { " " + $0 } ?? ""))
                var clauseSeen = seen
                let inner = callMembers(clause.members, seen: &clauseSeen)
                if !inner.isEmpty { lines.append(inner) }
            }
            lines.append("#endif")
        }
        return lines.joined(separator: "\n")
    }

    private func callMembers(for call: CallName, seen: inout Set<String>) -> [String] {
        var lines: [String] = []
        let name = naming.name(of: call)
        if seen.insert("var \(name)").inserted {
            let value =
                call.isPlainGetter
                ? "Self(\(quoted(call.recorded)), arguments: [])"
                : "Self(.call(\(quoted(call.recorded))))"
            let what = call.isPlainGetter ? "" : " with any arguments"
            lines.append(
                """
                /// A call to `\(call.recorded)`\(what).
                \(access)static var \(SwiftKeywords.escaped(name)): Self { \(value) }
                """)
        }
        let taken = call.arguments.filter { !$0.isClosure }
        guard !taken.isEmpty else { return lines }
        let signature = taken.map { "\($0.label ?? "_"):\($0.callType)\($0.isVariadic ? "..." : "")" }
        guard seen.insert("func \(call.base)(\(signature.joined(separator: ",")))").inserted else { return lines }
        let parameters = taken.map { argument in
            "\(SpyGenerator.names(label: argument.label, name: argument.name)): "
                + (argument.hasOwnership ? "borrowing " : "") + argument.callType
                + (argument.isVariadic ? "..." : "")
        }
        let values = call.arguments.enumerated().map { index, argument -> String in
            if argument.isClosure { return "TallyTesting.CallRecorder.Argument.closure" }
            // A setter's value compares as the spy records it: a class instance by identity.
            if call.role == .setter, index == call.arguments.count - 1 {
                return "TallyTesting.CallRecorder.Argument.byIdentity(\(argument.name))"
            }
            if argument.isOptionalClosure { return "TallyTesting.CallRecorder.Argument.closure(\(argument.name))" }
            if argument.hasOwnership { return "TallySpy.SpyState.borrowed(\(argument.name))" }
            if argument.isSelf { return "TallyTesting.CallRecorder.Argument.byIdentity(\(argument.name))" }
            return argument.name
        }
        lines.append(
            """
            /// A call to `\(call.recorded)` with these arguments.
            \(access)static func \(SwiftKeywords.escaped(call.base))(\(parameters.joined(separator: ", "))) -> Self {
                Self(.call(\(quoted(call.recorded)), with: \(values.joined(separator: ", "))))
            }
            """)
        return lines
    }

    /// A Swift string literal for `text`.
    func quoted(_ text: String) -> String {
        "\"" + text.replacingBackslashesAndQuotes() + "\""
    }
}

extension String {
    func replacingBackslashesAndQuotes() -> String {
        var result = ""
        for character in self {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            default: result.append(character)
            }
        }
        return result
    }
}
#endif
