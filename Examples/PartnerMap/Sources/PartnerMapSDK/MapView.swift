/// A simulated map SDK in the style of Google Maps, for "Testing behavior, not functionality": a map view
/// object, markers, and a delegate told about taps on markers.
///
/// This module plays the vendor's black box. Only the live provider (`PartnerMapLive`) imports it; the
/// view model and its tests never do.
///
/// Like Google Maps, it must be given an API key before a map view can be created, which is what the
/// article trips over when a test runs without the app delegate: here ``MapView/init(camera:)`` throws
/// ``MapServicesError`` instead of crashing.
@MainActor
public enum MapServices {
    private static var apiKey: String?

    /// Registers the app's API key. Call it once at app start, before creating a map view.
    public static func provideAPIKey(_ key: String) { apiKey = key }

    /// Whether an API key was provided.
    public static var hasAPIKey: Bool { apiKey != nil }
}

/// Thrown when a map view is created before ``MapServices/provideAPIKey(_:)``.
public struct MapServicesError: Error, Sendable, CustomStringConvertible {
    public let description = "MapServices.provideAPIKey(_:) must be called before creating a MapView"
}

/// A point on Earth, in degrees.
public struct Coordinate: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Where the map looks: its centre and zoom level.
public struct CameraPosition: Sendable, Hashable {
    public var target: Coordinate
    public var zoom: Float

    public init(target: Coordinate, zoom: Float) {
        self.target = target
        self.zoom = zoom
    }
}

/// Told what the user does on a map view.
@MainActor
public protocol MapViewDelegate: AnyObject {
    /// The user tapped `marker`. Return true if the app handled the tap.
    @discardableResult
    func mapView(_ mapView: MapView, didTap marker: Marker) -> Bool
}

/// A pin on a map view. Setting its ``map`` shows it there.
@MainActor
public final class Marker {
    /// Where the marker stands.
    public var position: Coordinate
    /// The marker's title, shown in its info window.
    public var title: String?
    /// Anything the app wants to find again when the marker is tapped.
    public var userData: Any?
    /// The map the marker is on; set it to show the marker, nil to remove it.
    public weak var map: MapView? {
        didSet {
            oldValue?.remove(self)
            map?.add(self)
        }
    }

    /// Creates a marker that is on no map yet.
    public init(position: Coordinate) { self.position = position }
}

/// The map: it draws markers and tells its delegate when the user taps one.
@MainActor
public final class MapView {
    /// Told about taps. Held weakly.
    public weak var delegate: (any MapViewDelegate)?
    /// Where the map looks.
    public var camera: CameraPosition
    /// The markers on the map, in the order they were added.
    public private(set) var markers: [Marker] = []

    /// Creates a map view.
    ///
    /// - Throws: ``MapServicesError`` if no API key was provided.
    public init(camera: CameraPosition) throws(MapServicesError) {
        guard MapServices.hasAPIKey else { throw MapServicesError() }
        self.camera = camera
    }

    /// The simulation's stand-in for a finger: the user taps `marker`, and the map tells its delegate, as
    /// the real SDK does from its touch handling. A marker that is not on this map cannot be tapped.
    public func simulateUserTap(on marker: Marker) {
        guard markers.contains(where: { $0 === marker }) else { return }
        delegate?.mapView(self, didTap: marker)
    }

    fileprivate func add(_ marker: Marker) { markers.append(marker) }
    fileprivate func remove(_ marker: Marker) { markers.removeAll { $0 === marker } }
}
