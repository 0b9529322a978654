/// An item on the menu.
public struct MenuItem: Sendable, Hashable {
    /// The item's name as shown on the menu.
    public var name: String
    /// The price in the menu's currency.
    public var price: Double

    /// Creates an item.
    public init(name: String, price: Double = 0) {
        self.name = name
        self.price = price
    }
}

/// An order: the items the user chose.
public struct Order: Sendable, Hashable {
    /// The items, in the order they were added.
    public var items: [MenuItem]

    /// Creates an order.
    public init(items: [MenuItem] = []) { self.items = items }
}

/// Keeps the current order, as in the article's companion app.
public final class OrderController {
    /// The current order.
    public private(set) var order: Order

    /// Creates a controller for `order`.
    public init(order: Order = Order()) { self.order = order }

    /// Adds `item` to the order.
    public func addToOrder(item: MenuItem) { order.items.append(item) }

    /// Removes every `item` from the order.
    public func removeFromOrder(item: MenuItem) { order.items.removeAll { $0 == item } }
}
