import FeedbackThirdParty
import Tally

/// The article's `ThirdPartyFeedbackService`, the protocol form: ``FeedbackService`` over the static
/// `ThirdParty` SDK, on an `SDKBridge`.
///
/// The seams are the article's: `loadFeedback` and `setDelegate` default to the SDK's statics, and tests
/// pass closures over a fake SDK. The article's `getDelegate() == nil` check for a load in flight is the
/// bridge's job now: it lets one load own the SDK at a time and rejects the others with
/// `BridgeError.busy`, also when they come from another wrapper of the same SDK (see
/// ``FeedbackFormBridge``). What the article leaves out, the bridge does:
///
/// - **Thread safety**: the SDK answers on another thread; the first answer ends the load, later ones are
///   ignored and counted in ``ignoredCallbacks``.
/// - **Cancellation**: cancelling the calling task ends the load with `CancellationError` and releases the
///   delegate at once.
/// - **Timeout**: a load the SDK never answers ends with `BridgeError.timedOut(after:)` and releases the
///   delegate; the clock is injected, so tests advance it instead of waiting.
///
/// ```swift
/// let service: any FeedbackService = ThirdPartyFeedbackService()
/// let form = try await service.load("nps")
/// ```
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public final class ThirdPartyFeedbackService: FeedbackService {
    private let loadFeedback: @Sendable (String) -> Void
    private let setDelegate: @Sendable ((any ThirdPartyDelegate)?) -> Void
    private let bridge: SDKBridge<FeedbackForm>
    private let timeout: Duration
    private let clock: any Clock<Duration>

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - loadFeedback: starts a load; `ThirdParty.loadFeedbackForm(_:)` by default.
    ///   - setDelegate: sets or clears the SDK's delegate; `ThirdParty.delegate` by default.
    ///   - bridge: the bridge that lets one load in at a time; ``FeedbackFormBridge/shared`` by default,
    ///     because the SDK's delegate is shared by the whole process.
    ///   - timeout: how long a load may take. Default 15 seconds.
    ///   - clock: measures the timeout; a `ManualClock` in tests.
    public init(
        loadFeedback: @escaping @Sendable (String) -> Void = { ThirdParty.loadFeedbackForm($0) },
        setDelegate: @escaping @Sendable ((any ThirdPartyDelegate)?) -> Void = { ThirdParty.delegate = $0 },
        bridge: SDKBridge<FeedbackForm> = FeedbackFormBridge.shared,
        timeout: Duration = .seconds(15),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.loadFeedback = loadFeedback
        self.setDelegate = setDelegate
        self.bridge = bridge
        self.timeout = timeout
        self.clock = clock
    }

    public func load(_ id: String) async throws -> FeedbackForm {
        try await bridge.call(timeout: timeout, clock: clock) { completion in
            setDelegate(FormDelegate(completion))
            loadFeedback(id)
        } cleanup: {
            setDelegate(nil)
        }
    }

    /// How many SDK answers arrived after their load had ended (answered twice, or after a timeout or a
    /// cancellation), and were ignored.
    public var ignoredCallbacks: Int { bridge.ignoredCallbacks }
}
