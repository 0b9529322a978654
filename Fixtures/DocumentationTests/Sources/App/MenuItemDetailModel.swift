// The app of TallyPlan.md and TallyTesting.md. Its plan (tracking-plan.yaml, TallyPlan.md's) gives it the
// generated `Event.menuItemOrdered(itemName:quantity:size:email:)`, through the build-tool plugin.

import Tally

struct MenuItem {
    let name: String
    static let pizza = MenuItem(name: "Pizza")
}

extension Event {
    static func menuItemDetailVisited(itemName: String) -> Event {
        Event("menu_item_detail_visited", ["item_name": .string(itemName)])
    }
}

struct MenuItemDetailModel {
    let item: MenuItem
    let analytics: any AnalyticsTracking

    func onAppear() { analytics.track(.menuItemDetailVisited(itemName: item.name)) }
}

struct OrderModel {
    let analytics: any AnalyticsTracking

    func order(_ item: MenuItem) { analytics.track(.menuItemOrdered(itemName: item.name, quantity: 1)) }
}
