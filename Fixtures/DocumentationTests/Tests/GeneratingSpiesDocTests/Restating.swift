// Generating spies with @Spy: "Where to put @Spy".

import TallySpy
import Testing

// In the test target. `HippoAnalyticsClientInterface` is the app's protocol.
@Spy(restating: "HippoAnalyticsClientInterface")
protocol HippoAnalyticsClient: HippoAnalyticsClientInterface {
    func logEvent(named name: String, properties: [String: Any]?)
}

@Test func theRestatedSpyConformsToTheAppsProtocol() {
    let hippo = HippoAnalyticsClientSpy()
    let client: any HippoAnalyticsClientInterface = hippo
    client.logEvent(named: "test", properties: nil)
    hippo.expectCalled(.logEvent(named: "test", properties: nil))
}
