import Tally

/// The partner map screen (the article's view controller): shows the partners as markers and tracks taps
/// on them.
///
/// It knows the map only through ``MapViewProvidable``: no SDK import, no SDK delegate, nothing that needs
/// an API key. The app gives it the live provider (`PartnerMapViewModel.live(partners:analytics:)` in
/// `PartnerMapLive`); tests give it a Fake and tap its markers.
///
/// ```swift
/// let screen = PartnerMapViewModel(partners: Partner.samples, mapProvider: provider, analytics: analytics)
/// screen.viewDidLoad()                                // camera and one marker per partner
/// // the user taps Café Tortoni's marker:             partner_marker_tapped {"partner_id":"cafe-tortoni"}
/// ```
@MainActor
public final class PartnerMapViewModel: MapProviderDelegate {
    /// The partners shown.
    public let partners: [Partner]
    /// The map.
    public let mapProvider: any MapViewProvidable
    private let analytics: any AnalyticsTracking

    /// Creates the screen.
    public init(partners: [Partner], mapProvider: any MapViewProvidable, analytics: any AnalyticsTracking) {
        self.partners = partners
        self.mapProvider = mapProvider
        self.analytics = analytics
    }

    /// Sets the map up: listens to it, centres it on the partners and adds one marker per partner.
    public func viewDidLoad() {
        mapProvider.delegate = self
        mapProvider.setCamera(Self.camera(showing: partners))
        for partner in partners {
            mapProvider.addMarker(MapMarker(id: partner.id, title: partner.name, coordinate: partner.coordinate))
        }
    }

    /// Tracks a tap on a partner's marker. A marker that is not a partner's tracks nothing.
    public func didTapMarker(withID id: String) {
        guard partners.contains(where: { $0.id == id }) else { return }
        analytics.track(.partnerMarkerTapped(partnerID: id))
    }

    /// A camera centred on `partners`.
    static func camera(showing partners: [Partner]) -> MapCamera {
        guard !partners.isEmpty else { return MapCamera(center: MapCoordinate(latitude: 0, longitude: 0), zoom: 1) }
        let count = Double(partners.count)
        let latitude = partners.map(\.coordinate.latitude).reduce(0, +) / count
        let longitude = partners.map(\.coordinate.longitude).reduce(0, +) / count
        return MapCamera(center: MapCoordinate(latitude: latitude, longitude: longitude), zoom: 13)
    }
}
