/// A closure argument on its way into a spy: recorded as `CallRecorder.Argument.closure`
/// (or `nil`), and handed to stubs as it is, so a stub can call a completion handler.
///
/// Generated spies wrap each closure parameter in one; tests never need to.
///
/// ```swift
/// func load(_ id: String, completion: @escaping (Form) -> Void) {
///     return _spy.answer("load(_:completion:)", [id, SpyClosure(completion)], pattern: "load")
/// }
/// ```
public struct SpyClosure {
    /// The closure, or `nil` when an optional closure was `nil`.
    let value: Any
    /// Whether an optional closure was `nil`.
    let isNil: Bool

    /// Wraps a closure argument.
    ///
    /// - Parameter closure: The closure, of any function type, or an optional one.
    public init(_ closure: Any?) {
        self.value = closure as Any
        self.isNil = closure == nil
    }
}
