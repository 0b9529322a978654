import Tally

/// The menu's events, one static factory each, as in `Examples/tracking-plan.yaml`.
extension Event {
    /// The detail screen of a menu item appeared.
    ///
    /// - Parameter itemName: the item's name as shown on the menu.
    public static func menuItemDetailVisited(itemName: String) -> Event {
        Event("menu_item_detail_visited", ["item_name": .string(itemName)])
    }

    /// The user added a menu item to the order.
    ///
    /// - Parameter itemName: the item's name as shown on the menu.
    public static func menuItemOrdered(itemName: String) -> Event {
        Event("menu_item_ordered", ["item_name": .string(itemName)])
    }
}
