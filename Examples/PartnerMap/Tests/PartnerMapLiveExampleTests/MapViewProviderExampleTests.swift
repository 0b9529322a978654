import PartnerMapExample
import PartnerMapLive
import PartnerMapSDK
import Tally
import TallyTesting
import Testing

/// The live provider, the one place that talks to the map SDK: a tap the SDK reports reaches the screen as
/// the partner's id and is tracked. This target may import the SDK; the screen's own tests do not.
@MainActor
@Suite(.exhaustive)
struct MapViewProviderExampleTests {
    init() {
        MapServices.provideAPIKey("test-key")  // As the app delegate does at start.
    }

    @Test func aTapTheSDKReportsIsTrackedWithThePartnersID() throws {
        let spy = AnalyticsSpy()
        let screen = try PartnerMapViewModel.live(partners: Partner.samples, analytics: spy)
        screen.viewDidLoad()
        let map = try #require((screen.mapProvider as? MapViewProvider)?.mapWrapper)
        let marker = try #require(map.markers.first { $0.userData as? String == "el-ateneo" })

        map.simulateUserTap(on: marker)

        spy.expectTracked(.partnerMarkerTapped(partnerID: "el-ateneo"))
        spy.expectValid(against: try ExamplesPlan.validator())
    }

    @Test func markersCarryThePartnersTitleAndPosition() throws {
        let provider = try MapViewProvider()
        let partner = Partner.samples[0]

        provider.addMarker(MapMarker(id: partner.id, title: partner.name, coordinate: partner.coordinate))

        let marker = try #require(provider.mapWrapper.markers.first)
        #expect(marker.title == "Café Tortoni")
        #expect(marker.userData as? String == "cafe-tortoni")
        #expect(marker.position == Coordinate(latitude: -34.6088, longitude: -58.3785))
    }

    @Test func theProviderListensToTheSDKOnlyWhileItHasADelegate() throws {
        let provider = try MapViewProvider()
        let screen = PartnerMapViewModel(partners: [], mapProvider: provider, analytics: AnalyticsSpy())

        provider.delegate = screen
        #expect(provider.mapWrapper.delegate === provider)
        provider.delegate = nil
        #expect(provider.mapWrapper.delegate == nil)
    }

    @Test func theCameraReachesTheSDK() throws {
        let provider = try MapViewProvider()

        provider.setCamera(MapCamera(center: MapCoordinate(latitude: -34.6, longitude: -58.4), zoom: 13))

        #expect(
            provider.mapWrapper.camera
                == CameraPosition(target: Coordinate(latitude: -34.6, longitude: -58.4), zoom: 13))
    }
}
