import TallyTesting

/// A call to a generated spy's member, as a test writes it: `.fetch(id: 1)` for that call with those
/// arguments, `.fetch` for a call to `fetch(id:)` with any arguments.
///
/// Every spy `@Spy` generates has a nested `Call` type conforming to this protocol, with one static member
/// per requirement of the protocol (and of the protocols it inherits that carry `@Spy`):
///
/// | requirement | any arguments | these arguments |
/// |---|---|---|
/// | `func fetch(id: Int) -> User` | `.fetch` | `.fetch(id: 1)` |
/// | `func reset()` | `.reset` | |
/// | `var name: String { get set }` | `.name`, `.setName` | `.setName("Ada")` |
/// | `subscript(index: Int) -> String` | `.subscript` | `.subscript(3)` |
/// | `init(key: String)` | `.initializer` | `.initializer(key: "k")` |
/// | `static func configure()` | `.configure` | |
///
/// Overloads share the name of their call with any arguments when they share a Swift name (`log(_:)`
/// taking a `String` or an `Int`); otherwise that name adds the argument labels: `.trackEvent` for
/// `track(event:)` beside `.trackEventType` for `track(eventType:)`. Their calls with arguments keep the
/// Swift spelling: `.track(event: e)`, `.track(eventType: "x")`.
///
/// A call with arguments compares each argument after the recorder's conversion
/// (`CallRecorder.Argument(_:)`), so literals compare with what the spy received, and a
/// closure argument compares as `CallRecorder.Argument.closure`: the calls leave closure
/// parameters out.
public protocol SpyCallProtocol: ExpectableCall, Hashable {
    /// Wraps a call the recorder can match. The generated static members use it.
    init(_ expected: CallRecorder.ExpectedCall)
}

extension SpyCallProtocol {
    /// The call as messages show it: `fetch(id: 1)`, or `fetch(id:) with any arguments`.
    public var description: String { expected.description }

    /// A call to `method` with exactly `arguments`: what a getter's call, which has no arguments, uses.
    ///
    /// - Parameters:
    ///   - method: The member's recorded name.
    ///   - arguments: The arguments, converted as the recorder converts them.
    public init(_ method: String, arguments: [Any?]) {
        self.init(CallRecorder.ExpectedCall(method: method, arguments: arguments.map(CallRecorder.Argument.init)))
    }
}
