import PartnerMapExample
import PartnerMapSDK
import Tally

/// The article's `MapViewProvider`: the live ``PartnerMapExample/MapViewProvidable``, and the only type
/// that talks to the map SDK.
///
/// The "secret sauce": as soon as the screen sets ``delegate``, the provider makes itself the SDK map's
/// delegate, and forwards only what the screen cares about, the tapped marker's id, instead of the SDK's
/// map and marker objects.
@MainActor
public final class MapViewProvider: MapViewProvidable, MapViewDelegate {
    /// The SDK's map view (the article's `mapWrapper`).
    public let mapWrapper: MapView

    /// Creates the provider and its map.
    ///
    /// - Throws: `MapServicesError` when the app has not provided the SDK's API key.
    public init(camera: MapCamera = MapCamera(center: MapCoordinate(latitude: 0, longitude: 0), zoom: 1)) throws {
        mapWrapper = try MapView(camera: Self.cameraPosition(camera))
    }

    public var view: AnyObject { mapWrapper }

    public weak var delegate: (any MapProviderDelegate)? {
        didSet { mapWrapper.delegate = delegate == nil ? nil : self }
    }

    public func setCamera(_ camera: MapCamera) {
        mapWrapper.camera = Self.cameraPosition(camera)
    }

    public func addMarker(_ marker: MapMarker) {
        let pin = Marker(
            position: Coordinate(latitude: marker.coordinate.latitude, longitude: marker.coordinate.longitude))
        pin.title = marker.title
        pin.userData = marker.id
        pin.map = mapWrapper
    }

    // MARK: MapViewDelegate

    @discardableResult
    public func mapView(_ mapView: MapView, didTap marker: Marker) -> Bool {
        guard let id = marker.userData as? String else { return false }
        delegate?.didTapMarker(withID: id)
        return true
    }

    private static func cameraPosition(_ camera: MapCamera) -> CameraPosition {
        CameraPosition(
            target: Coordinate(latitude: camera.center.latitude, longitude: camera.center.longitude),
            zoom: Float(camera.zoom))
    }
}

extension PartnerMapViewModel {
    /// The screen with the live map: the article's default `MapViewProvider()` argument, kept out of the
    /// screen's own module so that module (and its tests) never depends on the SDK.
    ///
    /// - Throws: `MapServicesError` when the app has not provided the SDK's API key.
    public static func live(partners: [Partner], analytics: any AnalyticsTracking) throws -> PartnerMapViewModel {
        PartnerMapViewModel(partners: partners, mapProvider: try MapViewProvider(), analytics: analytics)
    }
}
