import FeedbackThirdParty
import Tally

/// The article's "Just for kicks" value type: the same service as a struct of closures.
///
/// The article's `FeedbackService` struct with a `load` closure and a `.thirdParty(...)` constructor,
/// made `async`. The logic is ``ThirdPartyFeedbackService``'s, captured in a closure; the bridge replaces
/// the article's inline `Delegate` class and its `MultipleFormLoadError`. A test stubs the whole service
/// in one line: `FeedbackServiceClient { _ in form }`.
///
/// ```swift
/// let feedback = FeedbackServiceClient.thirdParty()
/// let form = try await feedback.load("nps")
/// ```
public struct FeedbackServiceClient: Sendable {
    /// Loads the form with the given id. Throws as ``FeedbackService/load(_:)`` does.
    public var load: @Sendable (_ id: String) async throws -> FeedbackForm

    /// Creates a client from its `load` closure.
    public init(load: @escaping @Sendable (_ id: String) async throws -> FeedbackForm) {
        self.load = load
    }
}

extension FeedbackServiceClient {
    /// The client over the static `ThirdParty` SDK. The parameters are those of
    /// ``ThirdPartyFeedbackService/init(loadFeedback:setDelegate:bridge:timeout:clock:)``, with the same
    /// defaults: by default it shares ``FeedbackFormBridge/shared`` with the protocol form, so the two
    /// never have loads in flight at once.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public static func thirdParty(
        loadFeedback: @escaping @Sendable (String) -> Void = { ThirdParty.loadFeedbackForm($0) },
        setDelegate: @escaping @Sendable ((any ThirdPartyDelegate)?) -> Void = { ThirdParty.delegate = $0 },
        bridge: SDKBridge<FeedbackForm> = FeedbackFormBridge.shared,
        timeout: Duration = .seconds(15),
        clock: any Clock<Duration> = ContinuousClock()
    ) -> FeedbackServiceClient {
        FeedbackServiceClient { id in
            try await bridge.call(timeout: timeout, clock: clock) { completion in
                setDelegate(FormDelegate(completion))
                loadFeedback(id)
            } cleanup: {
                setDelegate(nil)
            }
        }
    }

    /// The protocol form as a client, for code written against the struct.
    public init(_ service: any FeedbackService) {
        self.init { try await service.load($0) }
    }
}
