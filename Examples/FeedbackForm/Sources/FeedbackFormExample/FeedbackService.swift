import FeedbackThirdParty

/// The API the app wants instead of `ThirdParty`'s: load a form by id, get it back or an error.
///
/// The article's protocol, made `async`: `load(_:completion:) throws` becomes `load(_:) async throws`, and
/// the article's "thread safety and cancellation, omitted for brevity" are handled by ``SDKBridge`` in
/// ``ThirdPartyFeedbackService``.
///
/// ```swift
/// let form = try await feedbackService.load("nps")
/// ```
public protocol FeedbackService: Sendable {
    /// Loads the form `id`.
    ///
    /// - Throws: the SDK's own `ThirdPartyError` unchanged; `BridgeError.busy` when another load is in
    ///   flight (the article's `MultipleFormLoadError`); `BridgeError.timedOut` when the SDK does not
    ///   answer in time; `CancellationError` when the calling task is cancelled.
    func load(_ id: String) async throws -> FeedbackForm
}
