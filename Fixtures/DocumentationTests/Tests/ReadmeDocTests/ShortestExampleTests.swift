// README.md, "The shortest real example": its test.

import TallyTesting
import Testing

@Test(.exhaustive) func addingToTheOrderTracksIt() {
    let spy = AnalyticsSpy()
    MenuItemDetailModel(itemName: "Pizza", analytics: spy).addToOrder()
    spy.expectTracked(.menuItemOrdered(itemName: "Pizza"))
}
