/// Turns an SDK that answers through a delegate (static or not) or a callback into `async throws` calls.
///
/// Many vendor SDKs answer a request through a delegate set on a static property, with callbacks that
/// carry no request id, and errors of a type whose initializer is not public. A bridge wraps one such
/// SDK entry point and takes care of the parts that are easy to get wrong:
///
/// - **One call in flight.** Only one call owns the SDK at a time; a second caller is rejected with
///   ``BridgeError/busy`` or waits its turn, as chosen by ``BridgeBusyPolicy``.
/// - **First answer wins.** The ``Completion`` handed to `start` may be called from any thread, any
///   number of times. The first call ends the bridge call; later ones are ignored and counted in
///   ``ignoredCallbacks``.
/// - **Cleanup exactly once.** `cleanup` (where you release the delegate) runs exactly once for every
///   call whose `start` ran, whatever ended it: an answer, an error, a throwing `start`, cancellation or
///   a timeout. It runs before the slot passes to the next caller, so it can never clear the delegate
///   of the call after it.
/// - **Cancellation.** Cancelling the awaiting task ends the call at once with `CancellationError`,
///   runs `cleanup`, and frees the slot.
/// - **Timeouts** through an injected `Clock`, so tests advance time instead of sleeping.
/// - **Errors pass through unchanged**, of any type, including ones your code cannot create.
///
/// `start` and `cleanup` run on the caller's actor (the `isolation` parameter), so an SDK that must be
/// called on the main actor is called there when you call the bridge from the main actor. Callbacks may
/// come from any thread.
///
/// ## Example
/// The SDK from the seed: a static delegate, no request ids, and a `ThirdPartyError` only the SDK can
/// make. Give each call its own delegate object that forwards to that call's completion:
///
/// ```swift
/// final class FormDelegate: ThirdPartyDelegate {
///     let completion: SDKBridge<UIViewController>.Completion
///     init(_ completion: SDKBridge<UIViewController>.Completion) { self.completion = completion }
///
///     func formDidload(_ viewController: UIViewController) { completion.succeed(viewController) }
///     func formDidFailLoading(error: ThirdPartyError) { completion.fail(error) }
/// }
///
/// let forms = SDKBridge<UIViewController>()    // a second load throws BridgeError.busy
///
/// @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)   // the timeout's Clock and Duration
/// @MainActor
/// func loadForm(_ id: String) async throws -> UIViewController {
///     try await forms.call(timeout: .seconds(15)) { completion in
///         ThirdParty.delegate = FormDelegate(completion)
///         ThirdParty.loadFeedbackForm(id)
///     } cleanup: {
///         ThirdParty.delegate = nil
///     }
/// }
/// ```
///
/// A bridge is `Sendable`, so it can be stored in a class that conforms to a service protocol or
/// captured by the `@Sendable` closures of a struct-of-closures service alike.
///
/// ## Topics
/// ### Creating a bridge
/// - ``init(whenBusy:)``
/// - ``BridgeBusyPolicy``
/// ### Calling the SDK
/// - ``call(isolation:start:cleanup:)``
/// - ``call(timeout:clock:isolation:start:cleanup:)``
/// - ``Completion``
/// - ``BridgeError``
/// ### Observing
/// - ``isBusy``
/// - ``waitingCallers``
/// - ``ignoredCallbacks``
public final class SDKBridge<Success: Sendable>: Sendable {
    /// What this bridge does with a call made while another one is in flight.
    public let busyPolicy: BridgeBusyPolicy

    let state = Locked(State())

    /// Creates a bridge for one SDK entry point.
    ///
    /// - Parameter whenBusy: what to do with a call made while another one is in flight. The default,
    ///   ``BridgeBusyPolicy/reject``, throws ``BridgeError/busy`` from the second call, like the seed's
    ///   `MultipleFormLoadError`; see ``BridgeBusyPolicy`` for why.
    public init(whenBusy: BridgeBusyPolicy = .reject) {
        busyPolicy = whenBusy
    }

    /// Whether a call owns the SDK right now (between getting its turn and the end of its `cleanup`).
    public var isBusy: Bool { state.withLock { $0.owner != nil } }

    /// How many calls are waiting for their turn (always 0 with ``BridgeBusyPolicy/reject``).
    public var waitingCallers: Int { state.withLock { $0.waitingCount } }

    /// How many callbacks arrived after their call had already ended, and were ignored.
    ///
    /// A callback is ignored when an earlier callback, a throwing `start`, cancellation or a timeout
    /// ended its call first. SDKs that answer twice, or answer after a timeout, show up here.
    public var ignoredCallbacks: Int { state.withLock { $0.ignoredCallbacks } }

    /// Calls the SDK and waits for its answer, without a timeout.
    ///
    /// The call first waits for its turn (or throws ``BridgeError/busy``, depending on ``busyPolicy``).
    /// Then it runs `start`, where you point the SDK (its delegate, or its callback) at the
    /// ``Completion`` and start the request, and waits until the completion is called, `start` throws,
    /// or the task is cancelled. Then it runs `cleanup`, hands the SDK to the next caller, and returns
    /// the value or throws the error.
    ///
    /// ```swift
    /// let token = try await bridge.call { completion in
    ///     sdk.fetchToken { token, error in
    ///         if let token { completion.succeed(token) } else { completion.fail(error ?? SDKFailure()) }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - isolation: the actor `start` and `cleanup` run on; by default the caller's.
    ///   - start: sets up the SDK to answer through the completion and starts the request. Throwing from
    ///     it is the same as calling ``Completion/fail(_:)`` with the error.
    ///   - cleanup: releases what `start` set up, typically `ThirdParty.delegate = nil`. It runs exactly
    ///     once if `start` ran, whatever ended the call, and never if it did not (a rejected call, or one
    ///     cancelled while waiting), because the SDK then belongs to another call.
    /// - Returns: the value passed to ``Completion/succeed(_:)`` first.
    /// - Throws: the SDK's error unchanged, `CancellationError` if the task was cancelled, or
    ///   ``BridgeError/busy``.
    public func call(
        isolation: isolated (any Actor)? = #isolation,
        start: (_ completion: Completion) throws -> Void,
        cleanup: () -> Void = {}
    ) async throws -> Success {
        try await perform(isolation: isolation, timer: nil, start: start, cleanup: cleanup)
    }

    /// Calls the SDK and waits for its answer, at most `timeout` as measured by `clock`.
    ///
    /// Works like ``call(isolation:start:cleanup:)``, and if the call has not ended when `timeout` has
    /// passed on `clock` (counting from this call, including time waiting for a turn), it ends with
    /// ``BridgeError/timedOut(after:)``: `cleanup` runs if `start` had run, the slot is freed, and an
    /// answer arriving later is ignored and counted in ``ignoredCallbacks``.
    ///
    /// Inject the clock so tests can advance time instead of sleeping:
    ///
    /// ```swift
    /// let clock = ManualClock()                     // from TallyTesting
    /// let task = Task { try await bridge.call(timeout: .seconds(5), clock: clock) { _ in } }
    /// try await clock.waitForSleepers(count: 1)
    /// clock.advance(by: .seconds(5))
    /// await #expect(throws: BridgeError.timedOut(after: 5)) { try await task.value }
    /// ```
    ///
    /// - Parameters:
    ///   - timeout: the longest the caller waits. Zero or less times out at once.
    ///   - clock: measures the timeout; `ContinuousClock` by default.
    ///   - isolation: the actor `start` and `cleanup` run on; by default the caller's.
    ///   - start: sets up the SDK to answer through the completion and starts the request.
    ///   - cleanup: releases what `start` set up; exactly once if `start` ran.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public func call<C: Clock>(
        timeout: Duration,
        clock: C = ContinuousClock(),
        isolation: isolated (any Actor)? = #isolation,
        start: (_ completion: Completion) throws -> Void,
        cleanup: () -> Void = {}
    ) async throws -> Success where C.Duration == Duration {
        let deadline = clock.now.advanced(by: timeout)
        let error = BridgeError.timedOut(after: timeout.seconds)
        return try await perform(
            isolation: isolation,
            timer: { [self] id in
                Task {
                    do {
                        try await clock.sleep(until: deadline, tolerance: nil)
                    } catch {
                        return  // The call ended first and cancelled its timer.
                    }
                    end(id, with: .failure(error), isCallback: false)
                }
            },
            start: start,
            cleanup: cleanup
        )
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
