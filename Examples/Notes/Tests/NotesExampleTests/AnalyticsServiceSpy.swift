import NotesExample
import Tally
import TallyTesting

/// An `AnalyticsService` for unit tests of the screens: it keeps what the app sends in an `AnalyticsSpy`,
/// so tests use the spy's expectations (`service.events.expectTracked(...)`).
///
/// Hand-written on purpose, and not by `@Spy`: it records no calls of its own but hands the service's one
/// requirement to Tally's event spy, whose expectations are about events (`expectValid(against:)` the
/// tracking plan, `expectCount(_:of: .named(...))`, `expectNotTracked(_:when:)`). A generated spy
/// (`@Spy(restating: "AnalyticsService")`) would only offer `expectCalled(.send(event: ...))`, and
/// in these `.exhaustive` suites each `send` it recorded would need that expectation too.
struct AnalyticsServiceSpy: AnalyticsService {
    let events = AnalyticsSpy()

    func send(event: Event) { events.track(event) }
}
