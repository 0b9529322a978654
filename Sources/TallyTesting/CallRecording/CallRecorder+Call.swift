import CustomDump

extension CallRecorder {
    /// One recorded call: the method's name, its arguments and its place in the order of all calls.
    ///
    /// ```swift
    /// let call = try #require(hippo.calls.all.first)
    /// #expect(call.method == "logEvent(named:properties:)")
    /// #expect(call.arguments == ["test", ["key": "value"]])
    /// print(call)  // logEvent(named: "test", properties: ["key": "value"])
    /// ```
    public struct Call: Sendable, Hashable {
        /// The method's name as the spy recorded it: `#function` by default, such as
        /// `logEvent(named:properties:)`.
        public let method: String

        /// The arguments, in order, converted when the call was recorded.
        public let arguments: [Argument]

        /// The call's place among the calls recorded by every ``CallRecorder`` in the process: a call with a
        /// smaller `order` was recorded first, even on another recorder.
        ///
        /// Use it to check the order of calls across two spies:
        ///
        /// ```swift
        /// let setDelegate = try #require(sdk.calls.all(to: "setDelegate(_:)").first)
        /// let load = try #require(sdk.calls.all(to: "loadFeedbackForm(_:)").first)
        /// #expect(setDelegate.order < load.order)
        /// ```
        public let order: Int

        /// What the call's `inout` parameters held when it returned, by argument index; their values
        /// before the call are in ``arguments``. Empty for a call without `inout` parameters, and for a
        /// call that has not returned yet.
        ///
        /// ```swift
        /// // func normalize(_ value: inout String), called with "Hello", its stub lowercasing it
        /// let call = try #require(spy.calls(to: .normalize).first)
        /// #expect(call.arguments == ["Hello"])
        /// #expect(call.written == [0: "hello"])
        /// print(call)  // normalize("Hello" -> "hello")
        /// ```
        public let written: [Int: Argument]

        init(method: String, arguments: [Argument], order: Int, written: [Int: Argument] = [:]) {
            self.method = method
            self.arguments = arguments
            self.order = order
            self.written = written
        }
    }
}

extension CallRecorder.Call: CustomStringConvertible {
    /// The call as Swift would write it, with the method's argument labels:
    /// `logEvent(named: "test", properties: ["key": "value"])`.
    public var description: String {
        CallRecorder.render(method: method, arguments: arguments, written: written)
    }
}

extension CallRecorder.Call: CustomDumpReflectable {
    /// The method and its labelled arguments; ``order`` is left out so that diffs show only what a test
    /// compares.
    public var customDumpMirror: Mirror {
        Mirror(
            self,
            children: [
                "method": method,
                "arguments": CallRecorder.LabelledArguments(method: method, arguments: arguments),
            ],
            displayStyle: .struct
        )
    }
}

extension CallRecorder {
    /// A call's arguments as a tuple labelled like the method: `(named: "test", properties: [...])`.
    struct LabelledArguments: CustomDumpReflectable {
        var method: String
        var arguments: [Argument]

        var customDumpMirror: Mirror {
            let labels = CallRecorder.labels(of: method, count: arguments.count)
            return Mirror(
                self,
                children: zip(labels, arguments).map { (label: $0.0, value: $0.1 as Any) },
                displayStyle: .tuple
            )
        }
    }

    /// The argument labels Swift spells in `method`, one per argument, nil for `_`; all nil when the name
    /// has no labels to match the count (a name without parentheses, or a different number of arguments).
    static func labels(of method: String, count: Int) -> [String?] {
        let unlabelled = [String?](repeating: nil, count: count)
        guard let open = method.firstIndex(of: "("), method.last == ")" else { return unlabelled }
        let inside = method[method.index(after: open)..<method.index(before: method.endIndex)]
        let labels = inside.split(separator: ":", omittingEmptySubsequences: false).dropLast()
        guard labels.count == count, inside.isEmpty || inside.last == ":" else { return unlabelled }
        return labels.map { $0 == "_" ? nil : String($0) }
    }

    /// `logEvent(named: "test", properties: nil)`; `delegate(nil)` for a name without parentheses, or
    /// `delegate` with no arguments (a property read); `fetch(id:) with (1, 2)` when the arguments don't fit
    /// the labels.
    static func render(method: String, arguments: [Argument], written: [Int: Argument] = [:]) -> String {
        guard written.isEmpty else {
            // An inout argument shows what it held before and after: `normalize("Hello" -> "hello")`.
            let shown = arguments.indices.map { index in
                Argument.dump(
                    arguments[index].description + (written[index].map { " -> " + $0.description } ?? ""))
            }
            return render(method: method, arguments: shown)
        }
        guard let open = method.firstIndex(of: "("), method.last == ")" else {
            guard !arguments.isEmpty else { return method }
            return method + "(" + arguments.map(\.description).joined(separator: ", ") + ")"
        }
        let inside = method[method.index(after: open)..<method.index(before: method.endIndex)]
        let labelCount = inside.reduce(0) { $0 + ($1 == ":" ? 1 : 0) }
        guard labelCount == arguments.count, inside.isEmpty || inside.last == ":" else {
            return method + " with (" + arguments.map(\.description).joined(separator: ", ") + ")"
        }
        let labels = labels(of: method, count: arguments.count)
        let list = zip(labels, arguments).map { label, argument in
            label.map { "\($0): \(argument)" } ?? argument.description
        }
        return method[..<open] + "(" + list.joined(separator: ", ") + ")"
    }
}
