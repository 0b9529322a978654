import FeedbackThirdParty
import Tally

/// The one bridge to `ThirdParty`'s feedback forms in this process.
///
/// The SDK's delegate is static and its callbacks carry no request id, so only one load may be in flight
/// in the whole process, whichever wrapper started it. Both forms of the service use this bridge by
/// default: a second load from either is rejected with `BridgeError.busy` while the first is in flight
/// (`.reject` is the article's `MultipleFormLoadError`: a second load during the first is a double tap or
/// a bug, and an error shows it where a silent wait would hide it). Tests of the wrapper pass a bridge of
/// their own together with a fake SDK.
public enum FeedbackFormBridge {
    /// The process-wide bridge for `ThirdParty.loadFeedbackForm(_:)`.
    public static let shared = SDKBridge<FeedbackForm>(whenBusy: .reject)
}

/// Forwards one load's answer to that load's completion. A new one per load, so a late answer to an
/// earlier load can only reach that load's (already ended) completion, where the bridge ignores and
/// counts it.
final class FormDelegate: ThirdPartyDelegate, Sendable {
    let completion: SDKBridge<FeedbackForm>.Completion

    init(_ completion: SDKBridge<FeedbackForm>.Completion) { self.completion = completion }

    func formDidload(_ form: FeedbackForm) { completion.succeed(form) }

    /// Passes the SDK's `ThirdPartyError` to the caller unchanged: the caller can catch it by its type,
    /// though nobody outside the SDK can create one.
    func formDidFailLoading(error: ThirdPartyError) { completion.fail(error) }
}
