import Tally

extension CallRecorder {
    /// Makes every later call to `method` return `value`.
    ///
    /// A later stub for the same method replaces this one. Stubs survive ``clear()``.
    ///
    /// ```swift
    /// final class UserServiceSpy: UserService, Sendable {
    ///     let calls = CallRecorder()
    ///     func fetch(id: Int) -> User? { calls.record(default: nil, arguments: id) }
    /// }
    ///
    /// let users = UserServiceSpy()
    /// users.calls.stub("fetch(id:)", returning: User(id: 1, name: "Ada"))
    /// ```
    ///
    /// - Parameters:
    ///   - method: The method's name as the spy records it, such as `fetch(id:)`.
    ///   - value: What the method returns. Its type must be the method's return type (for a method returning
    ///     `User?`, a `User` or `User?` both work); a stub of another type is reported when the method is
    ///     called.
    public func stub<Value: Sendable>(_ method: String, returning value: Value) {
        setStub(method) { _ in value }
    }

    /// Makes every later call to `method` throw `error`. The spy must record with
    /// ``recordThrowing(_:returning:default:arguments:fileID:filePath:line:column:)``.
    ///
    /// ```swift
    /// feedback.calls.stub("load(_:)", throwing: MultipleFormLoadError())
    /// ```
    public func stub(_ method: String, throwing error: any Error) {
        setStub(method) { _ in throw error }
    }

    /// Makes every later call to `method` answer with `body`, given the recorded call.
    ///
    /// Use it when the answer depends on the arguments, when each call must get a new value, or when the
    /// value is not `Sendable`. The body may throw, for methods recorded with
    /// ``recordThrowing(_:returning:default:arguments:fileID:filePath:line:column:)``.
    ///
    /// ```swift
    /// users.calls.stub("fetch(id:)") { call in
    ///     call.arguments == [1] ? User(id: 1, name: "Ada") : nil
    /// }
    /// ```
    public func stub<Value>(_ method: String, using body: @escaping @Sendable (Call) throws -> Value) {
        setStub(method, answer: body)
    }

    private func setStub(_ method: String, answer: @escaping @Sendable (Call) throws -> Any) {
        state.withLock { $0.stubs[method] = Stub(answer: answer) }
    }

    /// Records a call to a method that returns a value, and returns the stubbed value.
    ///
    /// The spy names the value to return when nothing is stubbed: there is no safe value to invent for an
    /// arbitrary type, and crashing would end every test in the process. In ``Mode/strict`` mode (the
    /// default) an unstubbed call also reports an issue that shows the call and how to stub it; in
    /// ``Mode/relaxed`` mode it does not.
    ///
    /// ```swift
    /// final class UserServiceSpy: UserService, Sendable {
    ///     let calls = CallRecorder()
    ///     func fetch(id: Int) -> User? { calls.record(default: nil, arguments: id) }
    ///     func count() -> Int { calls.record(default: 0) }
    /// }
    /// ```
    ///
    /// A stub of the wrong type, or one that throws, is reported too, and the default is returned.
    ///
    /// - Parameters:
    ///   - method: The method's name; `#function` by default.
    ///   - returning: The return type, when the context does not say it.
    ///   - fallback: What to return when no stub answers; evaluated only then.
    ///   - arguments: The call's arguments, in order, as for ``record(_:arguments:fileID:filePath:line:column:)``.
    ///   - fileID: The file ID where an issue about this call is reported; the spy's by default.
    ///   - filePath: The file path where such an issue is reported; the spy's by default.
    ///   - line: The line where such an issue is reported; the spy's by default.
    ///   - column: The column where such an issue is reported; the spy's by default.
    /// - Returns: The stub's answer, or `fallback`.
    public func record<Value>(
        _ method: String = #function,
        returning: Value.Type = Value.self,
        default fallback: @autoclosure () -> Value,
        arguments: Any?...,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let (call, stub) = append(method, arguments, location) else { return fallback() }
        do {
            return try answer(call, stub, fallback: fallback, recordName: "record(default:arguments:)", at: location)
        } catch {
            report(Self.throwingStubMessage(call, error: error, recordName: "record(default:arguments:)"), at: location)
            return fallback()
        }
    }

    /// Records a call to a method that throws, and returns the stubbed value or throws the stubbed error.
    ///
    /// The same as ``record(_:returning:default:arguments:fileID:filePath:line:column:)``, except that an
    /// error thrown by the stub (``stub(_:throwing:)``, or ``stub(_:using:)`` with a throwing body) is
    /// thrown to the caller.
    ///
    /// ```swift
    /// final class FeedbackServiceSpy: FeedbackService, Sendable {
    ///     let calls = CallRecorder()
    ///     func load(_ id: String) throws -> Form { try calls.recordThrowing(default: .empty, arguments: id) }
    /// }
    ///
    /// spy.calls.stub("load(_:)", throwing: MultipleFormLoadError())
    /// ```
    public func recordThrowing<Value>(
        _ method: String = #function,
        returning: Value.Type = Value.self,
        default fallback: @autoclosure () -> Value,
        arguments: Any?...,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) throws -> Value {
        let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let (call, stub) = append(method, arguments, location) else { return fallback() }
        return try answer(
            call, stub, fallback: fallback, recordName: "recordThrowing(default:arguments:)", at: location)
    }

    /// Records a call to a method that throws but returns nothing, and throws the stubbed error if any.
    ///
    /// An unstubbed call is not an issue: there is nothing to return.
    ///
    /// ```swift
    /// func load(_ id: String, completion: @escaping (Result<Form, any Error>) -> Void) throws {
    ///     try calls.recordThrowing(arguments: id)
    ///     self.completion = completion
    /// }
    /// ```
    public func recordThrowing(
        _ method: String = #function,
        arguments: Any?...,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) throws {
        let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let (call, stub) = append(method, arguments, location), let stub else { return }
        _ = try stub.answer(call)
    }

    private func answer<Value>(
        _ call: Call, _ stub: Stub?, fallback: () -> Value, recordName: String, at location: Location
    ) throws -> Value {
        guard let stub else {
            if mode == .strict {
                report(Self.unstubbedMessage(call, returnType: Value.self, recordName: recordName), at: location)
            }
            return fallback()
        }
        let answer = try stub.answer(call)
        if let value = answer as? Value { return value }
        report(
            """
            The stub for \(call.method) returned \(type(of: answer)), but the spy returns \(Value.self): \
            returned the default instead.

            Call: \(call)
            """,
            at: location)
        return fallback()
    }
}
