// "Names a vendor SDK shares": a file that imports Tally and RudderStackAnalytics (rudder-sdk-swift 1.3.1)
// names `Event` with its module. RudderStack's `Analytics`, `Configuration` and `Properties` do not clash:
// Tally's client is `AnalyticsClient`, and its `Configuration` and `Properties` are nested types.

import RudderStackAnalytics
import Tally

func trackBoth(_ event: Tally.Event, analytics: Tally.AnalyticsClient, rudder: RudderStackAnalytics.Analytics) {
    analytics.track(event)
    rudder.track(name: event.name, properties: event.properties.foundationValue)
}

func rudderUserId(_ event: any RudderStackAnalytics.Event) -> String? { event.userId }

func makeRudder() -> Analytics {
    Analytics(configuration: Configuration(writeKey: "key", dataPlaneUrl: "https://example.com"))
}
