// Vendor adapters: "A vendor Tally does not cover".

import HippoAnalytics
import Tally

protocol HippoAnalyticsAdapter {
    func logEvent(named name: String, properties: [String: Any]?)
}

extension HippoAnalyticsClient: HippoAnalyticsAdapter {}

struct HippoDestination: Destination {
    let name = "hippo"
    private let hippo: VendorClient<any HippoAnalyticsAdapter>

    init(adapter: any HippoAnalyticsAdapter) { hippo = VendorClient(adapter) }

    func receive(_ envelope: Envelope, context: DestinationContext) throws {
        let event = envelope.event
        hippo.client.logEvent(named: event.name, properties: event.properties.foundationValue)
    }
}
