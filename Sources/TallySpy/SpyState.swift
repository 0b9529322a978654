import IssueReporting
import Tally
@_exported import TallyTesting

/// What a generated spy holds: its ``CallRecorder``, its stubs and the values set on its properties.
///
/// `@Spy` gives every spy one `SpyState` and implements each requirement with one call into it (see
/// ``answer(_:_:pattern:storedAs:reading:storing:weakly:standIn:)`` and its relatives), so the spy itself has no
/// mutable state. Tests use the spy's own API (``SpyProtocol``) instead; this type is public because the
/// generated code lives in the test's module.
///
/// Thread safety: the recorder, the stubs and the stored values are each guarded by a lock, so calls,
/// stubs and expectations may happen on any thread at once.
public final class SpyState: Sendable {
    /// Records every call; expectations and waits read it.
    public let recorder: CallRecorder

    /// The spy's type name, for messages: `UserServiceSpy`.
    let spyName: String

    /// Where the spy was created: unstubbed calls are reported there, since the call itself happens in
    /// the code under test.
    let location: Location

    /// Whether this state stands in for a spy that is not installed (a static call made outside
    /// `withStaticCalls`): it records nothing and reports every call.
    let isStandIn: Bool

    let storage = Locked(Storage())

    /// Values set through property and subscript setters, by getter name and index arguments. The stubs
    /// live in the recorder, attached to their method, so a call and its stubs are read under one lock.
    struct Storage {
        var stored: [StoredKey: StoredValue] = [:]
    }

    struct StoredKey: Hashable {
        var member: String
        var index: [CallRecorder.Argument]
    }

    /// A value a setter received. Not `Sendable` in general (a delegate, a view): the spy hands it back
    /// to the getter exactly as it was set, which is what the real property would do. `@unchecked Sendable`:
    /// the spy only stores and reads it inside `storage`'s lock and never touches the value itself; sharing it
    /// across threads is the code under test's choice, as it would be with the real property.
    ///
    /// A class instance set on an optional property is held weakly, as UIKit holds a delegate: the spy
    /// never keeps it alive, and the getter answers nil once it is gone.
    struct StoredValue: @unchecked Sendable {
        private let strong: Any?
        private weak var object: AnyObject?
        private let isWeak: Bool

        init(_ value: Any, weakly: Bool) {
            if weakly, Swift.type(of: value) is AnyClass {
                strong = nil
                object = value as AnyObject
                isWeak = true
            } else {
                strong = value
                isWeak = false
            }
        }

        /// The value as it was set, or nil (`Optional<Any>.none`) for a weakly held object that is gone.
        var current: Any {
            guard isWeak else { return strong as Any }
            guard let object else { return Optional<Any>.none as Any }
            return object
        }
    }

    /// Whether the getters of properties record their reads; see `SpyProtocol.recordsPropertyReads`.
    let readsRecorded = Locked(false)

    var recordsPropertyReads: Bool {
        get { readsRecorded.current }
        set { readsRecorded.withLock { $0 = newValue } }
    }

    /// Creates the state of a new spy. Generated spies call it from their initializer.
    ///
    /// - Parameters:
    ///   - spy: The spy's type, named in messages.
    ///   - mode: ``CallRecorder/Mode/strict`` reports each unstubbed call to a member that returns a value;
    ///     ``CallRecorder/Mode/relaxed`` returns the default quietly.
    ///   - fileID: Where unstubbed calls are reported: the line that created the spy.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    public init(
        for spy: Any.Type, mode: CallRecorder.Mode, fileID: StaticString, filePath: StaticString, line: UInt,
        column: UInt
    ) {
        // Exhaustive mode names the spy's type and reports at the line that created the spy.
        self.recorder = CallRecorder(
            mode: mode, name: String(describing: spy), fileID: fileID, filePath: filePath, line: line, column: column)
        self.spyName = String(describing: spy)
        self.location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
        self.isStandIn = false
    }

    /// The stand-in for static calls made where no spy of `spy`'s type is installed.
    init(standInFor spy: Any.Type, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
        self.recorder = CallRecorder(mode: .strict)
        self.spyName = String(describing: spy)
        self.location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
        self.isStandIn = true
    }

    /// Records a call and returns it with its method's stubs, or nil for the stand-in, which reports the call
    /// instead.
    func record(_ method: String, _ arguments: [Any?]) -> (call: CallRecorder.Call, stubs: [Stub])? {
        guard !isStandIn else {
            report(Self.noInstalledSpyMessage(spy: spyName, method: method))
            return nil
        }
        var recorded = arguments
        var inouts: [(index: Int, box: any AnySpyInout)] = []
        for index in recorded.indices {
            if let closure = recorded[index] as? SpyClosure {
                recorded[index] = closure.isNil ? nil : CallRecorder.Argument.closure
            } else if let box = recorded[index] as? any AnySpyInout {
                recorded[index] = box.currentValue
                inouts.append((index, box))
            }
        }
        let location = location
        guard
            let (call, attachment) = recorder.recordCall(
                method, arguments: recorded, fileID: location.fileID, filePath: location.filePath,
                line: location.line, column: location.column)
        else { return nil }
        for (index, box) in inouts { box.markRecorded(recorder, order: call.order, index: index) }
        return (call, attachment as? [Stub] ?? [])
    }

    /// A property read the spy does not record: the call as messages would show it, with the stubs of its
    /// member; nil for the stand-in, which reports the read.
    func peek(_ method: String, _ arguments: [Any?]) -> (call: CallRecorder.Call, stubs: [Stub])? {
        guard !isStandIn else {
            report(Self.noInstalledSpyMessage(spy: spyName, method: method))
            return nil
        }
        let (call, attachment) = recorder.unrecordedCall(method, arguments: arguments)
        return (call, attachment as? [Stub] ?? [])
    }

    /// The arguments as the stubs receive them: closures unwrapped.
    static func passed(_ arguments: [Any?]) -> [Any] {
        arguments.map { argument -> Any in
            guard let argument else { return Optional<Any>.none as Any }
            guard let closure = argument as? SpyClosure else { return argument }
            return closure.value
        }
    }

    func report(_ message: String, at location: Location? = nil) {
        let location = location ?? self.location
        reportIssue(
            message, fileID: location.fileID, filePath: location.filePath, line: location.line,
            column: location.column)
    }
}

extension SpyState {
    /// A place in the source, carried to `reportIssue`.
    struct Location: Sendable {
        var fileID: StaticString
        var filePath: StaticString
        var line: UInt
        var column: UInt
    }
}

extension CallRecorder.Argument {
    /// How a spy records a closure argument: closures cannot be compared, so every one records as this.
    public static let closure = CallRecorder.Argument.dump("<closure>")

    /// How a spy records an optional closure: ``closure``, or `nil`.
    ///
    /// - Parameter closure: The closure, or nil.
    /// - Returns: ``closure``, or `.value(.null)` for nil.
    public static func closure(_ closure: Any?) -> CallRecorder.Argument {
        closure == nil ? nil : Self.closure
    }
}
