import TallyTesting

/// What every spy `@Spy` generates offers: its recorded calls, expectations on them, stubs, waits and the
/// recording of static calls.
///
/// A generated spy records each call to a requirement on a `CallRecorder`, so it has the
/// recorder's expectations (failures reported once at the test's line, with a diff against the closest
/// recorded call) with typed calls (``Call``) in place of method names:
///
/// ```swift
/// @Spy
/// protocol UserService: Sendable {
///     func fetch(id: Int) async throws -> User
///     func log(_ message: String)
/// }
///
/// @Test func loadingShowsTheUser() async throws {
///     let users = UserServiceSpy()
///     users.stub(.fetch, returning: User(id: 1, name: "Ada"))
///
///     try await ProfileModel(users: users).load(id: 1)
///
///     users.expectCalled(.fetch(id: 1))
///     users.expectCalled(.log)
///     users.expectNothingElse()
/// }
/// ```
///
/// A spy is `Sendable` and safe to call from any thread: the recorder, the stubs and the values set on its
/// properties are each guarded by a lock.
///
/// ## Topics
/// ### Creating a spy
/// - ``init(mode:fileID:filePath:line:column:)``
/// - ``Call``
///
/// The spy's `recorder` (a `CallRecorder`, from `CallExpecting`) gives the order of calls across spies.
///
/// ### Reading what was recorded
/// - ``recordsPropertyReads``
/// - ``calls``
/// - ``calls(to:)``
/// - ``clear()``
///
/// ### Expecting calls
/// The expectations (`expectCalled`, `expectNotCalled`, `expectCount(_:of:)`, `expectCalls(inOrder:)`,
/// `expectNothingElse()`) are `CallExpecting`'s, from TallyTesting, with ``Call`` as the call type: the
/// same ones, with the same messages, as `CallRecorder`'s.
/// - ``waitForCalls(_:of:timeout:clock:fileID:filePath:line:column:)``
///
/// ### Stubbing answers
/// - ``stub(_:returning:fileID:filePath:line:column:)``
/// - ``stub(_:throwing:fileID:filePath:line:column:)``
/// - ``stub(_:using:fileID:filePath:line:column:)-3flj8``
/// - ``stub(_:using:fileID:filePath:line:column:)-8em8o``
/// - ``removeStubs(for:)``
///
/// ### Static requirements
/// - ``withStaticCalls(_:)``
/// - ``withStaticCalls(isolation:_:)``

public protocol SpyProtocol: CallExpecting, AnyObject, Sendable where ExpectedCall == Call {
    /// The spy's calls as tests write them: `.fetch(id: 1)`, `.fetch` (see ``SpyCallProtocol``).
    associatedtype Call: SpyCallProtocol

    /// The spy's recorder, stubs and stored values; the generated members call into it. Tests use the
    /// spy's own API instead.
    var _spy: SpyState { get }

    /// Creates a spy with nothing recorded and nothing stubbed.
    ///
    /// ```swift
    /// let users = UserServiceSpy()
    /// let quiet = UserServiceSpy(mode: .relaxed)   // unstubbed members return their defaults silently
    /// ```
    ///
    /// - Parameters:
    ///   - mode: `CallRecorder.Mode.strict` (the default) reports each unstubbed call to a
    ///     member that returns a value, then returns the default (see ``SpyDefaultValue``);
    ///     `CallRecorder.Mode.relaxed` returns the default quietly.
    ///   - fileID: Where unstubbed calls are reported: the line that creates the spy, by default.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    init(mode: CallRecorder.Mode, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt)
}

extension SpyProtocol {
    /// The recorder behind the spy: every call, in order, as `CallRecorder.Call` values.
    ///
    /// Use it for what the typed API does not cover, such as the order of calls across two spies
    /// (`CallRecorder.Call.order`).
    public var recorder: CallRecorder { _spy.recorder }

    /// Every call recorded so far, in order.
    ///
    /// ```swift
    /// #expect(users.calls.map(\.description) == ["fetch(id: 1)", "log(\"loaded\")"])
    /// ```
    public var calls: [CallRecorder.Call] { _spy.recorder.all }

    /// The recorded calls that `call` matches, in order.
    ///
    /// ```swift
    /// let ids = users.calls(to: .fetch).map { $0.arguments[0] }
    /// #expect(ids == [1, 2])
    /// ```
    public func calls(to call: Call) -> [CallRecorder.Call] {
        _spy.recorder.all.filter(call.expected.matches)
    }

    /// Whether reading one of the spy's properties is recorded as a call. Default false.
    ///
    /// A read is how code gets at a property, not something it tells the real object: a screen that reads
    /// `map.delegate` ten times has made no ten calls. So a spy answers reads (from a stub, or with the value
    /// last set) without recording them, and `expectNothingElse()` and
    /// exhaustive mode never see them. Setters are always recorded (`.setDelegate(model)`), and so are
    /// subscripts, whose arguments say something. Turn it on to expect reads like any call:
    ///
    /// ```swift
    /// let map = MapViewProvidableSpy()
    /// map.recordsPropertyReads = true
    /// map.stub(.delegate, returning: nil)   // or set it: a read unstubbed and unset is reported
    /// _ = map.delegate
    /// map.expectCalled(.delegate)
    /// ```
    public var recordsPropertyReads: Bool {
        get { _spy.recordsPropertyReads }
        set { _spy.recordsPropertyReads = newValue }
    }

    /// Forgets the recorded calls (and which of them expectations have accounted for). Stubs and the values
    /// set on properties stay.
    public func clear() {
        _spy.recorder.clear()
    }

    /// The recorder and stubs of the installed spy of this type, for a static requirement's generated
    /// body; a stand-in that reports every call when none is installed (see ``withStaticCalls(_:)``).
    ///
    /// - Parameters:
    ///   - fileID: Where the stand-in reports calls: the `@Spy` attribute, for generated code.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    /// - Returns: The state of the spy installed by the innermost ``withStaticCalls(_:)``, or the stand-in.
    public static func _spyStatic(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) -> SpyState {
        StaticSpies.installed[ObjectIdentifier(Self.self)]
            ?? SpyState(standInFor: Self.self, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
