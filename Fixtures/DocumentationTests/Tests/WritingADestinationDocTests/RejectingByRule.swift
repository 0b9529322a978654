// Writing a destination: "Rejecting and changing by rule".

import Tally
import Testing

struct TrackOnlyLogDestination: Destination {
    let logger: Logger
    var name: String { "log" }

    func receive(_ envelope: Envelope, context: DestinationContext) throws {
        let event = envelope.event
        guard event.kind == .track else {
            // Rejected: counted under `rejected`, reported with the event's name.
            throw Problem(.vendorLimit, "The log takes track events only", outcome: .dropped)
        }
        var name = event.name
        if name.count > 40 {
            // Changed, then delivered.
            name = String(name.prefix(40))
            context.report(
                Problem(
                    .vendorLimit, "The log keeps 40 characters of an event name", outcome: .sanitized,
                    eventName: event.reportName))
        }
        logger.info("\(name) \(event.properties.jsonString)")
    }
}

// What the section says: a thrown problem is a rejected event, reported with the event's name and the
// destination's; a reported one is a delivered event.
@Test func theLogRejectsWhatItCannotTakeAndCutsWhatItCan() async {
    let analytics = AnalyticsClient(destinations: [TrackOnlyLogDestination(logger: testLogger)])
    analytics.identify(userId: "user-42")
    analytics.track(String(repeating: "a", count: 50))
    await analytics.flush()
    let log = analytics.statistics.destinations["log"]
    #expect(log?.dropped == [.rejected: 1])
    #expect(log?.delivered == 1)
    let problems = analytics.statistics.recentProblems.filter { $0.code == .vendorLimit }
    #expect(problems.map(\.outcome) == [.dropped, .sanitized])
    #expect(problems.map(\.eventName) == ["identify user-42", String(repeating: "a", count: 50)])
    #expect(problems.map(\.destination) == ["log", "log"])
}
