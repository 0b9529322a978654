// Getting started: "Declare events", "Track through the protocol" and "Create one client".

import FirebaseAnalytics
import Tally

extension Event {
    static func menuItemDetailVisited(itemName: String) -> Event {
        Event("menu_item_detail_visited", ["item_name": .string(itemName)])
    }
    static func menuItemOrdered(itemName: String, price: Double) -> Event {
        Event("menu_item_ordered", ["item_name": .string(itemName), "price": .double(price)])
    }
}

struct MenuItemDetailModel {
    let item: MenuItem
    let analytics: any AnalyticsTracking

    func onAppear() { analytics.track(.menuItemDetailVisited(itemName: item.name)) }
}

func createOneClient() -> AnalyticsClient {
    let analytics = AnalyticsClient(
        processors: [.context(["app_version": "2.3.0"]), .redact(keys: ["email"])],
        destinations: [FirebaseDestination(sdk: FirebaseAnalytics.Analytics.self), ConsoleDestination()],
        configuration: .init(onProblem: { problem in logger.warning("\(problem)") })
    )
    return analytics
}
