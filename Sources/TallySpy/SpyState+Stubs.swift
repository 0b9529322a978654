import Tally
import TallyTesting

extension SpyState {
    /// One stubbed answer: for a member with given arguments or with any, set at a test's line.
    struct Stub: Sendable {
        enum Answer: Sendable {
            case value(any Sendable)
            case error(any Error)
            case sync(@Sendable ([Any]) throws -> Any)
            case async(@Sendable ([Any]) async throws -> Any)
        }

        /// The arguments a call must have, or nil for any.
        var arguments: [CallRecorder.Argument]?
        var answer: Answer
        /// The call the test stubbed, as it wrote it: `fetch(id: 1)`, `fetch(id:) with any arguments`.
        var pattern: String
        /// The test's line, where a stub that does not fit is reported.
        var location: Location
    }

    /// Adds a stub; a later one for the same call takes precedence.
    func addStub(_ expected: CallRecorder.ExpectedCall, _ answer: Stub.Answer, at location: Location) {
        let stub = Stub(
            arguments: expected.arguments, answer: answer, pattern: expected.description, location: location)
        recorder.updateAttachment(for: expected.method) { stubs in (stubs as? [Stub] ?? []) + [stub] }
    }

    /// Forgets every stub, or those of one member.
    func removeStubs(for method: String?) {
        recorder.updateAttachment(for: method) { _ in nil }
    }
}

/// A stub closure whose parameter types don't fit the call's arguments.
struct StubSignatureMismatch: Error {
    /// The closure's parameter types.
    var expected: [String]
    /// The types of the arguments the call passed.
    var actual: [String]
}

/// Erases a stub closure to `([Any]) throws -> Any`: each argument is cast to the closure's parameter type,
/// and a call whose arguments don't fit throws ``StubSignatureMismatch``.
func erase<each A, R>(_ body: @escaping @Sendable (repeat each A) throws -> R) -> @Sendable ([Any]) throws -> Any {
    { arguments in
        let cursor = try ArgumentCursor(arguments, parameters: parameterNames(repeat (each A).self))
        return try body(repeat cursor.next((each A).self))
    }
}

/// The `async` form of ``erase(_:)``.
func erase<each A, R>(
    _ body: @escaping @Sendable (repeat each A) async throws -> R
) -> @Sendable ([Any]) async throws -> Any {
    { arguments in
        let cursor = try ArgumentCursor(arguments, parameters: parameterNames(repeat (each A).self))
        return try await body(repeat cursor.next((each A).self))
    }
}

/// The names of a closure's parameter types: `["Int", "String"]`.
func parameterNames<each A>(_ types: repeat (each A).Type) -> [String] {
    var names: [String] = []
    for type in repeat each types { names.append(SpyState.typeName(type)) }
    return names
}

/// Hands a call's arguments to a stub closure one at a time, cast to its parameter types.
final class ArgumentCursor {
    private let arguments: [Any]
    private let parameters: [String]
    private var index = 0

    init(_ arguments: [Any], parameters: [String]) throws {
        self.arguments = arguments
        self.parameters = parameters
        guard arguments.count == parameters.count else { throw mismatch }
    }

    func next<T>(_: T.Type) throws -> T {
        defer { index += 1 }
        guard let value = arguments[index] as? T else { throw mismatch }
        return value
    }

    private var mismatch: StubSignatureMismatch {
        StubSignatureMismatch(expected: parameters, actual: arguments.map(SpyState.typeName(of:)))
    }
}
