extension CallRecorder {
    /// A call a test expects: a method, with given arguments or with any.
    ///
    /// Used by ``CallRecorder/expectCalls(inOrder:fileID:filePath:line:column:)``. A string literal is a
    /// call to that method with any arguments; ``call(_:with:_:)`` also fixes the arguments.
    ///
    /// ```swift
    /// sdk.calls.expectCalls(inOrder: [
    ///     "setDelegate(_:)",
    ///     .call("loadFeedbackForm(_:)", with: "some-id"),
    /// ])
    /// ```
    public struct ExpectedCall: Sendable, Hashable {
        /// The method's name, as the spy records it.
        public var method: String
        /// The arguments the call must have, or nil for any.
        public var arguments: [Argument]?

        /// A call to `method` with exactly `arguments`, or with any arguments when `arguments` is nil.
        public init(method: String, arguments: [Argument]?) {
            self.method = method
            self.arguments = arguments
        }

        /// A call to `method`, with any arguments.
        public static func call(_ method: String) -> ExpectedCall {
            ExpectedCall(method: method, arguments: nil)
        }

        /// A call to `method` with exactly these arguments, compared after the conversion of
        /// ``CallRecorder/Argument/init(_:)``.
        ///
        /// ```swift
        /// let expected: [CallRecorder.ExpectedCall] = [
        ///     .call("logEvent(named:properties:)", with: "test", ["key": "value"]),
        ///     .call("logEvent(named:properties:)", with: "test", nil),
        /// ]
        /// ```
        public static func call(_ method: String, with first: Any?, _ rest: Any?...) -> ExpectedCall {
            ExpectedCall(method: method, arguments: ([first] + rest).map(Argument.init))
        }

        package func matches(_ call: Call) -> Bool {
            call.method == method && (arguments.map { $0 == call.arguments } ?? true)
        }
    }
}

extension CallRecorder.ExpectedCall: ExpressibleByStringLiteral {
    /// A call to the method named by the literal, with any arguments.
    public init(stringLiteral method: String) {
        self.init(method: method, arguments: nil)
    }
}

extension CallRecorder.ExpectedCall: CustomStringConvertible {
    /// `logEvent(named: "test", properties: nil)`, or `logEvent(named:properties:) with any arguments`.
    public var description: String {
        guard let arguments else { return method.hasSuffix("()") ? method : "\(method) with any arguments" }
        return CallRecorder.render(method: method, arguments: arguments)
    }
}
