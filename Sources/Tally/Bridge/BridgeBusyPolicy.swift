/// What an ``SDKBridge`` does with a call made while another one is in flight.
///
/// An SDK with a static delegate and callbacks that carry no request id can only serve one request at a
/// time: a second answer could not be told apart from the first. The bridge therefore lets one call own
/// the SDK at a time, and this policy decides what happens to the others.
///
/// The default is ``reject``: a second caller gets ``BridgeError/busy`` at once. A second request while
/// the first is in flight is usually a double tap or a bug, and an error makes it visible instead of
/// hiding an unbounded wait behind the first call. Choose ``queue`` when callers legitimately overlap
/// and each of them needs its own answer.
///
/// ```swift
/// let forms = SDKBridge<FeedbackForm>()                     // .reject
/// let tokens = SDKBridge<String>(whenBusy: .queue)         // callers take turns
/// ```
public enum BridgeBusyPolicy: Sendable, Hashable, CustomStringConvertible {
    /// Throw ``BridgeError/busy`` from the second call without touching the SDK.
    case reject

    /// Wait, first come first served, until the calls ahead have ended; then run.
    ///
    /// A waiting call can be cancelled or time out; it then leaves the queue without running `start`
    /// or `cleanup`.
    case queue

    public var description: String {
        switch self {
        case .reject: return "reject"
        case .queue: return "queue"
        }
    }
}
