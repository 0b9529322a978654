// Writing a destination: "Holding a vendor SDK".

import HippoAnalytics  // a Swift 5 SDK: its client is a class, not Sendable
import Tally
import Testing

struct HippoDestination: Destination {
    let name = "hippo"
    private let hippo: VendorClient<HippoAnalyticsClient>

    init(client: HippoAnalyticsClient) { hippo = VendorClient(client) }

    func receive(_ envelope: Envelope, context: DestinationContext) throws {
        let event = envelope.event
        hippo.client.logEvent(named: event.name, properties: event.properties.foundationValue)
    }
}

@Test func hippoReceivesEveryEvent() async {
    let hippo = HippoAnalyticsClient(apiKey: "key")
    let analytics = AnalyticsClient(destinations: [HippoDestination(client: hippo)])
    analytics.track("menu_item_ordered", ["item_name": "Pizza"])
    await analytics.shutdown()
    #expect(hippo.loggedEvents.map(\.name) == ["menu_item_ordered"])
}
