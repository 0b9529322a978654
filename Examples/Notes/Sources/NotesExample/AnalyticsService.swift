import Tally

/// The article's `AnalyticsService`: what the Notes app sends its events through.
///
/// In the article the app's own analytics library ("Journey") defines this protocol and a `Journey.Event`
/// with a name and properties. Tally plays Journey's part here: the event is Tally's ``Tally/Event``,
/// declared once per event as a static factory (see `Event+Notes.swift`), and the implementation the app
/// registers is ``GoogleAnalyticsService``.
///
/// ```swift
/// analyticsService.send(event: .noteCreated(wordCount: 4))
/// ```
public protocol AnalyticsService: Sendable {
    /// Sends `event`. Returns at once; delivery to the vendor happens later, on another thread.
    func send(event: Event)
}
