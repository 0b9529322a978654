// TallySpy.md, the landing page of TallySpy.

import TallySpy
import Testing

@Spy
protocol HippoAnalyticsClient {
    func logEvent(named name: String, properties: [String: Any]?)
}

@Test func logsEventsWithTheirProperties() {
    let hippo = HippoAnalyticsClientSpy()
    EventLogger(hippoAnalyticsClient: hippo).log(name: "test", properties: ["key": "value"])
    hippo.expectCalled(.logEvent(named: "test", properties: ["key": "value"]))
    hippo.expectNothingElse()
}
