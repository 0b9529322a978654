#if SpyMacro
import SwiftSyntax
import SwiftSyntaxBuilder

/// One thing a spy records: a method, an initializer, a property's or subscript's getter, or a setter.
/// A requirement with a setter gives two.
struct CallName {
    enum Role {
        case call
        case setter
    }

    var role: Role
    /// The name calls are recorded under, as Swift spells the member: `fetch(id:)`, `name`, `setName(_:)`,
    /// `subscript(_:)`, `setSubscript(_:newValue:)`, `init(key:)`.
    var recorded: String
    /// The name the static members of `Call` start from: `fetch`, `setName`, `subscript`, `initializer`.
    var base: String
    /// The arguments, in order, as the spy records them; a setter's new value last.
    var arguments: [Argument]
    /// Whether the member is a getter without index arguments: its call has no arguments to match.
    var isPlainGetter: Bool

    /// One recorded argument.
    struct Argument {
        var label: String?
        var name: String
        /// The type the call's static member takes: the parameter's, or `Any?` where it mentions a generic
        /// parameter, an associated type or `Self`.
        var callType: String
        var isVariadic: Bool
        /// Left out of the calls' static members, recorded as `<closure>`.
        var isClosure: Bool
        var isOptionalClosure: Bool
        /// `borrowing` or `consuming` in the requirement: the static member borrows it too, and records it
        /// through `SpyState.borrowed(_:)`, as the spy does.
        var hasOwnership = false
        /// `Self`: compared by identity, as the spy records it.
        var isSelf = false
    }
}

extension CallName {
    /// The recorded names of `requirement`: one, or two when it has a setter.
    static func of(_ requirement: Requirement, associatedTypes: Set<String>) -> [CallName] {
        let erased = associatedTypes.union(requirement.genericNames)
        let arguments = requirement.parameters.map { Argument($0, erasing: erased) }
        let labels = requirement.parameters.map(\.label)
        switch requirement.kind {
        case .method(let name):
            let base = isOperator(name) ? operatorName(name) : unbackticked(name)
            return [
                CallName(
                    role: .call, recorded: spelled(unbackticked(name), labels), base: base, arguments: arguments,
                    isPlainGetter: false)
            ]
        case .initializer:
            return [
                CallName(
                    role: .call, recorded: spelled("init", labels), base: "initializer", arguments: arguments,
                    isPlainGetter: false)
            ]
        case .property(let name, let hasSetter):
            let plain = unbackticked(name)
            var names = [CallName(role: .call, recorded: plain, base: plain, arguments: [], isPlainGetter: true)]
            if hasSetter {
                let newValue = Argument(
                    label: nil, name: "newValue", callType: setterType(requirement, erasing: erased),
                    isVariadic: false, isClosure: false, isOptionalClosure: false)
                let setter = "set" + plain.prefix(1).uppercased() + plain.dropFirst()
                names.append(
                    CallName(
                        role: .setter, recorded: spelled(setter, [nil]), base: setter, arguments: [newValue],
                        isPlainGetter: false))
            }
            return names
        case .subscript(let hasSetter):
            var names = [
                CallName(
                    role: .call, recorded: spelled("subscript", labels), base: "subscript", arguments: arguments,
                    isPlainGetter: arguments.isEmpty)
            ]
            if hasSetter {
                let newValue = Argument(
                    label: "newValue", name: "newValue", callType: setterType(requirement, erasing: erased),
                    isVariadic: false, isClosure: false, isOptionalClosure: false)
                names.append(
                    CallName(
                        role: .setter, recorded: spelled("setSubscript", labels + ["newValue"]), base: "setSubscript",
                        arguments: arguments + [newValue], isPlainGetter: false))
            }
            return names
        }
    }

    /// `fetch(id:)`, `log(_:)`, `reset()`.
    static func spelled(_ name: String, _ labels: [String?]) -> String {
        name + "(" + labels.map { ($0.map(unbackticked) ?? "_") + ":" }.joined() + ")"
    }

    private static func setterType(_ requirement: Requirement, erasing erased: Set<String>) -> String {
        guard let type = requirement.returnType else { return "Any?" }
        let parsed = TypeSyntax(stringLiteral: type)
        return TypeErasure.mentions(parsed, erased) ? "Any?" : type
    }

    static func unbackticked(_ name: String) -> String {
        name.hasPrefix("`") && name.hasSuffix("`") && name.count > 2 ? String(name.dropFirst().dropLast()) : name
    }

    static func isOperator(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        return !(first == "_" || first == "`" || CharacterSetLite.isIdentifierStart(first))
    }

    /// `==` -> `operatorEqualEqual`: an operator's calls need an identifier.
    static func operatorName(_ name: String) -> String {
        let words: [Character: String] = [
            "=": "Equal", "<": "Less", ">": "Greater", "+": "Plus", "-": "Minus", "*": "Star", "/": "Slash",
            "%": "Percent", "!": "Bang", "&": "And", "|": "Bar", "^": "Caret", "~": "Tilde", "?": "Question",
            ".": "Dot",
        ]
        return "operator" + name.map { words[$0] ?? "Op" }.joined()
    }
}

extension CallName.Argument {
    init(_ parameter: Parameter, erasing erased: Set<String>) {
        let closure = parameter.isClosure
        var type = "Any?"
        if !closure && !TypeErasure.mentions(parameter.type, erased) {
            type = TypeErasure.plain(parameter.type)
        }
        self.init(
            label: parameter.label.map(CallName.unbackticked), name: parameter.name, callType: type,
            isVariadic: parameter.isVariadic, isClosure: closure, isOptionalClosure: parameter.isOptionalClosure,
            hasOwnership: parameter.hasOwnership && type != "Any?", isSelf: parameter.isSelf)
    }
}

/// Letters that may start an identifier, without Foundation.
enum CharacterSetLite {
    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isXIDStart || scalar == "$"
    }
}
#endif
