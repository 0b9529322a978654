import Dispatch
import Tally

// Stands in for the vendor's binary framework from seed 001: a delegate, callbacks without a request id,
// and an error type whose initializer only the SDK can call. Nothing outside this file can make a
// `ThirdPartyError`, just as the app cannot make the real one.
//
// The seed keeps the delegate in a static property. Each test makes its own `ThirdParty` so tests can run
// in parallel; the wrapper below treats `sdk.delegate` exactly as it would `ThirdParty.delegate`.

struct FeedbackForm: Sendable, Hashable {
    let id: String
}

struct ThirdPartyError: Error, Sendable {
    let description: String

    fileprivate init(description: String) { self.description = description }
}

protocol ThirdPartyDelegate: AnyObject, Sendable {
    func formDidLoad(_ form: FeedbackForm)
    func formDidFailLoading(error: ThirdPartyError)
}

final class ThirdParty: Sendable {
    private let storage = Locked<(any ThirdPartyDelegate)?>(nil)
    /// Every `loadFeedbackForm` id, in order, for tests to await.
    let requests = Mailbox<String>()

    var delegate: (any ThirdPartyDelegate)? {
        get { storage.current }
        set { storage.withLock { $0 = newValue } }
    }

    func loadFeedbackForm(_ id: String) { requests.send(id) }

    // The SDK answering, as its own code would: it reads the delegate when it answers.

    func deliverForm(_ id: String) { delegate?.formDidLoad(FeedbackForm(id: id)) }
    func deliverFailure(_ description: String) {
        delegate?.formDidFailLoading(error: ThirdPartyError(description: description))
    }
}

/// The app's wrapper, written on the bridge the way the DocC article shows: one delegate object per call,
/// forwarding to that call's completion.
final class FormLoader: Sendable {
    let sdk: ThirdParty
    let bridge: SDKBridge<FeedbackForm>
    let cleanups = Locked(0)

    init(sdk: ThirdParty = ThirdParty(), whenBusy: BridgeBusyPolicy = .reject) {
        self.sdk = sdk
        bridge = SDKBridge(whenBusy: whenBusy)
    }

    func load(_ id: String) async throws -> FeedbackForm {
        try await bridge.call { completion in
            sdk.delegate = FormDelegate(completion)
            sdk.loadFeedbackForm(id)
        } cleanup: {
            sdk.delegate = nil
            cleanups.withLock { $0 += 1 }
        }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    func load(_ id: String, timeout: Duration, clock: some Clock<Duration>) async throws -> FeedbackForm {
        try await bridge.call(timeout: timeout, clock: clock) { completion in
            sdk.delegate = FormDelegate(completion)
            sdk.loadFeedbackForm(id)
        } cleanup: {
            sdk.delegate = nil
            cleanups.withLock { $0 += 1 }
        }
    }
}

final class FormDelegate: ThirdPartyDelegate {
    let completion: SDKBridge<FeedbackForm>.Completion

    init(_ completion: SDKBridge<FeedbackForm>.Completion) { self.completion = completion }

    func formDidLoad(_ form: FeedbackForm) { completion.succeed(form) }
    func formDidFailLoading(error: ThirdPartyError) { completion.fail(error) }
}
