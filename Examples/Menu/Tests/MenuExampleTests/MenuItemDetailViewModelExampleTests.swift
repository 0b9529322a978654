import MenuExample
import Tally
import TallyTesting
import Testing

/// The article's view model tests, with `AnalyticsSpy` as the `EventLoggingSpy`: no `loggedEvents.first`,
/// no `as? String`, and `expectNoEvents()` for what must not be logged. Exhaustive mode fails any test on
/// an event no expectation accounted for, such as an order logged twice.
@Suite(.exhaustive)
struct MenuItemDetailViewModelExampleTests {
    let item = MenuItem(name: "item")

    @Test func onAppearLogsMenuItemDetailVisitedEvent() {
        let spy = AnalyticsSpy()
        let viewModel = MenuItemDetail.ViewModel(
            item: item, orderController: OrderController(order: Order(items: [])), eventLogging: spy)

        // Scoped to onAppear(): a visit logged when the model is created, before the screen shows, fails here.
        spy.expectTracked(Event("menu_item_detail_visited", ["item_name": "item"]), when: { viewModel.onAppear() })
    }

    @Test func onAddingItemToOrderLogsMenuItemOrderedEvent() {
        let spy = AnalyticsSpy()
        let viewModel = MenuItemDetail.ViewModel(
            item: item, orderController: OrderController(order: Order(items: [])), eventLogging: spy)

        viewModel.addOrRemoveFromOrder()

        spy.expectTracked(Event("menu_item_ordered", ["item_name": "item"]))
        #expect(viewModel.isInOrder)
    }

    /// The article's extra test: it catches an event logged before the `if`, which the previous test
    /// would not.
    @Test func onRemovingItemFromOrderDoesNotLogEvent() {
        let spy = AnalyticsSpy()
        let viewModel = MenuItemDetail.ViewModel(
            item: item, orderController: OrderController(order: Order(items: [item])), eventLogging: spy)

        viewModel.addOrRemoveFromOrder()

        spy.expectNoEvents()
        #expect(!viewModel.isInOrder)
    }

    @Test func onlyEachAddIsLogged() {
        let spy = AnalyticsSpy()
        let viewModel = MenuItemDetail.ViewModel(item: item, orderController: OrderController(), eventLogging: spy)

        viewModel.addOrRemoveFromOrder()  // added
        viewModel.addOrRemoveFromOrder()  // removed
        viewModel.addOrRemoveFromOrder()  // added again

        spy.expectCount(2, of: .named("menu_item_ordered", containing: ["item_name": "item"]))
    }

    @Test func everythingTheScreenLogsIsInTheTrackingPlan() throws {
        let spy = AnalyticsSpy()
        let viewModel = MenuItemDetail.ViewModel(
            item: MenuItem(name: "Margherita", price: 9.5), orderController: OrderController(), eventLogging: spy)
        viewModel.onAppear()
        viewModel.addOrRemoveFromOrder()

        spy.expectCount(2)
        spy.expectValid(against: try ExamplesPlan.validator())
    }
}
