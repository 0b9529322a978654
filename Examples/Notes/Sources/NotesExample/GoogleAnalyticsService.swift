import Tally

/// The article's `GoogleAnalyticsService`: the ``AnalyticsService`` the app registers, sending every event
/// to Google through a ``GoogleAnalyticsAdapter``.
///
/// The article moves the event -> SDK transformation out of the SDK's extension into a type the app
/// controls, so it can be unit-tested against a spy adapter. Here the transformation is this example's
/// ``GoogleAnalyticsDestination`` (track events become `trackEvent(with:properties:)` with the same name and
/// properties; screens become a `screen_view` event with a `screen_name`), and the service runs it on a
/// Tally client, so `send(event:)` never blocks the caller on the SDK:
///
/// ```swift
/// let service = GoogleAnalyticsService(adapter: GoogleSDK(apiKey: key, clientSecret: secret))
/// service.send(event: .noteCreated(wordCount: 4))
/// ```
///
/// The adapter is the SDK itself, which conforms with an empty extension
/// (`GoogleSDK+GoogleAnalyticsAdapter.swift`). Tests pass a spy instead.
public final class GoogleAnalyticsService: AnalyticsService {
    private let analytics: AnalyticsClient

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - adapter: receives the SDK calls; the `GoogleSDK` in the app, a spy in tests.
    ///   - destinations: more destinations for the same events, such as a `ConsoleDestination` in debug
    ///     builds or a `RecordingDestination` in UI tests.
    public init(adapter: any GoogleAnalyticsAdapter, destinations: [any Destination] = []) {
        analytics = AnalyticsClient(destinations: [GoogleAnalyticsDestination(adapter: adapter)] + destinations)
    }

    public func send(event: Event) {
        analytics.track(event)
    }

    /// Returns when every event sent before the call has reached the SDK. Tests call it instead of
    /// sleeping.
    public func flush() async {
        await analytics.flush()
    }

    /// What the client counted: events sent, delivered, dropped, and the problems its rules reported.
    public var statistics: Statistics { analytics.statistics }
}
