/// A type with a value a spy returns when a member returning it was not stubbed.
///
/// Without a stub, a generated spy answers with its return type's default: `()`, or the empty literal of
/// the first of these the type is expressible by: `nil`, `false`, `0`, `0.0`, `""`, `[]`, `[:]`. So an
/// unstubbed `Int` is `0`, `String?` is `nil`, `[User]` is `[]`. A type of yours gets a default by
/// conforming to this protocol:
///
/// ```swift
/// extension User: SpyDefaultValue {
///     public static var spyDefaultValue: User { User(id: 0, name: "") }
/// }
/// ```
///
/// In the default `CallRecorder.Mode.strict` mode the spy still reports each unstubbed
/// call, then returns the default; in `CallRecorder.Mode.relaxed` mode it returns the default
/// quietly. A type with no default makes an unstubbed call throw ``SpyError`` if the member throws, and
/// otherwise stop the test process with a message naming the call: there is no value to return.
public protocol SpyDefaultValue {
    /// The value an unstubbed member returns.
    static var spyDefaultValue: Self { get }
}

/// The defaults described in ``SpyDefaultValue``.
enum SpyDefaults {
    static func value<R>(_ type: R.Type) -> R? {
        anyValue(type) as? R
    }

    static func anyValue(_ type: Any.Type) -> Any? {
        if type == Void.self { return () }
        if let type = type as? any SpyDefaultValue.Type { return type.spyDefaultValue }
        if let type = type as? any ExpressibleByNilLiteral.Type { return nilValue(type) }
        if let type = type as? any ExpressibleByBooleanLiteral.Type { return falseValue(type) }
        if let type = type as? any ExpressibleByIntegerLiteral.Type { return zeroValue(type) }
        if let type = type as? any ExpressibleByFloatLiteral.Type { return zeroPointZeroValue(type) }
        if let type = type as? any ExpressibleByStringLiteral.Type { return emptyStringValue(type) }
        if let type = type as? any ExpressibleByArrayLiteral.Type { return emptyArrayValue(type) }
        if let type = type as? any ExpressibleByDictionaryLiteral.Type { return emptyDictionaryValue(type) }
        return nil
    }

    private static func nilValue<T: ExpressibleByNilLiteral>(_: T.Type) -> T { nil }
    private static func falseValue<T: ExpressibleByBooleanLiteral>(_: T.Type) -> T { false }
    private static func zeroValue<T: ExpressibleByIntegerLiteral>(_: T.Type) -> T { 0 }
    private static func zeroPointZeroValue<T: ExpressibleByFloatLiteral>(_: T.Type) -> T { 0.0 }
    private static func emptyStringValue<T: ExpressibleByStringLiteral>(_: T.Type) -> T { "" }
    private static func emptyArrayValue<T: ExpressibleByArrayLiteral>(_: T.Type) -> T { [] }
    private static func emptyDictionaryValue<T: ExpressibleByDictionaryLiteral>(_: T.Type) -> T { [:] }
}
