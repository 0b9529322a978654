#if canImport(Testing)
import Testing

/// A Swift Testing trait that runs a test, or every test of a suite, in exhaustive mode: every event and
/// call its recorders recorded must be accounted for by an expectation, or the test fails when it ends.
///
/// ```swift
/// @Suite(.exhaustive)
/// struct LoginViewModelTests {
///     @Test func loginTracksTheTap() {
///         let spy = AnalyticsSpy()
///         LoginViewModel(analytics: spy).login()
///         spy.expectTracked(.loginTapped)
///         // No expectNothingElse(): a second login_tapped, or any other event, fails the test here,
///         // at the line that created the spy.
///     }
///
///     @Test(.exhaustive(false)) func aSmokeTestThatChecksOneEventOfMany() { /* ... */ }
/// }
/// ```
///
/// The recorders checked are the ``AnalyticsSpy``s, `InMemoryDestination`s, ``RecordingReader``s and
/// ``CallRecorder``s (and every spy built on one) created while the test runs: in the test function, the
/// suite's initializer, and the child tasks and `Task { }`s they start. Each one holding events or calls that
/// no expectation accounted for is reported once, when the test's body returns, naming each of them: at the
/// line that created the recorder when that line is in the test's file, otherwise at the test. A test that
/// throws is not checked.
///
/// The innermost setting wins: `.exhaustive(false)` on a test turns off the suite's `.exhaustive`. A recorder
/// opts out with ``EventRecorder/isExhaustive`` or ``CallRecorder/isExhaustive``. In XCTest, use
/// ``withExhaustiveCheck(_:fileID:filePath:line:column:operation:)``.
public struct ExhaustiveTrait: TestTrait, SuiteTrait, TestScoping, Hashable {
    /// Whether the tests it applies to are checked.
    public var isOn: Bool

    /// Creates the trait. Prefer `.exhaustive` and `.exhaustive(_:)` in a test's or a suite's traits.
    ///
    /// - Parameter isOn: Whether the tests it applies to are checked.
    public init(isOn: Bool = true) {
        self.isOn = isOn
    }

    /// A suite's setting applies to every test in it, and to nested suites.
    public var isRecursive: Bool { true }

    /// Scopes each test case, and only when this is the innermost `ExhaustiveTrait` of the test (a test's own
    /// traits come after the ones it inherits from its suites).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        guard !test.isSuite, testCase != nil else { return nil }
        let innermost = test.traits.last { $0 is ExhaustiveTrait } as? ExhaustiveTrait
        return innermost == nil || innermost == self ? self : nil
    }

    /// Runs the test case with its own check, then reports what no expectation accounted for.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard isOn else {
            try await ExhaustiveCheck.$current.withValue(nil) { try await function() }
            return
        }
        let location = test.sourceLocation
        let check = ExhaustiveCheck(
            scope: .test(
                fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column))
        try await ExhaustiveCheck.$current.withValue(check) { try await function() }
        await check.finishAfterFinalReads()
    }
}

extension Trait where Self == ExhaustiveTrait {
    /// Exhaustive mode for this test, or every test of this suite: each event and call recorded must be
    /// accounted for by an expectation. See ``ExhaustiveTrait``.
    ///
    /// ```swift
    /// @Suite(.exhaustive) struct CheckoutTests { /* ... */ }
    /// ```
    public static var exhaustive: Self { ExhaustiveTrait(isOn: true) }

    /// Exhaustive mode on or off for this test or suite; `.exhaustive(false)` opts one test out of its
    /// suite's `.exhaustive`.
    ///
    /// ```swift
    /// @Test(.exhaustive(false)) func aSmokeTest() { /* ... */ }
    /// ```
    ///
    /// - Parameter isOn: Whether the test is checked.
    /// - Returns: The trait.
    public static func exhaustive(_ isOn: Bool) -> Self { ExhaustiveTrait(isOn: isOn) }
}
#endif
