/// The article's facade over the map SDK: everything the screen needs from a map, in the app's own types.
///
/// The screen depends on this protocol, never on the SDK: the app passes the live provider (which alone
/// imports the SDK), tests pass a Fake that implements just enough to be driven. As in the article, the
/// provider:
/// 1. wraps the SDK's map object behind a plain ``view`` (a `UIView` in the article),
/// 2. takes the camera as the app's own ``MapCamera``,
/// 3. reports taps to a ``MapProviderDelegate`` (dependency inversion: the SDK's delegate stays inside),
/// 4. creates the markers, which is not the screen's concern.
@MainActor
public protocol MapViewProvidable: AnyObject {
    /// The map's view, to put on screen. Its type is the SDK's business.
    var view: AnyObject { get }
    /// Told when the user taps a marker. Held weakly.
    var delegate: (any MapProviderDelegate)? { get set }
    /// Points the map at `camera`.
    func setCamera(_ camera: MapCamera)
    /// Shows `marker` on the map.
    func addMarker(_ marker: MapMarker)
}

/// The article's `MapProviderDelegate`: a class protocol with a single method, all the screen needs to
/// hear from the map. It can grow without breaking the SDK's side.
@MainActor
public protocol MapProviderDelegate: AnyObject {
    /// The user tapped the marker with this id (the id given to ``MapViewProvidable/addMarker(_:)``).
    func didTapMarker(withID id: String)
}

/// A point on Earth, in degrees.
public struct MapCoordinate: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Where the map looks, in the app's terms (the article's `MapCamera`).
public struct MapCamera: Sendable, Hashable {
    public var center: MapCoordinate
    public var zoom: Double

    public init(center: MapCoordinate, zoom: Double) {
        self.center = center
        self.zoom = zoom
    }
}

/// A marker to show, in the app's terms: the provider turns it into the SDK's marker.
public struct MapMarker: Sendable, Hashable {
    /// Comes back in ``MapProviderDelegate/didTapMarker(withID:)`` when the marker is tapped.
    public var id: String
    public var title: String
    public var coordinate: MapCoordinate

    public init(id: String, title: String, coordinate: MapCoordinate) {
        self.id = id
        self.title = title
        self.coordinate = coordinate
    }
}
