// What Tally.md leaves implicit: an event factory, and Firebase's class conformed once.

import FirebaseAnalytics
import Tally

extension Event {
    static func menuItemOrdered(itemName: String) -> Event {
        Event("menu_item_ordered", ["item_name": .string(itemName)])
    }
}

extension FirebaseAnalytics.Analytics: @retroactive FirebaseAnalyticsStaticAPI {}
