import CustomDump
import Tally

extension CallRecorder {
    /// One argument of a recorded call, as a value a test compares without casts.
    ///
    /// A spy passes its arguments as they are (`String`, `Int`, `[String: Any]?`, a model type...) and the
    /// recorder converts each one when the call is recorded:
    /// - JSON-like values (strings, numbers, Booleans, dates, URLs, UUIDs, `nil`, arrays and string-keyed
    ///   dictionaries of those) become ``value(_:)`` through `PropertyValue.init(any:)`, so
    ///   `["key": "value"] as [String: Any]` compares equal to the literal `["key": "value"]`;
    /// - anything else becomes ``dump(_:)``, its CustomDump text, which compares equal to the text of an
    ///   equal value.
    ///
    /// Arguments are literals too, so a test reads like the call it expects:
    ///
    /// ```swift
    /// let call = try #require(hippo.calls.all.first)
    /// #expect(call.arguments == ["test", ["key": "value"]])
    /// #expect(call.arguments[1].value?.objectValue?["key"] == "value")
    /// ```
    ///
    /// Converting at once keeps the recorder `Sendable` and the recording safe from later mutation of a
    /// reference-type argument: the recorder holds what the argument was when the call happened.
    public enum Argument: Sendable, Hashable {
        /// A JSON-like argument, converted by `PropertyValue.init(any:)`. `nil` is `.value(.null)`.
        case value(PropertyValue)
        /// Any other argument, as the text `customDump` writes for it, for example
        /// `MenuItem(name: "Pizza", price: 9.5)`.
        case dump(String)
        /// A class instance recorded by identity (see ``byIdentity(_:)``): it equals an argument made from the
        /// same object and shows as its type name, `<MapScreenModel>`, never its fields or its address.
        case instance(type: String, id: ObjectIdentifier)

        /// Converts an argument as the recorder does: a ``CallRecorder/Argument`` stays as it is, a
        /// JSON-like value becomes ``value(_:)``, anything else ``dump(_:)``.
        ///
        /// ```swift
        /// let object = CallRecorder.Argument(["key": "value"] as [String: Any]?)  // .value(["key": "value"])
        /// let null = CallRecorder.Argument(nil)                                   // .value(.null)
        /// let item = CallRecorder.Argument(MenuItem(name: "Pizza"))               // .dump("MenuItem(name: \"Pizza\")")
        /// ```
        public init(_ argument: Any?) {
            guard let argument else {
                self = .value(.null)
                return
            }
            if let value = Self.commonValue(argument) {
                self = .value(value)
            } else if let argument = argument as? Argument {
                self = argument
            } else if let value = PropertyValue(any: argument) {
                self = .value(value)
            } else {
                var text = ""
                customDump(argument, to: &text)
                self = .dump(text)
            }
        }

        /// The conversion of `PropertyValue.init(any:)` for the types spies pass most (`String`, `Int`,
        /// `Double`, `Bool`, `[String: Any]`, `[Any]`), recognised by their exact type rather than by a
        /// chain of dynamic casts, which costs microseconds per dictionary. Nil for any other type, and for a
        /// collection holding one, so that `PropertyValue.init(any:)` decides those.
        private static func commonValue(_ value: Any) -> PropertyValue? {
            let type = ObjectIdentifier(Swift.type(of: value))
            if type == ObjectIdentifier(String.self) { return .string(value as! String) }
            if type == ObjectIdentifier(Int.self) { return .int(value as! Int) }
            if type == ObjectIdentifier(Double.self) { return .double(value as! Double) }
            if type == ObjectIdentifier(Bool.self) { return .bool(value as! Bool) }
            if type == ObjectIdentifier([String: Any].self) {
                var members: [String: PropertyValue] = [:]
                for (key, member) in value as! [String: Any] {
                    guard let converted = commonValue(member) ?? PropertyValue(any: member) else { return nil }
                    members[key] = converted
                }
                return .object(members)
            }
            if type == ObjectIdentifier([Any].self) {
                var elements: [PropertyValue] = []
                for element in value as! [Any] {
                    guard let converted = commonValue(element) ?? PropertyValue(any: element) else { return nil }
                    elements.append(converted)
                }
                return .array(elements)
            }
            return nil
        }

        /// Converts an argument as ``init(_:)`` does, except that a class instance becomes
        /// ``instance(type:id:)``: what `@Spy` records for the value given to a property's setter, such as a
        /// delegate, whose dump would hold a whole object graph, locks and addresses.
        ///
        /// ```swift
        /// let model = CallRecorder.Argument.byIdentity(screenModel)  // .instance(type: "MapScreenModel", id: ...)
        /// let home = CallRecorder.Argument.byIdentity("Home")         // .value("Home")
        /// ```
        ///
        /// The recorder keeps no reference to the object, so an identifier may be reused by an object created
        /// after this one is freed.
        public static func byIdentity(_ argument: Any?) -> Argument {
            // A Foundation object such as NSString or NSNumber stays a value.
            guard let argument, Swift.type(of: argument) is AnyClass, PropertyValue(any: argument) == nil else {
                return Argument(argument)
            }
            let object = argument as AnyObject
            return .instance(type: String(describing: Swift.type(of: argument)), id: ObjectIdentifier(object))
        }

        /// The JSON-like value, if this is ``value(_:)``.
        public var value: PropertyValue? {
            if case .value(let value) = self { return value }
            return nil
        }
    }
}

// MARK: - Literals

extension CallRecorder.Argument: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    /// A string argument: `"test"`.
    public init(stringLiteral value: String) { self = .value(.string(value)) }
}

extension CallRecorder.Argument: ExpressibleByIntegerLiteral {
    /// An integer argument: `42`.
    public init(integerLiteral value: Int) { self = .value(.int(value)) }
}

extension CallRecorder.Argument: ExpressibleByFloatLiteral {
    /// A floating-point argument: `9.5`.
    public init(floatLiteral value: Double) { self = .value(.double(value)) }
}

extension CallRecorder.Argument: ExpressibleByBooleanLiteral {
    /// A Boolean argument: `true`.
    public init(booleanLiteral value: Bool) { self = .value(.bool(value)) }
}

extension CallRecorder.Argument: ExpressibleByNilLiteral {
    /// A `nil` argument, whatever its optional type was.
    public init(nilLiteral: ()) { self = .value(.null) }
}

extension CallRecorder.Argument: ExpressibleByArrayLiteral {
    /// An array argument: `["a", "b"]`.
    public init(arrayLiteral elements: PropertyValue...) { self = .value(.array(elements)) }
}

extension CallRecorder.Argument: ExpressibleByDictionaryLiteral {
    /// A dictionary argument: `["key": "value"]`. A repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, PropertyValue)...) {
        self = .value(.object(Dictionary(elements, uniquingKeysWith: { _, last in last })))
    }
}

// MARK: - Description

extension CallRecorder.Argument: CustomStringConvertible {
    /// The argument on one line, as Swift would write it: `"test"`, `42`, `nil`, `["key": "value"]` (keys
    /// sorted), or the CustomDump text of anything else.
    public var description: String {
        switch self {
        case .value(let value): return Self.swiftText(value)
        case .dump(let text): return Self.oneLine(text)
        case .instance(let type, _): return "<\(type)>"
        }
    }

    private static func swiftText(_ value: PropertyValue) -> String {
        switch value {
        case .string(let string): return string.debugDescription
        case .int(let int): return String(int)
        case .double(let double): return String(double)
        case .bigNumber(let number): return number.text
        case .bool(let bool): return String(bool)
        case .null: return "nil"
        case .array(let elements): return "[" + elements.map(swiftText).joined(separator: ", ") + "]"
        case .object(let members):
            guard !members.isEmpty else { return "[:]" }
            let pairs = members.sorted { $0.key < $1.key }
            return "[" + pairs.map { "\($0.key.debugDescription): \(swiftText($0.value))" }.joined(separator: ", ")
                + "]"
        }
    }

    /// Folds CustomDump's indented lines into one: `MenuItem(\n  name: "Pizza"\n)` -> `MenuItem(name: "Pizza")`.
    private static func oneLine(_ text: String) -> String {
        let lines = text.split(separator: "\n").map { $0.drop(while: \.isWhitespace) }
        guard lines.count > 1 else { return text }
        var result = ""
        for line in lines {
            if !result.isEmpty, !(result.last == "(" || result.last == "["),
                !(line.first == ")" || line.first == "]")
            {
                result += " "
            }
            result += line
        }
        return result
    }
}

// MARK: - CustomDump

extension CallRecorder.Argument: CustomDumpRepresentable {
    /// What CustomDump shows in a diff: plain Swift values (`"test"`, `["key": "value"]`, `nil`), or the
    /// recorded CustomDump text as it was.
    public var customDumpValue: Any {
        switch self {
        case .value(let value): return Self.swiftValue(value)
        case .dump(let text): return DumpText(text: text)
        case .instance(let type, _): return DumpText(text: "<\(type)>")
        }
    }

    private static func swiftValue(_ value: PropertyValue) -> Any {
        switch value {
        case .string(let string): return string
        case .int(let int): return int
        case .double(let double): return double
        case .bigNumber(let number): return number
        case .bool(let bool): return bool
        case .null: return Any?.none as Any
        case .array(let elements): return elements.map(swiftValue)
        case .object(let members): return members.mapValues(swiftValue)
        }
    }

    private struct DumpText: CustomDumpStringConvertible {
        var text: String
        var customDumpDescription: String { text }
    }
}
