/// The article's `GoogleAnalyticsAdapter`: the one call the app makes on the Google SDK,
/// `GoogleSDK.trackEvent(with:properties:)`, as a protocol the SDK conforms to and a spy can stand in for.
///
/// The SDK has exactly this method, so its conformance is empty
/// (`GoogleSDK+GoogleAnalyticsAdapter.swift`):
///
/// ```swift
/// extension GoogleSDK: GoogleAnalyticsAdapter {}
///
/// let google = GoogleAnalyticsDestination(adapter: GoogleSDK(apiKey: key, clientSecret: secret))
/// ```
///
/// The SDK is the article's, not a real Google product: an app that sends events to Google Analytics on
/// iOS does so through Firebase, with Tally's `FirebaseDestination`.
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
