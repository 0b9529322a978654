import NotesExample
import Tally
import TallyTesting

/// An `AnalyticsService` for unit tests of the screens: it keeps what the app sends in an `AnalyticsSpy`,
/// so tests use the spy's expectations (`service.events.expectTracked(...)`).
struct AnalyticsServiceSpy: AnalyticsService {
    let events = AnalyticsSpy()

    func send(event: Event) { events.track(event) }
}
