// Recording calls: "A spy in one line per method".

import TallyTesting
import Testing

final class HippoAnalyticsClientInterfaceSpy: HippoAnalyticsClientInterface, Sendable {
    let calls = CallRecorder()

    func logEvent(named name: String, properties: [String: Any]?) {
        calls.record(arguments: name, properties)
    }
}

@Test(.exhaustive) func logsEventsWithCorrectParameters() {
    let hippo = HippoAnalyticsClientInterfaceSpy()
    let eventLogger = EventLogger(hippoAnalyticsClient: hippo)

    eventLogger.log(name: "test", properties: ["key": "value"])

    hippo.calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "value"])
}
