/// The call ``GoogleAnalyticsDestination`` makes, mirroring the Google SDK of the adapter-pattern
/// example (`GoogleSDK.trackEvent(with:properties:)`).
///
/// The SDK has exactly this method, so its conformance is empty:
///
/// ```swift
/// extension GoogleSDK: @retroactive GoogleAnalyticsAdapter {}
///
/// let google = GoogleAnalyticsDestination(adapter: GoogleSDK(apiKey: key, clientSecret: secret))
/// ```
///
/// The SDK has no call that forgets the user, so the protocol has none either: a requirement the SDK
/// does not have would make the empty conformance fail to compile. See ``GoogleAnalyticsDestination``.
///
/// The protocol is not `Sendable`, like the SDK; ``GoogleAnalyticsDestination`` calls it from one thread
/// at a time.
public protocol GoogleAnalyticsAdapter {
    /// Tracks an event: the SDK's `trackEvent(with:properties:)`.
    ///
    /// - Parameters:
    ///   - name: the event name.
    ///   - properties: JSON-like Foundation values; empty when the event has none.
    func trackEvent(with name: String, properties: [String: Any])
}
