import Foundation
import HippoAnalytics
import Tally

extension Event {
    public static func menuItemDetailVisited(itemName: String) -> Event {
        Event("menu_item_detail_visited", ["item_name": .string(itemName)])
    }

    public static func menuItemOrdered(itemName: String, price: Double) -> Event {
        Event("menu_item_ordered", ["item_name": .string(itemName), "price": .double(price)])
    }
}

/// App code: depends on the tracking protocol, never on a vendor.
public struct MenuItemDetailModel: Sendable {
    public let itemName: String
    public let price: Double
    public let analytics: any AnalyticsTracking

    public init(itemName: String, price: Double, analytics: any AnalyticsTracking) {
        self.itemName = itemName
        self.price = price
        self.analytics = analytics
    }

    public func onAppear() { analytics.track(.menuItemDetailVisited(itemName: itemName)) }
    public func addToOrder() { analytics.track(.menuItemOrdered(itemName: itemName, price: price)) }
    public func removeFromOrder() {}
}

/// The calls the app makes on Hippo's SDK, one to one, so a test can spy on them.
public protocol HippoAnalyticsClientInterface: Sendable {
    func logEvent(named name: String, properties: [String: PropertyValue])
}

/// A destination for Hippo: the event to SDK transformation, the part worth a unit test.
public struct HippoDestination: Destination {
    public let name = "hippo"
    let client: any HippoAnalyticsClientInterface

    public init(client: any HippoAnalyticsClientInterface) { self.client = client }

    public func receive(_ envelope: Envelope, context: DestinationContext) throws {
        let event = envelope.event
        guard event.kind == .track else { return }
        client.logEvent(named: event.name, properties: event.properties.dictionary)
    }
}
