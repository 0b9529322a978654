import Tally

/// The menu item detail screen of "Testing Side Effects".
public enum MenuItemDetail {
    /// The article's `MenuItemDetail.ViewModel`: it logs a visit when the screen appears and an order when
    /// the user adds the item, and nothing when the user removes it.
    ///
    /// ```swift
    /// let viewModel = MenuItemDetail.ViewModel(item: pizza, orderController: orders, eventLogging: analytics)
    /// viewModel.onAppear()                 // menu_item_detail_visited {"item_name":"Pizza"}
    /// viewModel.addOrRemoveFromOrder()     // menu_item_ordered {"item_name":"Pizza"}
    /// viewModel.addOrRemoveFromOrder()     // removed again: nothing logged
    /// ```
    public final class ViewModel {
        /// The item the screen shows.
        public let item: MenuItem
        private let orderController: OrderController
        private let eventLogging: any EventLogging

        /// Creates the model.
        ///
        /// - Parameters:
        ///   - item: the item the screen shows.
        ///   - orderController: the current order.
        ///   - eventLogging: where events are logged: the app's `AnalyticsClient`, or a spy in tests.
        public init(item: MenuItem, orderController: OrderController, eventLogging: any EventLogging) {
            self.item = item
            self.orderController = orderController
            self.eventLogging = eventLogging
        }

        /// Whether the item is in the order.
        public var isInOrder: Bool { orderController.order.items.contains(item) }

        /// The screen appeared (SwiftUI's `onAppear`). Logged here rather than in `init`, because the app
        /// creates view models for every visible row before any detail screen is shown.
        public func onAppear() {
            eventLogging.track(.menuItemDetailVisited(itemName: item.name))
        }

        /// Adds the item to the order, or removes it when it is already there. Only adding is logged.
        public func addOrRemoveFromOrder() {
            if isInOrder {
                orderController.removeFromOrder(item: item)
            } else {
                orderController.addToOrder(item: item)
                eventLogging.track(.menuItemOrdered(itemName: item.name))
            }
        }
    }
}
