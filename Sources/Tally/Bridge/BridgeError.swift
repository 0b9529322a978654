import Foundation

/// The errors an ``SDKBridge`` throws on its own account.
///
/// Everything else a call throws is either the SDK's own error, passed through unchanged from
/// ``SDKBridge/Completion/fail(_:)`` or a throwing `start`, or `CancellationError` when the awaiting
/// task is cancelled.
///
/// ```swift
/// do {
///     let form = try await bridge.call(timeout: .seconds(10)) { completion in
///         ThirdParty.delegate = FormDelegate(completion)
///         ThirdParty.loadFeedbackForm(id)
///     } cleanup: {
///         ThirdParty.delegate = nil
///     }
///     present(form)
/// } catch BridgeError.busy {
///     // A form is already loading: ignore the second tap.
/// } catch BridgeError.timedOut {
///     showRetry()
/// }
/// ```
public enum BridgeError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// Another call was in flight and the bridge's policy is ``BridgeBusyPolicy/reject``.
    ///
    /// The in-flight call is not disturbed: the rejected call's `start` and `cleanup` never run. This
    /// is the seed's `MultipleFormLoadError`.
    case busy

    /// The call did not end within its timeout, given here in seconds.
    ///
    /// The timeout counts from the moment the call was made, including any time spent waiting in the
    /// queue. If `start` had run, `cleanup` has run before this error is thrown; a callback that arrives
    /// later is ignored and counted in ``SDKBridge/ignoredCallbacks``.
    case timedOut(after: TimeInterval)

    public var description: String {
        switch self {
        case .busy:
            return "SDKBridge is busy: another call is in flight and this bridge rejects a second caller "
                + "(policy .reject). Wait for the first call to end, or create the bridge with whenBusy: .queue."
        case .timedOut(let seconds):
            return "SDKBridge call timed out after \(seconds) seconds; the SDK was cleaned up and a late answer "
                + "will be ignored."
        }
    }

    public var errorDescription: String? { description }
}
