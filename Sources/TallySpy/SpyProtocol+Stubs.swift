import Tally

/// Stubs: what a spy's members answer.
///
/// A stub is set for a call: `.fetch` answers every call to `fetch(id:)`, `.fetch(id: 1)` only the calls
/// with that argument. A call takes the newest stub for its exact arguments, else the newest stub for any
/// arguments. Without a stub, a property or subscript getter returns the value its setter last stored for
/// the same index, and any other member its return type's default (see ``SpyDefaultValue``), after
/// reporting the unstubbed call in the default strict mode.
///
/// A stub that doesn't fit its member is reported at the line that set it when the member is called: a
/// value of another type, an error from a member that cannot throw, a closure whose parameter types are not
/// the call's.
extension SpyProtocol {
    /// Makes the calls `call` matches return `value`.
    ///
    /// ```swift
    /// users.stub(.fetch, returning: User(id: 1, name: "Ada"))
    /// users.stub(.fetch(id: 2), returning: nil)            // fetch(id:) returns User?
    /// ```
    ///
    /// - Parameters:
    ///   - call: The calls to answer: a member with any arguments, or with these.
    ///   - value: What they return. Its type must be the member's return type (for `User?`, a `User` or
    ///     `nil` both work). For a value that is not `Sendable`, answer with ``stub(_:using:fileID:filePath:line:column:)-3flj8``.
    ///   - fileID: Where a stub that doesn't fit is reported; the caller's line by default.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    public func stub(
        _ call: Call,
        returning value: (any Sendable)?,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        _spy.addStub(call.expected, .value(value), at: .init(fileID, filePath, line, column))
    }

    /// Makes the calls `call` matches return `first`, then each value of `rest` in turn, one per call; once
    /// every value has answered, the last one answers each further call.
    ///
    /// ```swift
    /// network.stub(.status, returning: NetworkStatus.offline, then: [NetworkStatus.connecting, NetworkStatus.online])
    /// // status() answers .offline, .connecting, .online, .online, ...
    /// ```
    ///
    /// A stub for these arguments and one for any arguments keep their own turns. The values must be of the
    /// member's return type, as with ``stub(_:returning:fileID:filePath:line:column:)``.
    ///
    /// - Parameters:
    ///   - call: The calls to answer: a member with any arguments, or with these.
    ///   - first: What the first call returns.
    ///   - rest: What the following calls return, in order.
    ///   - fileID: Where a stub that doesn't fit is reported; the caller's line by default.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    public func stub(
        _ call: Call,
        returning first: (any Sendable)?,
        then rest: [(any Sendable)?],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let values = [first] + rest
        let turn = Locked(0)
        let next: @Sendable ([Any]) throws -> Any = { _ in
            let index = turn.withLock { turn in
                defer { turn = min(turn + 1, values.count - 1) }
                return turn
            }
            return values[index] as Any
        }
        _spy.addStub(call.expected, .sync(next), at: .init(fileID, filePath, line, column))
    }

    /// Makes the calls `call` matches throw `error`. The member must throw; if it cannot, each call
    /// reports the stub and returns the default.
    ///
    /// ```swift
    /// users.stub(.fetch, throwing: URLError(.notConnectedToInternet))
    /// ```
    ///
    /// - Parameters:
    ///   - call: The calls to answer: a member with any arguments, or with these.
    ///   - error: What they throw.
    ///   - fileID: Where a stub that doesn't fit is reported; the caller's line by default.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    public func stub(
        _ call: Call,
        throwing error: any Error,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        _spy.addStub(call.expected, .error(error), at: .init(fileID, filePath, line, column))
    }

    /// Makes the calls `call` matches answer with `body`, given their arguments as the member received
    /// them, closures included.
    ///
    /// Name the parameter types: they are the member's, in order (the generic parameters of a generic
    /// member are `Any`). For a member that returns nothing the closure returns `Void`; it may throw if the
    /// member does.
    ///
    /// ```swift
    /// users.stub(.fetch) { (id: Int) in User(id: id, name: "User \(id)") }
    /// forms.stub(.load) { (id: String, completion: @escaping @Sendable (Form) -> Void) in
    ///     completion(Form(id: id))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - call: The calls to answer: a member with any arguments, or with these.
    ///   - body: The answer. It runs on the caller's thread, once per call.
    ///   - fileID: Where a stub that doesn't fit is reported; the caller's line by default.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    public func stub<each A, R>(
        _ call: Call,
        using body: @escaping @Sendable (repeat each A) throws -> R,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        _spy.addStub(call.expected, .sync(erase(body)), at: .init(fileID, filePath, line, column))
    }

    /// Makes the calls `call` matches answer with the asynchronous `body`. Only `async` members can await
    /// it; a synchronous member reports the stub and returns the default.
    ///
    /// ```swift
    /// users.stub(.fetch) { (id: Int) async in
    ///     await gate.wait()
    ///     return User(id: id, name: "Ada")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - call: The calls to answer: a member with any arguments, or with these.
    ///   - body: The answer. It runs in the caller's task, once per call.
    ///   - fileID: Where a stub that doesn't fit is reported; the caller's line by default.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    public func stub<each A, R>(
        _ call: Call,
        using body: @escaping @Sendable (repeat each A) async throws -> R,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        _spy.addStub(call.expected, .async(erase(body)), at: .init(fileID, filePath, line, column))
    }

    /// Forgets the stubs of one member (whatever their arguments), or every stub when `call` is nil.
    ///
    /// ```swift
    /// users.removeStubs(for: .fetch)
    /// ```
    ///
    /// - Parameter call: The member whose stubs go; its arguments, if any, are ignored.
    public func removeStubs(for call: Call? = nil) {
        _spy.removeStubs(for: call?.expected.method)
    }
}

extension SpyState.Location {
    init(_ fileID: StaticString, _ filePath: StaticString, _ line: UInt, _ column: UInt) {
        self.init(fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
