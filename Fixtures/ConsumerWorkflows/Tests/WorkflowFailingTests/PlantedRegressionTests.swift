import Shop
import Tally
import TallyTesting
import Testing

/// A planted regression for the plan gate, recorded on its own by `check`: the test passes, but the event it
/// records carries a property the plan does not have, which `tally validate` and `tally coverage` must reject.
@Suite struct PlantedRegressionTests {
    @Test func checkoutWithAnUnplannedProperty() {
        let spy = AnalyticsSpy()
        spy.track(Event("checkout_completed", ["total": .double(5), "coupon": .string("SPRING")]))
        spy.expectTracked(.named("checkout_completed"))
    }
}
