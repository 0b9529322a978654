import Tally
import TallyTesting

/// The entry points generated code calls: one per kind of requirement (sync or `async`, non-throwing,
/// `throws`, typed `throws(E)` or `rethrows`). Each records the call, then answers it: with the newest stub
/// for these arguments, else the newest stub for any arguments, else the value a setter stored (for a
/// property or subscript getter), else the return type's default (see ``SpyDefaultValue``).
///
/// Every entry point takes the same arguments:
/// - `method`: the recorded name, as Swift spells the member: `fetch(id:)`, `name`, `setName(_:)`.
/// - `arguments`: the call's arguments, closures wrapped in ``SpyClosure``.
/// - `pattern`: the name of the member's call with any arguments (`fetch` for `.fetch`), for messages.
/// - `storedAs`: for a getter, the member whose setter stores values (the getter's own name).
/// - `storing`: for a setter, the getter's name: the last argument is stored for it.
/// - `reading`: for a property's getter: the read is recorded only if the spy records property reads
///   (``SpyProtocol/recordsPropertyReads``); its stubs answer either way.
/// - `weakly`: for the setter of an optional property: a class instance is held weakly, as a delegate is.
/// - `standIn`: for an instance member returning `Self`: the spy itself, answered when nothing else does
///   (and reported as unstubbed in strict mode, like any default).
extension SpyState {
    /// Answers a call to a synchronous member that cannot throw.
    public func answer<R>(
        _ method: String, _ arguments: [Any?] = [], pattern: String, storedAs getter: String? = nil,
        reading: Bool = false, storing setter: String? = nil, weakly: Bool = false, standIn: R? = nil
    ) -> R {
        evaluate(
            resolve(method, arguments, getter, setter, R.self, reading: reading, weakly: weakly), pattern,
            standIn: standIn)
    }

    /// Answers a call to a synchronous member that `throws`.
    public func answerThrowing<R>(
        _ method: String, _ arguments: [Any?] = [], pattern: String, storedAs getter: String? = nil,
        reading: Bool = false, standIn: R? = nil
    ) throws -> R {
        try evaluateThrowing(
            resolve(method, arguments, getter, nil, R.self, reading: reading), pattern, standIn: standIn)
    }

    /// Answers a call to an `async` member that cannot throw.
    public func answerAsync<R>(
        _ method: String, _ arguments: [Any?] = [], pattern: String, storedAs getter: String? = nil,
        reading: Bool = false, standIn: R? = nil
    ) async -> R {
        let resolution = resolve(method, arguments, getter, nil, R.self, reading: reading)
        guard case .stub(let stub, let recorded, let passed) = resolution, case .async(let body) = stub.answer else {
            return evaluate(resolution, pattern, standIn: standIn)
        }
        do {
            if let value = cast(try await body(passed), R.self, stub, recorded) { return value }
        } catch let mismatch as StubSignatureMismatch {
            report(Self.signatureMessage(recorded, mismatch, stub: stub), at: stub.location)
        } catch {
            report(Self.cannotThrowMessage(recorded, error: error, stub: stub), at: stub.location)
        }
        return fallback(recorded, pattern, R.self, reportUnstubbed: false, standIn: standIn)
    }

    /// Answers a call to an `async throws` member.
    public func answerAsyncThrowing<R>(
        _ method: String, _ arguments: [Any?] = [], pattern: String, storedAs getter: String? = nil,
        reading: Bool = false, standIn: R? = nil
    ) async throws -> R {
        let resolution = resolve(method, arguments, getter, nil, R.self, reading: reading)
        guard case .stub(let stub, let recorded, let passed) = resolution, case .async(let body) = stub.answer else {
            return try evaluateThrowing(resolution, pattern, standIn: standIn)
        }
        do {
            if let value = cast(try await body(passed), R.self, stub, recorded) { return value }
        } catch let mismatch as StubSignatureMismatch {
            report(Self.signatureMessage(recorded, mismatch, stub: stub), at: stub.location)
        }
        return try fallbackThrowing(recorded, pattern, R.self, reportUnstubbed: false, standIn: standIn)
    }

    /// Answers a call to a member that throws only `E` (`throws(E)`, sync or `async`): an error of another
    /// type from a stub is reported, and the default returned.
    public func answerAsyncThrowing<R, E: Error>(
        _ method: String, _ arguments: [Any?] = [], pattern: String, storedAs getter: String? = nil,
        reading: Bool = false, throwing: E.Type, standIn: R? = nil
    ) async throws(E) -> R {
        do {
            return try await answerAsyncThrowing(
                method, arguments, pattern: pattern, storedAs: getter, reading: reading, standIn: standIn)
        } catch {
            return try narrow(error, method, pattern, as: E.self, standIn: standIn)
        }
    }

    /// The synchronous form of ``answerAsyncThrowing(_:_:pattern:storedAs:reading:throwing:standIn:)``.
    public func answerThrowing<R, E: Error>(
        _ method: String, _ arguments: [Any?] = [], pattern: String, storedAs getter: String? = nil,
        reading: Bool = false, throwing: E.Type, standIn: R? = nil
    ) throws(E) -> R {
        do {
            return try answerThrowing(
                method, arguments, pattern: pattern, storedAs: getter, reading: reading, standIn: standIn)
        } catch {
            return try narrow(error, method, pattern, as: E.self, standIn: standIn)
        }
    }

    /// Ends a call to a `rethrows` member: `result` is what ``answerThrowing(_:_:pattern:storedAs:reading:standIn:)``
    /// answered, inside `withoutActuallyEscaping`, which cannot throw in a `rethrows` member.
    ///
    /// It throws only when `closure`, the member's first throwing closure parameter, can throw (`E` is then
    /// `any Error`): a stub may call the closure and rethrow what it throws. Where the closure cannot throw,
    /// an error from the stub is reported and the default returned.
    ///
    /// ```swift
    /// func perform<R>(_ work: () throws -> R) rethrows -> R {
    ///     let result: Result<R, any Error> = withoutActuallyEscaping(work) { work in
    ///         Result { try _spy.answerThrowing("perform(_:)", [SpyClosure(work)], pattern: "perform") }
    ///     }
    ///     return try _spy.rethrow(result, from: work, "perform(_:)", pattern: "perform")
    /// }
    /// ```
    public func rethrow<each A, B, E: Error, R>(
        _ result: Result<R, any Error>, from closure: (repeat each A) throws(E) -> B, _ method: String,
        pattern: String
    ) throws(E) -> R {
        switch result {
        case .success(let value): return value
        case .failure(let error): return try narrow(error, method, pattern, as: E.self)
        }
    }

    /// ``rethrow(_:from:_:pattern:)-777sj`` for a member that rethrows from an `async` closure.
    public func rethrow<each A, B, E: Error, R>(
        _ result: Result<R, any Error>, from closure: (repeat each A) async throws(E) -> B, _ method: String,
        pattern: String
    ) throws(E) -> R {
        switch result {
        case .success(let value): return value
        case .failure(let error): return try narrow(error, method, pattern, as: E.self)
        }
    }

    /// Runs an answer that may throw and keeps what it threw, for ``rethrow(_:from:_:pattern:)-777sj``.
    public func result<R>(_ answer: () throws -> R) -> Result<R, any Error> {
        Result { try answer() }
    }

    /// The `async` form of ``result(_:)``.
    public func result<R>(_ answer: () async throws -> R) async -> Result<R, any Error> {
        do {
            return .success(try await answer())
        } catch {
            return .failure(error)
        }
    }
}

// MARK: - Resolving

extension SpyState {
    enum Resolution<R> {
        /// A stored value answers (a getter after its setter).
        case value(R)
        /// A stub answers; it runs with the arguments as passed.
        case stub(Stub, CallRecorder.Call, [Any])
        /// Nothing answers; the call, or nil for the stand-in.
        case unstubbed(CallRecorder.Call?)
    }

    func resolve<R>(
        _ method: String, _ arguments: [Any?], _ getter: String?, _ setter: String?, _: R.Type,
        reading: Bool = false, weakly: Bool = false
    ) -> Resolution<R> {
        var recording = arguments
        if setter != nil, let last = recording.indices.last {
            // A setter's value is recorded by identity when it is an object: a delegate's dump is a whole
            // object graph, with locks and addresses.
            recording[last] = CallRecorder.Argument.byIdentity(recording[last])
        }
        let recorded = reading && !recordsPropertyReads ? peek(method, recording) : record(method, recording)
        guard let (call, stubs) = recorded else { return .unstubbed(nil) }
        if let setter, let newValue = Self.passed(arguments).last {
            let key = StoredKey(member: setter, index: Array(call.arguments.dropLast()))
            let value = StoredValue(newValue, weakly: weakly)
            storage.withLock { $0.stored[key] = value }
        }
        if let stub = stubs.last(where: { $0.arguments == call.arguments })
            ?? stubs.last(where: { $0.arguments == nil })
        {
            return .stub(stub, call, Self.passed(arguments))
        }
        if let getter {
            let key = StoredKey(member: getter, index: call.arguments)
            if let stored = storage.withLock({ $0.stored[key] }), let value = stored.current as? R {
                return .value(value)
            }
        }
        return .unstubbed(call)
    }

    func evaluate<R>(_ resolution: Resolution<R>, _ pattern: String, standIn: R? = nil) -> R {
        guard case .stub(let stub, let call, let passed) = resolution else {
            if case .value(let value) = resolution { return value }
            guard case .unstubbed(let call) = resolution else { fatalError("unreachable") }
            return fallback(call, pattern, R.self, reportUnstubbed: true, standIn: standIn)
        }
        switch stub.answer {
        case .value(let value):
            if let value = cast(value, R.self, stub, call) { return value }
        case .error(let error):
            report(Self.cannotThrowMessage(call, error: error, stub: stub), at: stub.location)
        case .sync(let body):
            do {
                if let value = cast(try body(passed), R.self, stub, call) { return value }
            } catch let mismatch as StubSignatureMismatch {
                report(Self.signatureMessage(call, mismatch, stub: stub), at: stub.location)
            } catch {
                report(Self.cannotThrowMessage(call, error: error, stub: stub), at: stub.location)
            }
        case .async:
            report(Self.asyncStubMessage(call, stub: stub), at: stub.location)
        }
        return fallback(call, pattern, R.self, reportUnstubbed: false, standIn: standIn)
    }

    /// The answer of a synchronous member that throws, once the call is recorded.
    func evaluateThrowing<R>(_ resolution: Resolution<R>, _ pattern: String, standIn: R? = nil) throws -> R {
        guard case .stub(let stub, let call, let passed) = resolution else {
            if case .value(let value) = resolution { return value }
            guard case .unstubbed(let call) = resolution else { fatalError("unreachable") }
            return try fallbackThrowing(call, pattern, R.self, reportUnstubbed: true, standIn: standIn)
        }
        switch stub.answer {
        case .value(let value):
            if let value = cast(value, R.self, stub, call) { return value }
        case .error(let error):
            throw error
        case .sync(let body):
            do {
                if let value = cast(try body(passed), R.self, stub, call) { return value }
            } catch let mismatch as StubSignatureMismatch {
                report(Self.signatureMessage(call, mismatch, stub: stub), at: stub.location)
            }
        case .async:
            report(Self.asyncStubMessage(call, stub: stub), at: stub.location)
        }
        return try fallbackThrowing(call, pattern, R.self, reportUnstubbed: false, standIn: standIn)
    }

    /// `value` as the member's return type, or nil after reporting that the stub's value doesn't fit.
    func cast<R>(_ value: Any, _: R.Type, _ stub: Stub, _ call: CallRecorder.Call) -> R? {
        if let value = value as? R { return value }
        report(Self.wrongTypeMessage(call, value: value, returnType: R.self, stub: stub), at: stub.location)
        return nil
    }

    /// What a member answers when nothing else does: the default (after reporting, in strict mode, when
    /// `reportUnstubbed`), or, for a type without one, a stop with the call named. A member returning `Self`
    /// passes the spy itself as `standIn`, which then is its default.
    func fallback<R>(
        _ call: CallRecorder.Call?, _ pattern: String, _: R.Type, reportUnstubbed: Bool, standIn: R? = nil
    ) -> R {
        let value = standIn ?? SpyDefaults.value(R.self)
        if reportUnstubbed { reportIfStrict(call, pattern, R.self, outcome: value == nil ? .stop : .default) }
        if let value { return value }
        fatalError(Self.noDefaultMessage(call, spy: spyName, pattern: pattern, returnType: R.self))
    }

    /// As ``fallback(_:_:_:reportUnstubbed:)``, but a type without a default throws ``SpyError`` instead.
    func fallbackThrowing<R>(
        _ call: CallRecorder.Call?, _ pattern: String, _: R.Type, reportUnstubbed: Bool, standIn: R? = nil
    ) throws -> R {
        let value = standIn ?? SpyDefaults.value(R.self)
        if reportUnstubbed { reportIfStrict(call, pattern, R.self, outcome: value == nil ? .throw : .default) }
        if let value { return value }
        throw SpyError(unstubbed: call.map(\.description) ?? pattern, returnType: R.self)
    }

    private func reportIfStrict<R>(
        _ call: CallRecorder.Call?, _ pattern: String, _: R.Type, outcome: UnstubbedOutcome
    ) {
        guard let call, R.self != Void.self, recorder.mode == .strict else { return }
        report(Self.unstubbedMessage(call, pattern: pattern, returnType: R.self, outcome: outcome))
    }

    /// An error thrown where only `E` may be: `E` itself, or a report and the default (or a stop).
    private func narrow<R, E: Error>(
        _ error: any Error, _ method: String, _ pattern: String, as _: E.Type, standIn: R? = nil
    ) throws(E) -> R {
        if let typed = error as? E { throw typed }
        // Unstubbed with no default, where nothing may be thrown: the issue is reported already.
        if let unstubbed = error as? SpyError { fatalError(unstubbed.description) }
        report(Self.wrongErrorMessage(method, error: error, errorType: E.self))
        if let value = standIn ?? SpyDefaults.value(R.self) { return value }
        fatalError(Self.noDefaultMessage(nil, spy: spyName, pattern: pattern, returnType: R.self))
    }
}
