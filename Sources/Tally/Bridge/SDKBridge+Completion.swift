extension SDKBridge {
    /// The handle `start` gives the SDK to answer one call: call it from any thread, any number of times.
    ///
    /// The first of ``succeed(_:)``, ``fail(_:)`` or ``resume(with:)`` ends the call (unless cancellation
    /// or a timeout ended it first); every later one does nothing but add one to
    /// ``SDKBridge/ignoredCallbacks``. Each returns whether it was the one that ended the call.
    ///
    /// Store it where the SDK's delegate can reach it, or pass it straight to a callback:
    ///
    /// ```swift
    /// let form = try await bridge.call { completion in
    ///     ThirdParty.delegate = FormDelegate(completion)    // delegate SDKs: one delegate per call
    ///     ThirdParty.loadFeedbackForm(id)
    /// } cleanup: {
    ///     ThirdParty.delegate = nil
    /// }
    ///
    /// let loaded = try await bridge.call { completion in
    ///     sdk.load(id, completion: { completion.resume(with: $0) })   // Result callbacks
    /// }
    /// ```
    ///
    /// A completion belongs to one call: keeping it after the call ended is harmless, and its callbacks
    /// are then counted as ignored.
    public struct Completion: Sendable {
        let bridge: SDKBridge<Success>
        let id: UInt64

        /// Ends the call with `value`, if nothing ended it yet.
        /// - Returns: `true` if this ended the call, `false` if it was ignored (and counted).
        @discardableResult
        public func succeed(_ value: Success) -> Bool {
            bridge.end(id, with: .success(value), isCallback: true)
        }

        /// Ends the call by throwing `error` to the caller unchanged, if nothing ended it yet.
        ///
        /// Any error type passes through, including one only the SDK can create (like the seed's
        /// `ThirdPartyError`, whose initializer is not public): the caller can catch it by its type.
        /// - Returns: `true` if this ended the call, `false` if it was ignored (and counted).
        @discardableResult
        public func fail(_ error: any Error) -> Bool {
            bridge.end(id, with: .failure(error), isCallback: true)
        }

        /// Ends the call with `result`, if nothing ended it yet; for SDKs that answer with a `Result`.
        /// - Returns: `true` if this ended the call, `false` if it was ignored (and counted).
        @discardableResult
        public func resume<Failure: Error>(with result: Result<Success, Failure>) -> Bool {
            bridge.end(id, with: result.mapError { $0 as any Error }, isCallback: true)
        }
    }
}

extension SDKBridge.Completion where Success == Void {
    /// Ends a call that returns nothing, if nothing ended it yet.
    /// - Returns: `true` if this ended the call, `false` if it was ignored (and counted).
    @discardableResult
    public func succeed() -> Bool { succeed(()) }
}
