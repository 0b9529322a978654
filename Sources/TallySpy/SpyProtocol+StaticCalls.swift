/// The spies installed for static calls, by type, in the running task.
enum StaticSpies {
    @TaskLocal static var installed: [ObjectIdentifier: SpyState] = [:]
}

/// Static requirements, recorded per test.
///
/// A static requirement has no instance to record into, and a static stored recorder would be shared by
/// every test in the process, which Swift Testing runs in parallel. Instead the test installs a spy for the
/// code it runs, in a task-local value, and each static call records into that spy with its instance calls,
/// in one order, with the same expectations and stubs:
///
/// ```swift
/// @Spy
/// protocol FeedbackSDK {
///     static func loadForm(_ id: String)
/// }
///
/// @Test func loadingPassesTheFormID() {
///     let sdk = FeedbackSDKSpy()
///     sdk.withStaticCalls {
///         FeedbackLoader(sdk: FeedbackSDKSpy.self).load("some-id")
///     }
///     sdk.expectCalled(.loadForm("some-id"))
/// }
/// ```
///
/// Two tests that run at the same time each see only their own calls, and spies of different types can be
/// installed together. A task-local value reaches the closure, everything it calls, child tasks and
/// `Task { }`; it does not reach `Task.detached`, a `DispatchQueue` or a thread the code under test starts
/// itself: a static call made there finds no spy, reports an issue and is not recorded.
///
/// Protocol initializers (`init(key:)` requirements) are static calls too: the installed spy records them.
extension SpyProtocol {
    /// Runs `operation` with this spy recording the static calls to its type, for the operation and
    /// everything it calls.
    ///
    /// ```swift
    /// let sdk = FeedbackSDKSpy()
    /// sdk.withStaticCalls { FeedbackSDKSpy.loadForm("some-id") }
    /// sdk.expectCalled(.loadForm("some-id"))
    /// ```
    ///
    /// - Parameter operation: The code under test.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public func withStaticCalls<R>(_ operation: () throws -> R) rethrows -> R {
        try StaticSpies.$installed.withValue(installing(), operation: operation)
    }

    /// Runs the asynchronous `operation` with this spy recording the static calls to its type, for the
    /// operation, everything it calls, and the child tasks and unstructured `Task`s it creates.
    ///
    /// ```swift
    /// let sdk = FeedbackSDKSpy()
    /// try await sdk.withStaticCalls {
    ///     try await loader.load("some-id")
    /// }
    /// sdk.expectCalled(.loadForm("some-id"))
    /// ```
    ///
    /// - Parameters:
    ///   - isolation: The actor `operation` runs on: the caller's, by default.
    ///   - operation: The code under test.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public func withStaticCalls<R>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> R
    ) async rethrows -> R {
        try await StaticSpies.$installed.withValue(installing(), operation: operation)
    }

    /// Where a protocol initializer records its call: the installed spy of this type (see
    /// ``withStaticCalls(_:)``), or else the new spy itself. For the generated initializers.
    ///
    /// - Parameter spy: The spy being initialized.
    /// - Returns: The state the call is recorded in.
    public static func _spyInitializer(_ spy: Self) -> SpyState {
        StaticSpies.installed[ObjectIdentifier(Self.self)] ?? spy._spy
    }

    private func installing() -> [ObjectIdentifier: SpyState] {
        var installed = StaticSpies.installed
        installed[ObjectIdentifier(Self.self)] = _spy
        return installed
    }
}
