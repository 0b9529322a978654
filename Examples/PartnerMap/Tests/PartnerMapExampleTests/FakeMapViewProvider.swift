import PartnerMapExample

/// The article's Fake: a `MapViewProvidable` with just enough of a working map to drive the screen, and no
/// map SDK anywhere (this test target does not depend on it).
@MainActor
final class FakeMapViewProvider: MapViewProvidable {
    let view: AnyObject = FakeView()
    weak var delegate: (any MapProviderDelegate)?
    private(set) var camera: MapCamera?
    private(set) var markers: [MapMarker] = []

    func setCamera(_ camera: MapCamera) { self.camera = camera }
    func addMarker(_ marker: MapMarker) { markers.append(marker) }

    /// The user taps the marker with `id`, if the map shows one.
    func tapMarker(withID id: String) {
        guard markers.contains(where: { $0.id == id }) else { return }
        delegate?.didTapMarker(withID: id)
    }

    final class FakeView {}
}
