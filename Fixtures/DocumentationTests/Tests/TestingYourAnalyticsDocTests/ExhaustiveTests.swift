// Testing your analytics: "Exhaustive by default".

import Tally
import TallyTesting
import Testing
import XCTest

@Suite(.exhaustive)
struct OrderTests {
    @Test func addingAnItemTracksTheOrder() {
        let spy = AnalyticsSpy()
        let model = MenuItemDetailModel(item: .pizza, order: Order(items: []), analytics: spy)
        model.addOrRemoveFromOrder()
        spy.expectTracked(.menuItemOrdered(itemName: "Pizza"))
    }
}

final class MenuItemDetailModelXCTests: XCTestCase {
    override func invokeTest() {
        withExhaustiveCheck { super.invokeTest() }
    }
}

extension MenuItemDetailModelXCTests {
    func testAddingAnItemTracksTheOrder() {
        let spy = AnalyticsSpy()
        let model = MenuItemDetailModel(item: .pizza, order: Order(items: []), analytics: spy)
        model.addOrRemoveFromOrder()
        spy.expectTracked(.menuItemOrdered(itemName: "Pizza"))
    }
}
