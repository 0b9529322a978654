import Foundation
import TallyTesting

/// The text of the issues a generated spy reports.
extension SpyState {
    /// What an unstubbed call did, for its message.
    enum UnstubbedOutcome {
        /// It returned the type's default.
        case `default`
        /// It threw ``SpyError``.
        case `throw`
        /// The type has no default and the member cannot throw: the process stops.
        case stop
    }

    static func unstubbedMessage(
        _ call: CallRecorder.Call, pattern: String, returnType: Any.Type, outcome: UnstubbedOutcome
    ) -> String {
        let type = typeName(returnType)
        let result: String
        switch outcome {
        case .default: result = "returned the default, \(defaultText(returnType))"
        case .throw: result = "threw SpyError, since \(type) has no default"
        case .stop: result = "\(type) has no default and the member cannot throw, so the test process stops"
        }
        return """
            Unstubbed call to \(call.method), which returns \(type): \(result).

            Call: \(call)

            Stub it before the code under test calls it:
              spy.stub(.\(pattern), returning: <\(type)>)
            or answer from the arguments with spy.stub(.\(pattern)) { (arguments...) in ... }.\
            \(outcome == .default ? relaxedHint : conformanceHint(type))
            """
    }

    private static let relaxedHint = """

        To return the default without an issue, create the spy with mode: .relaxed.
        """

    private static func conformanceHint(_ type: String) -> String {
        """

        To give \(type) a default, conform it to SpyDefaultValue.
        """
    }

    static func noDefaultMessage(
        _ call: CallRecorder.Call?, spy: String, pattern: String, returnType: Any.Type
    ) -> String {
        let type = typeName(returnType)
        return """
            \(spy): unstubbed call to \(call.map(\.description) ?? pattern), which returns \(type): \(type) has \
            no default value and the member cannot throw. Stub it (spy.stub(.\(pattern), returning: ...)) or \
            conform \(type) to SpyDefaultValue.
            """
    }

    static func noInstalledSpyMessage(spy: String, method: String) -> String {
        """
        Static call to \(spy).\(method) with no \(spy) installed: the call was not recorded.

        Run the code under test inside spy.withStaticCalls { ... }, where spy is the \(spy) that records the \
        test's static calls. Only code in that closure's task tree sees it: calls on a thread the test did \
        not start there (a DispatchQueue, a vendor's own thread, a detached task) do not.
        """
    }

    static func wrongTypeMessage(
        _ call: CallRecorder.Call, value: Any, returnType: Any.Type, stub: Stub
    ) -> String {
        """
        The stub for \(stub.pattern) answered \(typeName(of: value)), but \(call.method) returns \
        \(typeName(returnType)): returned the default instead.

        Call: \(call)
        """
    }

    static func signatureMessage(_ call: CallRecorder.Call, _ mismatch: StubSignatureMismatch, stub: Stub) -> String {
        """
        The stub for \(stub.pattern) takes (\(mismatch.expected.joined(separator: ", "))), but \(call.method) \
        was called with (\(mismatch.actual.joined(separator: ", "))): the stub did not run.

        Call: \(call)
        """
    }

    static func cannotThrowMessage(_ call: CallRecorder.Call, error: any Error, stub: Stub) -> String {
        """
        The stub for \(stub.pattern) threw \(error), but \(call.method) cannot throw here: returned the \
        default instead.

        Call: \(call)
        """
    }

    static func asyncStubMessage(_ call: CallRecorder.Call, stub: Stub) -> String {
        """
        The stub for \(stub.pattern) is async, but \(call.method) is synchronous: the stub did not run. Stub it \
        with a synchronous closure.

        Call: \(call)
        """
    }

    static func wrongErrorMessage(_ method: String, error: any Error, errorType: Any.Type) -> String {
        errorType == Never.self
            ? """
            The stub for \(method) threw \(error), but this call cannot throw (its closure argument does not): \
            returned the default instead.
            """
            : """
            The stub for \(method) threw \(error), but \(method) throws only \(typeName(errorType)): returned the \
            default instead.
            """
    }

    /// `User`, `[String: Int]`, `User?`: the type as Swift writes it, without its module.
    static func typeName(_ type: Any.Type) -> String {
        sugared(String(describing: type))
    }

    /// The dynamic type of `value`, looking through the optional a stub's value is stored in: `nil` for
    /// nil.
    static func typeName(of value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return typeName(type(of: value)) }
        guard let wrapped = mirror.children.first?.value else { return "nil" }
        return typeName(of: wrapped)
    }

    /// `Optional<Array<User>>` -> `[User]?`, `Dictionary<String, Int>` -> `[String: Int]`.
    static func sugared(_ name: String) -> String {
        guard let open = name.firstIndex(of: "<"), name.last == ">" else { return name }
        let base = name[..<open]
        let inner = name[name.index(after: open)..<name.index(before: name.endIndex)]
        var arguments: [String] = []
        var depth = 0
        var current = ""
        for character in inner {
            switch character {
            case "<": depth += 1
            case ">": depth -= 1
            case "," where depth == 0:
                arguments.append(current.trimmingSpaces())
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        arguments.append(current.trimmingSpaces())
        let sugaredArguments = arguments.map(sugared)
        switch (base, sugaredArguments.count) {
        case ("Optional", 1):
            let wrapped = sugaredArguments[0]
            return (wrapped.contains("->") || wrapped.contains(" & ") ? "(\(wrapped))" : wrapped) + "?"
        case ("Array", 1): return "[\(sugaredArguments[0])]"
        case ("Dictionary", 2): return "[\(sugaredArguments[0]): \(sugaredArguments[1])]"
        default: return base + "<" + sugaredArguments.joined(separator: ", ") + ">"
        }
    }

    /// The default's text in a message: `nil`, `0`, `""`, `[]`.
    static func defaultText(_ type: Any.Type) -> String {
        guard let value = SpyDefaults.anyValue(type) else { return "none" }
        if let text = value as? String { return text.debugDescription }
        let described = String(describing: value)
        return described == "()" || described.isEmpty ? "()" : described
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
