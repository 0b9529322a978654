// README.md, "The shortest real example": the app's code.

import FirebaseAnalytics
import Tally

extension Event {
    static func menuItemOrdered(itemName: String) -> Event {
        Event("menu_item_ordered", ["item_name": .string(itemName)])
    }
}

struct MenuItemDetailModel {
    let itemName: String
    let analytics: any AnalyticsTracking
    func addToOrder() { analytics.track(.menuItemOrdered(itemName: itemName)) }
}

// At app start: one client, several destinations.
let analytics = AnalyticsClient(
    processors: [.superProperties(["app_version": "2.3.0"]), .redact(keys: ["email"])],
    destinations: [FirebaseDestination(sdk: Analytics.self), ConsoleDestination()]
)
