import Tally

/// Runs `operation` in exhaustive mode: when it returns, every event and call that the recorders created
/// inside it recorded must have been accounted for by an expectation, or the test fails.
///
/// Use it in XCTest, where the ``ExhaustiveTrait`` does not exist, for every test of a class:
///
/// ```swift
/// final class LoginViewModelTests: XCTestCase {
///     override func invokeTest() {
///         withExhaustiveCheck { super.invokeTest() }
///     }
///
///     func testLoginTracksTheTap() {
///         let spy = AnalyticsSpy()
///         LoginViewModel(analytics: spy).login()
///         spy.expectTracked(.loginTapped)   // a second login_tapped would fail the test
///     }
/// }
/// ```
///
/// or around one test's body, in either framework. `withExhaustiveCheck(false) { ... }` turns it off for
/// the code inside, in a test that has it on.
///
/// The recorders checked are the ``AnalyticsSpy``s, `InMemoryDestination`s, ``RecordingReader``s and
/// ``CallRecorder``s (and so every spy built on one, generated or hand-written) created while `operation`
/// runs, in its task, its child tasks or a `Task { }` it starts: the check is a task-local value. A
/// recorder created elsewhere (before the call, in `Task.detached`, on a `DispatchQueue` or a thread of its
/// own) is not checked. Each recorder with something unaccounted for is reported once, naming every event
/// or call, at the line that created it when that line is in the same file as this call, and at this
/// call otherwise. A recorder opts out with ``EventRecorder/isExhaustive`` or ``CallRecorder/isExhaustive``.
///
/// When `operation` throws, nothing is checked: the expectations after the throw never ran. What arrives
/// after `operation` returns (an event a client delivers later) is not seen: `await analytics.flush()`
/// first.
///
/// - Parameters:
///   - isOn: Whether to check; `false` turns an enclosing check off for the recorders created inside.
///   - fileID: Where recorders created in other files are reported; the caller's by default.
///   - filePath: See `fileID`.
///   - line: See `fileID`.
///   - column: See `fileID`.
///   - operation: The test's body.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws.
public func withExhaustiveCheck<R>(
    _ isOn: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    operation: () throws -> R
) rethrows -> R {
    guard isOn else { return try ExhaustiveCheck.$current.withValue(nil, operation: operation) }
    let check = ExhaustiveCheck(
        scope: .source(SourcePlace(fileID: fileID, filePath: filePath, line: line, column: column)))
    let result = try ExhaustiveCheck.$current.withValue(check, operation: operation)
    check.finish()
    return result
}

/// Runs the asynchronous `operation` in exhaustive mode, on the caller's actor. See
/// ``withExhaustiveCheck(_:fileID:filePath:line:column:operation:)``.
///
/// ```swift
/// func testLoginReachesTheDestination() async {
///     await withExhaustiveCheck {
///         let memory = InMemoryDestination()
///         let analytics = AnalyticsClient(destinations: [memory])
///         LoginViewModel(analytics: analytics).login()
///         await analytics.flush()
///         memory.expectTracked(.loginTapped)
///     }
/// }
/// ```
///
/// - Parameters:
///   - isOn: Whether to check; `false` turns an enclosing check off for the recorders created inside.
///   - isolation: The actor `operation` runs on; the caller's.
///   - fileID: Where recorders created in other files are reported; the caller's by default.
///   - filePath: See `fileID`.
///   - line: See `fileID`.
///   - column: See `fileID`.
///   - operation: The test's body.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws.
public func withExhaustiveCheck<R>(
    _ isOn: Bool = true,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    operation: () async throws -> R
) async rethrows -> R {
    guard isOn else { return try await ExhaustiveCheck.$current.withValue(nil, operation: operation) }
    let check = ExhaustiveCheck(
        scope: .source(SourcePlace(fileID: fileID, filePath: filePath, line: line, column: column)))
    let result = try await ExhaustiveCheck.$current.withValue(check, operation: operation)
    await check.finishAfterFinalReads()
    return result
}

extension EventRecorder {
    /// Whether exhaustive mode checks this recorder at the end of the test. Default true.
    ///
    /// Set it to false for a recorder whose events the test does not mean to account for one by one, such
    /// as a destination a pipeline test only waits on:
    ///
    /// ```swift
    /// @Test(.exhaustive) func theConsoleShowsEachEvent() async {
    ///     let memory = InMemoryDestination()
    ///     memory.isExhaustive = false
    ///     // ...
    /// }
    /// ```
    ///
    /// It is shared by every copy of the recorder, and may be set at any time before the test ends.
    public var isExhaustive: Bool {
        get { log.isExhaustive }
        nonmutating set { log.isExhaustive = newValue }
    }

    /// Registers the recorder with the running test's exhaustive check, if there is one. Every recorder
    /// calls it from its initializer, with the initializer's caller as `place`.
    package func registerForExhaustiveCheck(
        as kind: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
    ) {
        ExhaustiveCheck.register(
            self, kind: kind, at: SourcePlace(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}
