import PartnerMapExample
import Tally
import TallyTesting
import Testing

/// The article's "properly tested" screen: taps on partner markers are tracked, verified with a Fake map
/// provider, without importing the map SDK (this test target does not depend on `PartnerMapSDK`).
@MainActor
@Suite(.exhaustive)
struct PartnerMapViewModelExampleTests {
    let spy = AnalyticsSpy()
    let map = FakeMapViewProvider()

    func loadedScreen() -> PartnerMapViewModel {
        let screen = PartnerMapViewModel(partners: Partner.samples, mapProvider: map, analytics: spy)
        screen.viewDidLoad()
        return screen
    }

    @Test func tappingAPartnersMarkerTracksThePartner() {
        let screen = loadedScreen()

        map.tapMarker(withID: "cafe-tortoni")

        spy.expectTracked(Event("partner_marker_tapped", ["partner_id": "cafe-tortoni"]))
        withExtendedLifetime(screen) {}
    }

    @Test func everyTapCounts() {
        let screen = loadedScreen()

        map.tapMarker(withID: "cafe-tortoni")
        map.tapMarker(withID: "la-bombonera")
        map.tapMarker(withID: "cafe-tortoni")

        spy.expectCount(2, of: .named("partner_marker_tapped", containing: ["partner_id": "cafe-tortoni"]))
        spy.expectCount(1, of: .named("partner_marker_tapped", containing: ["partner_id": "la-bombonera"]))
        withExtendedLifetime(screen) {}
    }

    @Test func loadingTheMapTracksNothing() {
        let screen = loadedScreen()

        spy.expectNoEvents()
        withExtendedLifetime(screen) {}
    }

    @Test func aTapOnAMarkerThatIsNotAPartnersTracksNothing() {
        let screen = loadedScreen()

        screen.didTapMarker(withID: "users-location")

        spy.expectNoEvents()
    }

    @Test func loadingShowsOneMarkerPerPartnerAndListensToTheMap() throws {
        let screen = loadedScreen()

        #expect(map.markers.map(\.id) == ["cafe-tortoni", "el-ateneo", "la-bombonera"])
        #expect(map.markers.first?.title == "Café Tortoni")
        #expect(map.delegate === screen)
        let camera = try #require(map.camera)
        #expect(abs(camera.center.latitude - -34.6134) < 0.001)
    }

    @Test func everythingTheScreenTracksIsInTheTrackingPlan() throws {
        let screen = loadedScreen()
        for partner in Partner.samples { map.tapMarker(withID: partner.id) }

        spy.expectCount(3)
        spy.expectValid(against: try ExamplesPlan.validator())
        withExtendedLifetime(screen) {}
    }
}
