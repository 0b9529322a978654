import IssueReporting
import Tally

/// Records the calls a hand-written spy receives, so a test can expect on them and stub what they return.
///
/// A spy for any protocol holds a recorder and records each call in one line: the method name comes from
/// `#function`, the arguments become ``Argument`` values that compare without casts.
///
/// ```swift
/// final class HippoAnalyticsClientSpy: HippoAnalyticsClientInterface, Sendable {
///     let calls = CallRecorder()
///
///     func logEvent(named name: String, properties: [String: Any]?) {
///         calls.record(arguments: name, properties)
///     }
/// }
///
/// @Test func logsEventsWithTheirProperties() {
///     let hippo = HippoAnalyticsClientSpy()
///     EventLogger(hippoAnalyticsClient: hippo).log(name: "test", properties: ["key": "value"])
///
///     hippo.calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "value"])
///     hippo.calls.expectNothingElse()
/// }
/// ```
///
/// Expectations (``expectCalled(_:fileID:filePath:line:column:)`` and its relatives) report one issue
/// through IssueReporting at the test's own line, in XCTest and Swift Testing alike. The message says what
/// was expected, lists the recorded calls and shows a CustomDump diff against the closest recorded call.
///
/// A method that returns a value records with ``record(_:returning:default:arguments:fileID:filePath:line:column:)``
/// and returns what the test stubbed with ``stub(_:returning:)``. In the default ``Mode/strict`` mode an
/// unstubbed call is an issue; in ``Mode/relaxed`` mode it quietly returns the default named at the call
/// site.
///
/// A spy for an SDK with static methods has no instance to hold a recorder: it records into
/// ``current``, the recorder the running test installed with ``withCurrent(_:operation:)``.
///
/// ## Thread safety
/// A recorder is `Sendable`. Recording, stubbing, reading and expecting may happen on any thread at once;
/// each call is appended under a lock, so calls from one thread keep their order and none is lost.
///
/// ## Topics
/// ### Creating a recorder
/// - ``init(mode:fileID:filePath:line:column:)``
/// - ``Mode``
/// - ``mode``
/// - ``isExhaustive``
///
/// ### Recording calls
/// - ``record(_:arguments:fileID:filePath:line:column:)``
/// - ``Call``
/// - ``Argument``
///
/// ### Reading what was recorded
/// - ``all``
/// - ``all(to:)``
/// - ``count``
/// - ``count(to:)``
/// - ``clear()``
///
/// ### Expecting calls
/// - ``expectCalled(_:fileID:filePath:line:column:)``
/// - ``expectCalled(_:with:_:fileID:filePath:line:column:)``
/// - ``expectNotCalled(_:fileID:filePath:line:column:)``
/// - ``expectCount(_:of:fileID:filePath:line:column:)``
/// - ``expectCalls(inOrder:fileID:filePath:line:column:)``
/// - ``expectNothingElse(fileID:filePath:line:column:)``
/// - ``ExpectedCall``
///
/// ### Stubbing return values
/// - ``stub(_:returning:)``
/// - ``stub(_:using:)``
/// - ``stub(_:throwing:)``
/// - ``record(_:returning:default:arguments:fileID:filePath:line:column:)``
/// - ``recordThrowing(_:returning:default:arguments:fileID:filePath:line:column:)``
/// - ``recordThrowing(_:arguments:fileID:filePath:line:column:)``
///
/// ### Static SDKs
/// - ``current``
/// - ``hasCurrent``
/// - ``withCurrent(_:operation:)``
/// - ``withCurrent(_:isolation:operation:)``
public final class CallRecorder: CallExpecting {
    /// What a recorder does when a method that returns a value is called without a stub.
    public enum Mode: Sendable, Hashable {
        /// An unstubbed call reports an issue, then returns the default named at the call site.
        case strict
        /// An unstubbed call returns the default named at the call site without reporting anything.
        case relaxed
    }

    /// The recorder itself, where ``CallExpecting``'s expectations look.
    public var recorder: CallRecorder { self }

    /// The mode this recorder was created with.
    public let mode: Mode

    /// What exhaustive mode calls the recorder in its messages: `CallRecorder`, or the spy it serves.
    package let name: String
    private let exhaustive = Locked(true)

    /// Whether exhaustive mode checks this recorder at the end of the test. Default true.
    ///
    /// Set it to false for a spy whose calls the test does not mean to account for one by one:
    ///
    /// ```swift
    /// let sdk = GoogleSDKSpy()
    /// sdk.calls.isExhaustive = false
    /// ```
    public var isExhaustive: Bool {
        get { exhaustive.current }
        set { exhaustive.withLock { $0 = newValue } }
    }

    /// Whether this is the stand-in ``current`` returns when no recorder is installed: it keeps nothing
    /// and reports every call recorded into it.
    let isStandIn: Bool

    struct Stub {
        var answer: @Sendable (Call) throws -> Any
    }

    struct State {
        /// The calls, what expectations accounted for, and who waits: the engine every recorder shares.
        var ledger = Ledger<Call>()
        var stubs: [String: Stub] = [:]
        /// Per method, what TallySpy keeps beside the calls (its typed stubs), read under the same lock as
        /// the call is appended.
        var attachments: [String: any Sendable] = [:]
    }

    let state = Locked(State())

    /// Creates an empty recorder.
    ///
    /// In exhaustive mode (``ExhaustiveTrait``, ``withExhaustiveCheck(_:fileID:filePath:line:column:operation:)``)
    /// the recorder registers with the test's check: a call no expectation accounts for fails the test when
    /// it ends. It is reported at the line that created the recorder when that line is in the test's file,
    /// otherwise at the test. A spy that creates its recorder in a stored property can pass its own
    /// initializer's caller as the place instead.
    ///
    /// - Parameters:
    ///   - mode: ``Mode/strict`` (the default) reports an issue when a method that returns a value is called
    ///     without a stub; ``Mode/relaxed`` returns the call site's default silently.
    ///   - fileID: where exhaustive mode reports unaccounted calls; the caller's by default.
    ///   - filePath: see `fileID`.
    ///   - line: see `fileID`.
    ///   - column: see `fileID`.
    public convenience init(
        mode: Mode = .strict, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        self.init(mode: mode, name: "CallRecorder", fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Creates an empty recorder that exhaustive mode calls `name`, such as the generated spy's type.
    package init(
        mode: Mode, name: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
    ) {
        self.mode = mode
        self.name = name
        self.isStandIn = false
        ExhaustiveCheck.register(
            self, at: SourcePlace(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    init(standIn: Void) {
        self.mode = .strict
        self.name = "CallRecorder"
        self.isStandIn = true
    }

    /// Records a call to a method that returns nothing.
    ///
    /// Call it first thing in the spy's method. The method name defaults to `#function`, which Swift spells
    /// with the argument labels, such as `logEvent(named:properties:)`; expectations use that name.
    /// Each argument is converted at once by ``Argument/init(_:)``: to a `PropertyValue` when it is one of
    /// the JSON-like types, otherwise to its CustomDump text. Pass each argument separately: an array is one
    /// argument.
    ///
    /// ```swift
    /// func logEvent(named name: String, properties: [String: Any]?) {
    ///     calls.record(arguments: name, properties)
    /// }
    /// ```
    ///
    /// Record what a test compares; keep closures such as completion handlers in the spy itself if the test
    /// needs to call them. If a stub is set for the method (with ``stub(_:using:)``), it runs, for its side
    /// effects.
    ///
    /// - Parameters:
    ///   - method: The method's name; `#function` by default.
    ///   - arguments: The call's arguments, in order.
    ///   - fileID: The file ID where an issue about this call is reported (only the ``current`` stand-in
    ///     and a throwing stub report one); the spy's by default.
    ///   - filePath: The file path where such an issue is reported; the spy's by default.
    ///   - line: The line where such an issue is reported; the spy's by default.
    ///   - column: The column where such an issue is reported; the spy's by default.
    public func record(
        _ method: String = #function,
        arguments: Any?...,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let (call, stub) = append(method, arguments, location) else { return }
        guard let stub else { return }
        do {
            _ = try stub.answer(call)
        } catch {
            report(Self.throwingStubMessage(call, error: error, recordName: "record(arguments:)"), at: location)
        }
    }

    /// Every call recorded so far, in the order the recorder received them.
    public var all: [Call] { state.withLock { $0.ledger.entries } }

    /// The recorded calls to `method`, in order.
    ///
    /// ```swift
    /// let names = hippo.calls.all(to: "logEvent(named:properties:)").map { $0.arguments[0] }
    /// #expect(names == ["menu_item_detail_visited", "menu_item_ordered"])
    /// ```
    public func all(to method: String) -> [Call] {
        state.withLock { $0.ledger.entries.filter { $0.method == method } }
    }

    /// How many calls were recorded.
    public var count: Int { state.withLock { $0.ledger.count } }

    /// How many calls to `method` were recorded.
    public func count(to method: String) -> Int {
        state.withLock { state in state.ledger.entries.reduce(0) { $0 + ($1.method == method ? 1 : 0) } }
    }

    /// Forgets the recorded calls (and which of them expectations have accounted for). Stubs and the mode
    /// stay.
    public func clear() {
        let watchers = state.withLock { $0.ledger.removeAll() }
        notify(watchers, count: 0)
    }

    /// Appends a call and returns it with the method's stub, or nil for the stand-in (which reports).
    func append(_ method: String, _ arguments: [Any?], _ location: Location) -> (Call, Stub?)? {
        appendWithAttachment(method, arguments, location).map { ($0.0, $0.1) }
    }

    /// Appends a call and returns it with the method's stub and attachment, or nil for the stand-in (which
    /// reports).
    private func appendWithAttachment(
        _ method: String, _ arguments: [Any?], _ location: Location
    ) -> (Call, Stub?, (any Sendable)?)? {
        let converted = arguments.map(Argument.init)
        guard !isStandIn else {
            let call = Call(method: method, arguments: converted, order: -1)
            report(Self.noCurrentRecorderMessage(call), at: location)
            return nil
        }
        let (call, stub, attachment, watchers, count) = state.withLock { state in
            let call = Call(method: method, arguments: converted, order: OrderCounter.next())
            let watchers = state.ledger.append(call)
            return (
                call, state.stubs.isEmpty ? nil : state.stubs[method],
                state.attachments.isEmpty ? nil : state.attachments[method], watchers, state.ledger.count
            )
        }
        notify(watchers, count: count)
        return (call, stub, attachment)
    }

    /// Records a call and returns it with what TallySpy attached to its method (its stubs), in one lock: the
    /// recorder's own stubs are not consulted. Nil for the ``current`` stand-in, which reports the call
    /// instead.
    package func recordCall(
        _ method: String, arguments: [Any?], fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
    ) -> (call: Call, attachment: (any Sendable)?)? {
        appendWithAttachment(
            method, arguments, Location(fileID: fileID, filePath: filePath, line: line, column: column)
        )
        .map { ($0.0, $0.2) }
    }

    /// Adds to a recorded call what its `inout` parameters held when it returned (see ``Call/written``).
    /// Nothing happens when the call is gone (cleared meanwhile).
    package func recordWritten(_ value: Any?, at index: Int, ofCallOrdered order: Int) {
        let argument = Argument(value)
        _ = state.withLock { state in
            state.ledger.updateLast(where: { $0.order == order }) { call in
                var written = call.written
                written[index] = argument
                return Call(method: call.method, arguments: call.arguments, order: call.order, written: written)
            }
        }
    }

    /// A call to `method` that is not recorded, with what TallySpy attached to the method: for a property
    /// read the spy answers without recording it.
    package func unrecordedCall(_ method: String, arguments: [Any?]) -> (call: Call, attachment: (any Sendable)?) {
        let call = Call(method: method, arguments: arguments.map(Argument.init), order: -1)
        return (call, state.withLock { $0.attachments[method] })
    }

    /// Changes what is attached to `method` (see `recordCall`), or to every method when `method` is nil.
    package func updateAttachment(for method: String?, _ update: ((any Sendable)?) -> (any Sendable)?) {
        state.withLock { state in
            guard let method else {
                state.attachments.removeAll()
                return
            }
            state.attachments[method] = update(state.attachments[method])
        }
    }

    /// The calls recorded from `index` on, for a waiter that counts new calls only.
    package func calls(from index: Int) -> [Call] {
        state.withLock { Array($0.ledger.entries[min(max(0, index), $0.ledger.count)...]) }
    }

    /// Calls `watcher` with the new count after every change (a call recorded, or ``clear()``), from the
    /// changing thread and outside the lock, until it returns true. It is also called once right away.
    ///
    /// - Returns: a token for ``unwatch(_:)``.
    @discardableResult
    package func watch(_ watcher: @escaping @Sendable (Int) -> Bool) -> UInt64 {
        let (token, count) = state.withLock { $0.ledger.addWatcher(watcher) }
        if watcher(count) { unwatch(token) }
        return token
    }

    /// Stops calling a watcher.
    package func unwatch(_ token: UInt64) {
        state.withLock { $0.ledger.removeWatcher(token) }
    }

    private func notify(_ watchers: [UInt64: Ledger<Call>.Watcher]?, count: Int) {
        Ledger<Call>.notify(watchers, count: count, unwatch: unwatch)
    }

    func report(_ message: String, at location: Location) {
        reportFailure(
            message, fileID: location.fileID, filePath: location.filePath, line: location.line,
            column: location.column)
    }
}

extension CallRecorder {
    /// The caller's place in the source, carried to `reportIssue`.
    typealias Location = SourcePlace

    /// The process-wide sequence behind ``Call/order``.
    enum OrderCounter {
        private static let counter = Locked(0)

        static func next() -> Int {
            counter.withLock { value in
                defer { value += 1 }
                return value
            }
        }
    }
}
