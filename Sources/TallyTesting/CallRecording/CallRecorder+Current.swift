/// The recorder of the running test, for spies of SDKs whose methods are static.
///
/// A static method has no instance to hold a recorder, and a static stored recorder would be shared by
/// every test in the process, which Swift Testing runs in parallel. Instead the test installs its own
/// recorder for the code it runs, in a task-local value, and the static spy records into ``current``:
///
/// ```swift
/// enum ThirdPartySpy: ThirdPartyFeedbackSDK {
///     static func loadFeedbackForm(_ id: String) {
///         CallRecorder.current.record(arguments: id)
///     }
/// }
///
/// @Test func loadPassesTheFormID() throws {
///     let sdk = CallRecorder()
///     try CallRecorder.withCurrent(sdk) {
///         try FeedbackLoader(sdk: ThirdPartySpy.self).load("some-id")
///     }
///     sdk.expectCalled("loadFeedbackForm(_:)", with: "some-id")
/// }
/// ```
///
/// Two tests that run at the same time each see only their own calls. A task-local value reaches the
/// closure, everything it calls, child tasks and `Task { }`; it does not reach `Task.detached`, a
/// `DispatchQueue`, or a thread the SDK runs on its own. A static call made there finds no recorder and
/// reports an issue. For an SDK that calls back on its own threads, route the static API through an
/// instance adapter (as Tally's `FirebaseDestination(sdk:)` does) and give the adapter an instance spy.
extension CallRecorder {
    @TaskLocal static var installed: CallRecorder?

    /// The recorder installed by the innermost ``withCurrent(_:operation:)`` around this code.
    ///
    /// Outside any `withCurrent`, this is a stand-in that keeps nothing: each call recorded into it reports
    /// an issue naming the static method, and a method that returns gets its default.
    public static var current: CallRecorder {
        installed ?? CallRecorder(standIn: ())
    }

    /// Whether a recorder is installed for this code by ``withCurrent(_:operation:)``.
    public static var hasCurrent: Bool { installed != nil }

    /// Runs `operation` with `recorder` as ``current``, for it and everything it calls.
    ///
    /// ```swift
    /// let sdk = CallRecorder()
    /// CallRecorder.withCurrent(sdk) {
    ///     ThirdPartySpy.loadFeedbackForm("some-id")
    /// }
    /// sdk.expectCalled("loadFeedbackForm(_:)")
    /// ```
    public static func withCurrent<R>(_ recorder: CallRecorder, operation: () throws -> R) rethrows -> R {
        try $installed.withValue(recorder, operation: operation)
    }

    /// Runs the asynchronous `operation` with `recorder` as ``current``, for it, everything it calls and
    /// the child tasks and unstructured `Task`s it creates.
    ///
    /// ```swift
    /// let sdk = CallRecorder()
    /// try await CallRecorder.withCurrent(sdk) {
    ///     try await loader.load("some-id")
    /// }
    /// sdk.expectCalled("loadFeedbackForm(_:)", with: "some-id")
    /// ```
    public static func withCurrent<R>(
        _ recorder: CallRecorder,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        try await $installed.withValue(recorder, operation: operation)
    }
}
