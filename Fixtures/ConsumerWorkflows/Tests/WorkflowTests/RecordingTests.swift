import Shop
import TallyTesting
import Testing

/// Unit tests with spies. Run with TALLY_RECORD_DIR set, every spy writes what it saw to that folder, which
/// `tally validate` and `tally coverage --min 100` then check against tracking-plan.yaml (`check`).
@Suite(.exhaustive) struct RecordingTests {
    @Test func viewingAProductTracksIt() {
        let spy = AnalyticsSpy()
        ShopModel(analytics: spy).view(product: "p1")
        spy.expectTracked(.productViewed(id: "p1"))
    }

    @Test func checkingOutTracksTheTotal() {
        let spy = AnalyticsSpy()
        ShopModel(analytics: spy).checkout(total: 19.5)
        spy.expectTracked(.checkoutCompleted(total: 19.5))
    }
}
