// Tally.md, the landing page's overview.

import FirebaseAnalytics
import Tally

func overview() async {
    let analytics = AnalyticsClient(
        processors: [.superProperties(["app_version": "2.3.0"]), .redact(keys: ["email"])],
        destinations: [FirebaseDestination(sdk: FirebaseAnalytics.Analytics.self), ConsoleDestination()]
    )
    analytics.track(.menuItemOrdered(itemName: "Pizza"))
    await analytics.flush()  // in tests: everything tracked so far has reached every destination
}
