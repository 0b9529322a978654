// Recording calls: the spy from "Testing Side Effects" that the article starts from, written by hand.

import XCTest

protocol HippoAnalyticsClientInterface {
    func logEvent(named name: String, properties: [String: Any]?)
}

class HippoAnalyticsClientInterfaceSpy: HippoAnalyticsClientInterface {
    struct Event {
        let name: String
        let properties: [String: Any]?
    }

    private(set) var loggedEvents: [Event] = []

    func logEvent(named name: String, properties: [String: Any]?) {
        loggedEvents.append(Event(name: name, properties: properties))
    }
}

class EventLoggerTests: XCTestCase {
    func testLogsEventsWithCorrectParameters() throws {
        let hippoAnalyticsSpy = HippoAnalyticsClientInterfaceSpy()
        let eventLogger = EventLogger(hippoAnalyticsClient: hippoAnalyticsSpy)

        eventLogger.log(name: "test", properties: ["key": "value"])

        XCTAssertEqual(hippoAnalyticsSpy.loggedEvents.count, 1)
        let event = try XCTUnwrap(hippoAnalyticsSpy.loggedEvents.first)
        XCTAssertEqual(event.name, "test")
        XCTAssertEqual(event.properties?["key"] as? String, "value")
    }
}
