import TallyTesting

/// An `inout` argument on its way into a spy, which a stub can read and write: what the stub leaves in
/// ``value`` is what the caller's variable holds when the call returns.
///
/// Generated spies pass each `inout` parameter in one, and the stub for such a member names it as the
/// parameter's type (Swift's parameter packs cannot carry `inout`, so the closure cannot take the value
/// `inout` itself):
///
/// ```swift
/// @Spy
/// protocol Formatter {
///     func normalize(_ text: inout String)
/// }
/// ```
///
/// ```swift
/// let formatter = FormatterSpy()
/// formatter.stub(.normalize) { (text: SpyInout<String>) in text.value = text.value.lowercased() }
/// var text = "Hello"
/// formatter.normalize(&text)                      // text == "hello"
/// formatter.expectCalled(.normalize("Hello"))     // calls match the value passed in
/// let written = formatter.calls(to: .normalize).first?.written  // [0: "hello"]: the value written back
/// ```
///
/// The call is recorded with the value the caller passed; when it returns, the value written back is added
/// to it (`CallRecorder.Call.written`). Without a stub the value comes back unchanged.
///
/// A `SpyInout` lives for one call, on the caller's thread or task: a stub must not keep it or hand it to
/// another thread.
public final class SpyInout<Value>: @unchecked Sendable {
    // @unchecked Sendable: the box crosses into the spy's `[Any?]` arguments and its `@Sendable` stubs, but
    // only the one call it belongs to touches it, on that call's thread or task (the generated member, the
    // recording, the stub it runs, then `finish()`), one after another.

    /// The argument's current value: what the caller passed, until a stub writes another.
    public var value: Value

    /// Where the call was recorded, once it is: the recorder, the call's order and the argument's index.
    private var recorded: (recorder: CallRecorder, order: Int, index: Int)?

    /// Wraps the value an `inout` parameter holds when the call starts. For the generated members.
    ///
    /// - Parameter value: The caller's value.
    public init(_ value: Value) {
        self.value = value
    }

    /// Ends the call: records what the stub left in ``value`` as the value written back, and returns it
    /// for the generated member to assign to its parameter.
    ///
    /// - Returns: ``value``.
    public func finish() -> Value {
        if let (recorder, order, index) = recorded {
            recorder.recordWritten(value, at: index, ofCallOrdered: order)
        }
        return value
    }
}

/// What the recording of a call sees of a ``SpyInout`` of any type.
protocol AnySpyInout: AnyObject {
    var currentValue: Any { get }
    func markRecorded(_ recorder: CallRecorder, order: Int, index: Int)
}

extension SpyInout: AnySpyInout {
    var currentValue: Any { value }

    func markRecorded(_ recorder: CallRecorder, order: Int, index: Int) {
        recorded = (recorder, order, index)
    }
}

extension SpyState {
    /// A `borrowing` or `consuming` argument as the spy records it: a copy of a copyable value.
    ///
    /// - Parameter value: The argument.
    /// - Returns: A copy of `value`.
    public static func borrowed<T>(_ value: borrowing T) -> Any? {
        copy value
    }

    /// A noncopyable argument as the spy records it and hands it to stubs: its type's name,
    /// `<noncopyable Token>`, since the value itself cannot be kept.
    ///
    /// - Parameter value: The argument.
    /// - Returns: A `CallRecorder.Argument` naming the type.
    public static func borrowed<T: ~Copyable>(_ value: borrowing T) -> Any? {
        CallRecorder.Argument.dump("<noncopyable \(String(describing: T.self))>")
    }
}
