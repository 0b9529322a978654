// Testing your analytics: "Unit tests with a spy".

import Tally
import TallyTesting
import Testing

@Suite(.exhaustive)
struct MenuItemDetailModelTests {
    @Test func addingAnItemTracksTheOrder() {
        let spy = AnalyticsSpy()
        let model = MenuItemDetailModel(item: .pizza, order: Order(items: []), analytics: spy)
        model.addOrRemoveFromOrder()
        spy.expectTracked(.menuItemOrdered(itemName: "Pizza"))
    }

    @Test func removingAnItemTracksNothing() {
        let spy = AnalyticsSpy()
        let model = MenuItemDetailModel(item: .pizza, order: Order(items: [.pizza]), analytics: spy)
        model.addOrRemoveFromOrder()
        spy.expectNoEvents()
    }
}

@Test func scopedExpectations() {
    let spy = AnalyticsSpy()
    let model = LoginScreenModel(analytics: spy)
    spy.track(.screen("Menu"))  // tracked before: the scoped expectations below do not count it

    spy.expectTracked(.screen("Login"), when: { model.wakeup() })
    spy.expectTracked(Event("login_tapped", ["action": "tap"]), when: { model.login() })

    spy.expect(when: { model.signUp() }) { spy in
        spy.expectTracked(.named("sign_up_tapped"))
        spy.expectNothingElse()
    }
}
